import { isAbsolute, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SyncProgress } from '../../src/shared/domain/sync'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { LaunchedChromium } from '../helpers/chromium'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { readXlsx, sheetNamed } from '../helpers/xlsx-reader'

/**
 * A clerk's week, round three (issue 33), points 5 and 9, in one session at 1366×768: the built renderer in
 * headless Chromium over the real app core and the sandbox, under a machine policy that allows at most MAX_ROWS
 * rows in one export. Point 9 first (it needs the service), then point 5 ends the service for good: its port then
 * refuses every connection. Screenshots (ROSTERDESK_SCREENSHOTS=1) go to test/e2e/screenshots/.
 */

const SIZE = 120
const MAX_ROWS = 20

const session = useUiSession({
  sandbox: { size: SIZE, seed: 33 },
  start: 'synced',
  viewport: { width: 1366, height: 768 },
  policy: () => ({
    policy: { exports: { maxRows: MAX_ROWS } },
    source: 'C:\\ProgramData\\RosterDesk\\policy.json',
    problem: undefined,
  }),
  // Short waits, so the eight attempts at a service that is gone end in seconds (the first wait is still said).
  syncRetry: { baseDelayMs: 1_000, maxDelayMs: 2_500 },
  setupTimeoutMs: 120_000,
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
let browser: LaunchedChromium
beforeAll(() => ({ sandbox, app, ui, page, browser } = session()))

const exportBar = (): Locator => page.getByRole('group', { name: 'Export' })
const syncBar = (): Locator => page.getByRole('region', { name: 'Sync' })
const count = (value: number): string => value.toLocaleString('en')
/** Where the harness's save dialog put a file: the path it offered (a name alone goes in the data folder). */
const savedAt = (offered: string): string => (isAbsolute(offered) ? offered : join(app.dataDir, offered))

/**
 * Records, in the page, every text the sync bar's progress line shows and when it was put on the page (the wall
 * clock), as `window.progressLines`: source text, as this project is type-checked without the DOM's types.
 */
const RECORD_PROGRESS_LINES = `(() => {
  const seen = []
  window.progressLines = seen
  new MutationObserver(() => {
    const text = document.querySelector('.sync-progress-text')?.textContent ?? ''
    if (text !== '' && text !== seen.at(-1)?.text) seen.push({ at: Date.now(), text })
  }).observe(document.body, { subtree: true, childList: true, characterData: true })
})()`

/** The height of the app's header (the banner) and of the sync bar: one line each while the service answers. */
async function headerHeights(): Promise<{ header: number; syncBar: number }> {
  const header = await page.getByRole('banner').boundingBox()
  const bar = await syncBar().boundingBox()
  return { header: header?.height ?? 0, syncBar: bar?.height ?? 0 }
}

describe('limits said before the work (point 9)', () => {
  it('the Export button says the policy’s limit and exports the first rows that fit, with no refusal after a save dialog', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const button = exportBar().getByRole('button', { name: /^Export .*rows…$/ })
    // Said on the button itself, before anything opens: the first MAX_ROWS of the view, and why.
    expect(await button.innerText()).toBe(`Export first ${count(MAX_ROWS)} of ${count(SIZE)} rows…`)
    const limit = `Your organisation allows at most ${count(MAX_ROWS)} rows in one export`
    expect(await button.getAttribute('title')).toContain(limit)
    // Said to whoever reads the button (its description), and the toolbar keeps its one row at 1366 px.
    const described = await button.getAttribute('aria-describedby')
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain(limit)
    const [search, exportGroup] = [
      await page.getByRole('searchbox', { name: 'Search employees' }).boundingBox(),
      await exportBar().boundingBox(),
    ]
    expect(Math.abs((exportGroup?.y ?? 0) - (search?.y ?? 0))).toBeLessThan(10)
    expect(app.saveDialog.offered).toEqual([])
    await ui.screenshot('ui-week-three-service-9a-export-limit')

    await button.click()
    await page.getByText(/^Exported 20 rows/).waitFor({ timeout: 30_000 })
    expect(app.saveDialog.offered).toHaveLength(1)
    expect(await page.getByRole('alert').count()).toBe(0)
    const file = savedAt(app.saveDialog.offered[0]!)
    const rows = sheetNamed(await readXlsx(file), 'Employees').rows
    // The header, then the first MAX_ROWS of the view in its order.
    expect(rows).toHaveLength(MAX_ROWS + 1)
    expect(ui.problems).toEqual([])
  })

  it('the roster dialog says the limit for a pay cycle over it, before its Export opens anything', async () => {
    const before = app.saveDialog.offered.length
    await exportBar().getByRole('button', { name: 'Export roster…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export a pay-cycle roster' })
    try {
      const select = dialog.getByRole('combobox', { name: 'Pay cycle' })
      await select.locator('option:not([disabled])').first().waitFor({ state: 'attached' })
      const options = await select.locator('option:not([disabled])').allInnerTexts()
      const big = options
        .map((text) => ({ text, n: Number(/\((\d+) employees\)/.exec(text)?.[1] ?? 0) }))
        .find((option) => option.n > MAX_ROWS)
      expect(big, options.join('\n')).toBeDefined()
      await select.selectOption({ label: big!.text })
      await dialog
        .getByText(
          `Your organisation allows at most ${count(MAX_ROWS)} rows in one export; this roster holds ${count(big!.n)}. ` +
            `Export its first ${count(MAX_ROWS)}, or narrow it with a status filter or a saved view as template.`,
        )
        .waitFor()
      const exportButton = dialog.getByRole('button', { name: `Export first ${count(MAX_ROWS)} rows…` })
      expect(await exportButton.isEnabled()).toBe(true)
      expect(app.saveDialog.offered).toHaveLength(before)
      await ui.screenshot('ui-week-three-service-9b-roster-limit')
      await exportButton.click()
      await page.getByText(/^Exported 20 rows/).waitFor({ timeout: 30_000 })
    } finally {
      // A failure here leaves no dialog over the tests that follow.
      if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Cancel' }).click()
    }
    expect(app.saveDialog.offered).toHaveLength(before + 1)
    const file = savedAt(app.saveDialog.offered.at(-1)!)
    const [sheet] = (await readXlsx(file)).sheets
    expect(sheet?.rows).toHaveLength(MAX_ROWS + 1)
    expect(ui.problems).toEqual([])
  })
})

describe('a service that is down is not "Offline" (point 5)', () => {
  it('says within 2 s what happened and what comes next, keeps the rows and one-line bars, and no "Offline"', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const healthy = await headerHeights()
    const host = new URL(sandbox.baseUrl).host
    const progress: Array<{ at: number; progress: SyncProgress }> = []
    const off = app.events.subscribe((channel, payload) => {
      if (channel === 'sync:progress') progress.push({ at: Date.now(), progress: payload as SyncProgress })
    })
    try {
      // Nothing listens on the service's port from here on: every connection is refused at once.
      await sandbox.close()
      // Every text the sync bar's progress line shows, with when it was put on the page (the wall clock).
      await page.evaluate(RECORD_PROGRESS_LINES)
      const lines = (): Promise<Array<{ at: number; text: string }>> => page.evaluate('window.progressLines')
      const clicked = Date.now()
      await syncBar().getByRole('button', { name: 'Sync', exact: true }).click()
      const hostText = host.replace(/\./g, '\\.')
      const attemptLine = (n: number): RegExp =>
        new RegExp(
          `^The payroll service at ${hostText} is not answering \\(connection refused\\)\\. ` +
            `Trying again (in \\d s|now) — attempt ${n} of 8\\.$`,
        )
      await expect.poll(async () => (await lines()).some((line) => attemptLine(2).test(line.text))).toBe(true)
      // The first refusal is after the click (the core's first retry notice); the message is painted within 2 s.
      const refused = progress.find((event) => event.progress.retry !== undefined)?.at
      const shown = (await lines()).find((line) => attemptLine(2).test(line.text))!.at
      expect(refused).toBeGreaterThanOrEqual(clicked)
      expect(shown - refused!).toBeLessThan(2_000)
      expect(progress.find((event) => event.progress.retry !== undefined)?.progress.retry).toMatchObject({
        reason: 'network',
        attempt: 1,
        attempts: 8,
        code: 'connection-refused',
        host,
      })
      await syncBar().getByRole('button', { name: 'Cancel sync' }).waitFor()
      await ui.screenshot('ui-week-three-service-5a-retrying')
      // The rows stay, the bars stay one line, and nothing says "Offline".
      expect(await page.getByText(allEmployeesText(SIZE)).isVisible()).toBe(true)
      expect(await headerHeights()).toEqual(healthy)
      expect(await page.getByText(/Offline/).count()).toBe(0)

      // The run gives up: what happened and what the clerk can do, still no "Offline", no "no changes" chip.
      const alert = syncBar().getByRole('alert')
      await alert.waitFor({ timeout: 30_000 })
      expect(await alert.innerText()).toMatch(
        new RegExp(
          `^The connection to ${host.replace(/\./g, '\\.')} was refused: .* tried 8 times without success\\.$`,
        ),
      )
      await syncBar().getByRole('button', { name: 'Sync', exact: true }).waitFor()
      // Each attempt was said in turn, 2 to 8 of 8, naming the host and the refusal.
      const said = (await lines()).map((line) => line.text)
      for (let n = 2; n <= 8; n++)
        expect(
          said.some((text) => attemptLine(n).test(text)),
          said.join('\n'),
        ).toBe(true)
      expect(await page.getByText(allEmployeesText(SIZE)).isVisible()).toBe(true)
      expect(await page.getByText(/Offline/).count()).toBe(0)
      expect(await page.getByText('No changes in the last sync').count()).toBe(0)
      await ui.screenshot('ui-week-three-service-5b-gave-up')
      // The header keeps its one line (the sync bar below holds the run's message, as for any failed sync).
      expect((await headerHeights()).header).toBe(healthy.header)
    } finally {
      off()
    }
    expect(ui.problems).toEqual([])
  }, 60_000)

  it('keeps "Offline" for the clerk’s own network: the OS says the computer is offline', async () => {
    await browser.context.setOffline(true)
    try {
      await page.getByRole('banner').getByText('Offline — showing saved employees').waitFor()
      expect(await page.getByText(allEmployeesText(SIZE)).isVisible()).toBe(true)
      await ui.screenshot('ui-week-three-service-5c-os-offline')
    } finally {
      await browser.context.setOffline(false)
    }
    await page
      .getByRole('banner')
      .getByText('Offline — showing saved employees')
      .waitFor({ state: 'detached' })
    expect(ui.problems).toEqual([])
  })
})
