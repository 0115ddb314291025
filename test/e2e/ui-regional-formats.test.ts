import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { SCREENSHOT_DIR, SCREENSHOTS_WANTED } from '../helpers/harness/app-page'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { useUiSession } from '../helpers/harness/ui-session'
import { join } from 'node:path'

/**
 * The clerk's regional formats in real Chromium over the real core: the browser's locale (German) stands for the
 * OS's regional settings, so the table, the detail panel and the printed page write amounts and dates as Germany
 * does, the words staying English; Settings → Regional formats switches it to US English. The expected texts are
 * built from the sandbox's own values by hand (digit groups and day order), not with Intl, so the test does not
 * repeat the code it checks.
 */

const session = useUiSession({
  sandbox: { size: 1200 },
  start: 'synced',
  locale: 'de-DE',
  viewport: { width: 1366, height: 768 },
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

/** 58234.5 → "58.234,50" (or "58,234.50" with English separators). */
function amount(value: number, group: string, decimal: string): string {
  const [whole = '', cents = ''] = value.toFixed(2).split('.')
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${decimal}${cents}`
}

/** "2026-11-27" → "27.11.2026" (German) or "11/27/2026" (US). */
function day(iso: string, order: 'de' | 'us'): string {
  const [year, month, date] = iso.split('-')
  return order === 'de' ? `${date}.${month}.${year}` : `${month}/${date}/${year}`
}

interface Looked {
  readonly number: string
  readonly lastName: string
  readonly salary: number
  readonly hireDate: string
}

/** A sandbox employee with a salary of five digits or more (a thousands separator to see). */
function someone(): Looked {
  const row = sandbox
    .allEmployees()
    .find((each) => typeof each['annualSalary'] === 'number' && each['annualSalary'] >= 10_000)
  if (row === undefined) throw new Error('the sandbox has no salary to look at')
  return {
    number: String(row['employeeNumber']),
    lastName: String(row['lastName']),
    salary: row['annualSalary'] as number,
    hireDate: String(row['hireDate']),
  }
}

function gridCell(column: string): Locator {
  return page.getByRole('gridcell').and(page.locator(`[data-col="${column}"]`))
}

async function showOnly(person: Looked): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search employees' }).fill(person.number)
  await expect.poll(() => gridCell('annualSalary').count()).toBe(1)
}

describe('regional formats', () => {
  it('writes amounts and dates as Germany does in the table, the detail panel and the printed page', async () => {
    const person = someone()
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
    await showOnly(person)
    expect(await gridCell('annualSalary').innerText()).toBe(amount(person.salary, '.', ','))
    expect(await gridCell('hireDate').innerText()).toBe(day(person.hireDate, 'de'))
    await gridCell('annualSalary').scrollIntoViewIfNeeded()
    await ui.screenshot('ui-regional-formats-1-german-table')

    await page.getByRole('searchbox', { name: 'Search employees' }).press('ArrowDown')
    await page.keyboard.press('Enter')
    const panel = page.getByRole('complementary', { name: new RegExp(person.lastName) })
    const fact = (label: string): Locator =>
      panel.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]')
    await expect.poll(() => fact('Annual salary').innerText()).toBe(amount(person.salary, '.', ','))
    expect(await fact('Hire date').innerText()).toBe(day(person.hireDate, 'de'))
    await ui.screenshot('ui-regional-formats-2-german-panel')

    await page.getByRole('grid', { name: 'Employees' }).focus()
    await page.keyboard.press('Control+p')
    await expect.poll(() => app.printed.length).toBe(1)
    const printed = app.printed[0]!
    expect(printed.html).toContain(`>${amount(person.salary, '.', ',')}</td>`)
    expect(printed.html).toContain(`>${day(person.hireDate, 'de')}</td>`)
    expect(printed.html).toContain('<p class="count">1 employee</p>')
    if (SCREENSHOTS_WANTED) {
      const context = await session().browser.context.browser()!.newContext({ javaScriptEnabled: false })
      const sheet = await context.newPage()
      await sheet.setContent(printed.html)
      await sheet.screenshot({ path: join(SCREENSHOT_DIR, 'ui-regional-formats-3-printed.png') })
      await context.close()
    }
  })

  it('switches to US English formats when chosen in Settings', async () => {
    const person = someone()
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
    await showOnly(person)
    expect(await gridCell('annualSalary').innerText()).toBe(amount(person.salary, ',', '.'))
    expect(await gridCell('hireDate').innerText()).toBe(day(person.hireDate, 'us'))
    await gridCell('annualSalary').scrollIntoViewIfNeeded()
    await ui.screenshot('ui-regional-formats-5-english-table')
  })
})
