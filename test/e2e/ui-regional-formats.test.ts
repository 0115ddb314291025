import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { SCREENSHOT_DIR, SCREENSHOTS_WANTED } from '../helpers/harness/app-page'
import { useUiSession } from '../helpers/harness/ui-session'
import { join } from 'node:path'

/**
 * The clerk's regional formats in real Chromium over the real core: the browser's locale (German) stands for the
 * OS's regional settings, so the table, the detail panel and the printed page write Greta Achterberg's salary
 * (58234.50) and hire date (2026-11-27) as "58.234,50" and "27.11.2026", the words staying English; Settings →
 * Regional formats switches them to "58,234.50" and "11/27/2026". Greta is a fixture the sandbox serves for this
 * test alone (SandboxOptions `fixtures`), so the literals of the acceptance are asserted as written.
 */

const GRETA = {
  index: 417,
  firstName: 'Greta',
  lastName: 'Achterberg',
  annualSalary: 58_234.5,
  hireDate: '2026-11-27',
} as const

const session = useUiSession({
  sandbox: { size: 1200, fixtures: [GRETA] },
  start: 'synced',
  locale: 'de-DE',
  viewport: { width: 1366, height: 768 },
})
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

function gridCell(column: string): Locator {
  return page.getByRole('gridcell').and(page.locator(`[data-col="${column}"]`))
}

/** Searches for Greta by her last name until her row is the only one. */
async function showGreta(): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search employees' }).fill(GRETA.lastName)
  await expect.poll(() => gridCell('annualSalary').count()).toBe(1)
  expect(await gridCell('lastName').innerText()).toBe(GRETA.lastName)
}

describe('regional formats', () => {
  it('writes amounts and dates as Germany does in the table, the detail panel and the printed page', async () => {
    // The sync bar's moment: English words, German digits and order in its tooltip.
    const synced = page.getByText(/^Last synced/).locator('time')
    expect(await synced.innerText()).toBe('just now')
    expect(await synced.getAttribute('title')).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)
    await expect
      .poll(() =>
        page
          .getByText(/ of [\d.]+ employees/)
          .first()
          .innerText(),
      )
      .toMatch(/^1\.200 of 1\.200 employees/)
    // Annual salary may not be among the default columns: the clerk adds it (checking a ticked box changes nothing).
    await page.getByRole('button', { name: 'Columns' }).click()
    const show = page.getByRole('group', { name: 'Show columns' })
    await show.getByRole('checkbox', { name: /Annual salary/ }).check()
    await show.getByRole('checkbox', { name: /Hire date/ }).check()
    await page.keyboard.press('Escape')
    await showGreta()
    expect(await gridCell('annualSalary').innerText()).toBe('58.234,50')
    expect(await gridCell('hireDate').innerText()).toBe('27.11.2026')
    await gridCell('annualSalary').scrollIntoViewIfNeeded()
    await ui.screenshot('ui-regional-formats-1-german-table')

    await page.getByRole('searchbox', { name: 'Search employees' }).press('ArrowDown')
    await page.keyboard.press('Enter')
    const panel = page.getByRole('complementary', { name: /Greta Achterberg/ })
    const fact = (label: string): Locator =>
      panel.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]')
    await expect.poll(() => fact('Annual salary').innerText()).toBe('58.234,50')
    expect(await fact('Hire date').innerText()).toBe('27.11.2026')
    await ui.screenshot('ui-regional-formats-2-german-panel')

    await page.getByRole('grid', { name: 'Employees' }).focus()
    await page.keyboard.press('Control+p')
    await expect.poll(() => app.printed.length).toBe(1)
    const printed = app.printed[0]!
    expect(printed.html).toContain('>Achterberg</td>')
    expect(printed.html).toContain('>58.234,50</td>')
    expect(printed.html).toContain('>27.11.2026</td>')
    expect(printed.html).toContain('<p class="count">1 employee</p>')
    // The page's moments are German too (the day the test runs, so matched by shape), each with its zone.
    expect(printed.html).toMatch(
      /<dt>Printed<\/dt><dd>\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} \(UTC[+-]\d{2}:\d{2}, /,
    )
    expect(printed.html).toMatch(/<dt>Data synced<\/dt><dd>\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} \(UTC/)
    if (SCREENSHOTS_WANTED) {
      const context = await session().browser.context.browser()!.newContext({ javaScriptEnabled: false })
      const sheet = await context.newPage()
      await sheet.setContent(printed.html)
      await sheet.screenshot({ path: join(SCREENSHOT_DIR, 'ui-regional-formats-3-printed.png') })
      await context.close()
    }
  })

  it('switches to US English formats when chosen in Settings', async () => {
    await page.getByRole('button', { name: 'Settings' }).click()
    const choice = page.getByLabel('Numbers and dates')
    expect(await choice.inputValue()).toBe('system')
    expect(await choice.locator('option:checked').innerText()).toBe(
      'System (German (Germany)) – 58.234,50 · 27.11.2026',
    )
    await choice.selectOption('en-US')
    await choice.scrollIntoViewIfNeeded()
    await ui.screenshot('ui-regional-formats-4-setting')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    await page.getByRole('button', { name: 'Done' }).click()

    await expect
      .poll(() =>
        page
          .getByText(/ of [\d,]+ employees/)
          .first()
          .innerText(),
      )
      .toMatch(/ of 1,200 employees/)
    await showGreta()
    expect(await gridCell('annualSalary').innerText()).toBe('58,234.50')
    expect(await gridCell('hireDate').innerText()).toBe('11/27/2026')
    await gridCell('annualSalary').scrollIntoViewIfNeeded()
    await ui.screenshot('ui-regional-formats-5-english-table')
  })
})
