import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'
import { churnTheService } from '../helpers/sandbox'

/**
 * Hostile text from the service (src/main/sandbox/hostile-names.ts: markup and script in names, right-to-left
 * overrides, control characters, a 100 KB name), synced, searched and opened in real Chromium: nothing runs, no
 * element is injected, overrides stay isolated, the long name is cut in the table and readable in the panel.
 */

const SIZE = 60

const session = useUiSession({ sandbox: { size: SIZE, seed: 12, hostileNames: true }, start: 'synced' })
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const bodyRows = (): Locator => grid().locator('[role="row"]:not([aria-rowindex="1"])')
const panel = (): Locator => page.getByRole('complementary')

/** How `element` lays out its text's direction: 'isolate' keeps an override inside it. */
const unicodeBidi = (element: Locator): Promise<string | undefined> =>
  element.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).unicodeBidi)

/** Nothing the hostile text carries may have run or become an element. */
async function expectInert(): Promise<void> {
  // A string, evaluated in the page: the test's own TypeScript knows no DOM.
  const found = await page.evaluate(`({
    pwned: window.__pwned,
    injected: document.querySelectorAll(
      'img[src="x"], [onerror], [onload], svg[onload], iframe, textarea, a[href^="javascript:"], b',
    ).length,
    scripts: [...document.querySelectorAll('script')].filter((s) => s.src === '' || s.textContent !== '').length,
    title: document.title,
  })`)
  expect(found).toEqual({ pwned: undefined, injected: 0, scripts: 0, title: 'RosterDesk' })
}

async function search(text: string): Promise<void> {
  const asked = () =>
    app.calls.some(
      (call) => call.channel === 'employees:query' && (call.args[0] as { text?: string }).text === text,
    )
  await page.getByRole('searchbox', { name: 'Search employees' }).fill(text)
  await expect.poll(asked).toBe(true)
}

describe('hostile text from the service is inert in every screen', () => {
  it('the synced list shows markup as text and no script runs', async () => {
    await expectInert()
    await search('script')
    await expect.poll(() => bodyRows().count()).toBeGreaterThan(0)
    await expect.poll(() => grid().innerText()).toContain('<script>window.__pwned=1</script>')
    await expectInert()
    await ui.screenshot('ui-hostile-1-markup-as-text')
  })

  it('an RTL override is isolated in its cell and in the detail title', async () => {
    await search('eve')
    await expect.poll(() => grid().innerText()).toContain('Eve\u202Eexe.gnp')
    const bidi = await grid()
      .locator('[role="gridcell"]', { hasText: 'Eve' })
      .first()
      .evaluate((cell) => cell.ownerDocument.defaultView?.getComputedStyle(cell).unicodeBidi)
    expect(bidi).toBe('isolate')
    await bodyRows().first().click()
    const heading = panel().getByRole('heading', { level: 2 })
    await expect.poll(() => heading.locator('bdi').count()).toBe(2)
    expect(await heading.locator('bdi').allTextContents()).toEqual(['Eve\u202Eexe.gnp', 'Lee\u202Eeliforp'])
    await expectInert()
    await ui.screenshot('ui-hostile-2-rtl-isolated')
    await panel().getByRole('button', { name: 'Close details' }).click()
  })

  it('a 100 KB name is cut in the table, readable in the panel, and stretches nothing', async () => {
    await search('long namexxx')
    await expect.poll(() => bodyRows().count()).toBeGreaterThan(0)
    const cell = grid().locator('[role="gridcell"]', { hasText: 'Namexxxx' }).first()
    const size = await cell.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(size.scroll).toBeGreaterThan(size.client)
    await bodyRows().first().click()
    const lastName = panel()
      .locator('dt', { hasText: /^Last name$/ })
      .locator('xpath=following-sibling::dd')
    // The whole text as the cache keeps it (cut at the sync's field limit, its end marked).
    expect((await lastName.innerText()).length).toBeGreaterThan(5_000)
    const layout = (await page.evaluate(`({
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      panelWidth: document.querySelector('.detail-panel')?.getBoundingClientRect().width ?? 0,
    })`)) as { pageOverflow: number; panelWidth: number }
    expect(layout.pageOverflow).toBeLessThanOrEqual(0)
    expect(layout.panelWidth).toBeLessThan(900)
    await expectInert()
    await ui.screenshot('ui-hostile-3-long-name')
    await panel().getByRole('button', { name: 'Close details' }).click()
  })

  it('control characters and formula-like text show as text; still nothing ran', async () => {
    for (const text of ['esc', 'ctrl', 'constructor', 'textarea']) {
      await search(text)
      await expect.poll(() => bodyRows().count()).toBeGreaterThan(0)
      await expectInert()
    }
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('')
    await expect.poll(() => page.getByText(`${SIZE} of ${SIZE} employees`).count()).toBe(1)
    await expectInert()
    await ui.screenshot('ui-hostile-4-all')
  })

  it('an RTL override is isolated in the live results from the service', async () => {
    await search('eve')
    await page.getByRole('button', { name: 'Look up on the service' }).click()
    const live = page.getByRole('region', { name: /^From the service/ })
    const cell = live.getByRole('cell').filter({ hasText: 'Eve\u202Eexe.gnp' }).first()
    await cell.waitFor()
    expect(await unicodeBidi(cell)).toBe('isolate')
    await expectInert()
    await ui.screenshot('ui-hostile-5-live-results')
    await live.getByRole('button', { name: 'Hide' }).click()
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('')
  })

  it('an RTL override is isolated in the change report', async () => {
    // Ids 60 to 73 join the service; the last of them carries the override (hostileTextOf).
    await churnTheService(sandbox, { churn: { add: 14, remove: 0 } })
    await page.getByRole('button', { name: 'Sync', exact: true }).click()
    const summary = page.getByRole('button', { name: /^\d+ added, \d+ removed, \d+ changed$/ })
    await summary.waitFor({ timeout: 60_000 })
    await summary.click()
    const dialog = page.getByRole('dialog', { name: 'Change report' })
    const entry = dialog.getByRole('tabpanel').locator('tbody tr').filter({ hasText: 'exe.gnp' }).first()
    await entry.waitFor()
    const name = entry.locator('.change-entry')
    expect(await name.innerText()).toContain('Eve\u202Eexe.gnp')
    for (const part of await name.locator('bdi').all()) {
      expect(await unicodeBidi(part)).toBe('isolate')
    }
    // Status and pay cycle: each the service's text, isolated in its own cell.
    const facts = await entry.locator('td:not(.change-name) bdi').all()
    expect(facts.length).toBeGreaterThan(0)
    for (const fact of facts) {
      expect(await unicodeBidi(fact)).toBe('isolate')
    }
    await expectInert()
    await ui.screenshot('ui-hostile-6-change-report')
    await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  })
})
