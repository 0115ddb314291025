import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { ExportRecordEntry } from '../../src/shared/domain/export'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { runAuditCommand } from '../../src/main/cli/audit-command'
import { EXPORT_RECORD_FILE } from '../../src/main/core/export-record/export-record'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { auditBothThemes } from '../helpers/axe-audit'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { runCommand } from '../helpers/run-cli'

/**
 * Every file that leaves on record (issue 34, point 3), end to end: the built renderer in headless Chromium over the
 * real app core and the sandbox, at the clerk's 1366×768. The clerk exports the view, a roster, prints and copies
 * three rows; Help → Export history (the menu's `app:command`) lists the four, newest first, each with when,
 * profile, what, rows, columns and filters, sensitive columns and where it went; the search narrows them; `cli
 * audit --json` over the same data folder lists the same entries; and the record holds none of the employees'
 * values. Screenshots (ROSTERDESK_SCREENSHOTS=1) go to test/e2e/screenshots/.
 */

const SIZE = 300

const session = useUiSession({
  sandbox: { size: SIZE, seed: 34 },
  start: 'synced',
  viewport: { width: 1366, height: 768 },
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const cell = (row: number, column: number): Locator => grid().locator(`[data-cell="${row}:${column}"]`)
const history = (): Locator => page.getByRole('dialog', { name: 'Export history' })
const rosterDialog = (): Locator => page.getByRole('dialog', { name: 'Export a pay-cycle roster' })
const count = (value: number): string => value.toLocaleString('en')
/** The history's rows as the clerk reads them, cell by cell (the header row left out). */
const historyRows = async (): Promise<string[][]> =>
  history()
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
    )

describe('the export record on screen, through the real core', () => {
  it('1. an empty record says so in one sentence', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    app.events.emit('app:command', 'export-history')
    await history()
      .getByText(
        'Nothing has left RosterDesk yet: every export, roster, change report, print and copy of more than one row will be listed here.',
      )
      .waitFor()
    await ui.screenshot('ui-export-history-1-empty')
    await history().getByRole('button', { name: 'Close' }).click()
    await history().waitFor({ state: 'detached' })
  })

  it('2. a view, a roster, a print and a copy are listed newest first, and the search narrows them', async () => {
    // The view, whole.
    await page.getByRole('button', { name: `Export ${count(SIZE)} rows…` }).click()
    await page.getByText(/^Exported [\d,]+ rows to Demo – Employees /).waitFor({ timeout: 60_000 })
    // A roster of one pay cycle.
    const payCycleId = String(sandbox.allEmployees()[0]?.['payCycleId'])
    const inCycle = sandbox.allEmployees().filter((row) => row['payCycleId'] === payCycleId).length
    await page.getByRole('button', { name: 'Export roster…' }).click()
    await rosterDialog().getByLabel('Pay cycle').selectOption(payCycleId)
    await rosterDialog()
      .getByRole('button', { name: `Export ${count(inCycle)} rows…` })
      .click()
    await page
      .getByText(new RegExp(`^Exported ${count(inCycle)} rows to Demo – Roster ${payCycleId} `))
      .waitFor({ timeout: 60_000 })
    // Print… (the harness's printer answers as if the clerk printed).
    await page.getByRole('button', { name: 'Print…' }).click()
    await expect.poll(() => app.printed.length).toBe(1)
    // Three rows copied, with the keyboard.
    await cell(0, 0).click()
    await cell(2, 1).click({ modifiers: ['Shift'] })
    await page.keyboard.press('Control+c')
    await page.getByText('Copied 3 rows.').waitFor()
    // One employee copied: not data leaving in bulk, so not on record.
    await cell(5, 0).click()
    await page.keyboard.press('Control+c')
    await page.getByText('Copied 1 row.').waitFor()
    expect(app.clipboard).toHaveLength(2)

    app.events.emit('app:command', 'export-history')
    await history().getByText('4 exports').waitFor()
    // The search box has the focus, ready to type into.
    await expect
      .poll(() => page.evaluate<string | null>(`document.activeElement?.getAttribute('aria-label') ?? null`))
      .toBe('Search export history')
    const rows = await historyRows()
    expect(rows.map((cells) => cells[2])).toEqual([
      'Copy',
      'Print',
      `Roster ${payCycleId} (XLSX)`,
      'View (XLSX)',
    ])
    // Each row: when in local time, the profile, rows, columns (and filters), sensitive or not, where it went.
    for (const cells of rows) {
      expect(cells[0]).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}( [AP]M)?$/)
      expect(cells[1]).toBe('Demo')
    }
    expect(rows.map((cells) => cells[3])).toEqual(['3', count(SIZE), count(inCycle), count(SIZE)])
    expect(rows[0]![6]).toBe('Clipboard')
    expect(rows[1]![6]).toBe('Printer')
    expect(rows[2]![6]).toBe(`${rosterFile()}${app.dataDir}`)
    // The view's shown columns, the first four named; a copy's are those shown too; a print's the view's.
    expect(rows[3]![4]).toMatch(/^lastName, firstName, employeeStatus, \w+ and \d+ more$/)
    expect(rows.map((cells) => cells[5])).toEqual(['Included', 'Included', 'Included', 'Included'])
    await ui.screenshot('ui-export-history-2-list')

    await history().getByRole('searchbox', { name: 'Search export history' }).fill(payCycleId.toLowerCase())
    await history().getByText('1 of 4 exports').waitFor()
    expect((await historyRows()).map((cells) => cells[2])).toEqual([`Roster ${payCycleId} (XLSX)`])
    // Words in any order, over the file's name and the filters too.
    await history().getByRole('searchbox').fill('xlsx demo')
    await history().getByText('2 of 4 exports').waitFor()
    await ui.screenshot('ui-export-history-3-searched')
    await history().getByRole('searchbox').fill('payslips')
    await history().getByText('No export matches “payslips”.').waitFor()
    await history().getByRole('searchbox').fill('')
    await history().getByText('4 exports').waitFor()
    const failures = await auditBothThemes(page, 'export-history', (theme) =>
      ui.screenshot(`ui-export-history-4-audited-${theme}`),
    )
    expect(failures, failures.join('\n\n')).toEqual([])
    await page.keyboard.press('Escape')
    await history().waitFor({ state: 'detached' })
    expect(ui.problems).toEqual([])
  })

  it('3. `cli audit --json` lists the same entries, and the record holds none of the employees’ values', async () => {
    const audit = await runCommand(runAuditCommand, ['--json', '--data-dir', app.dataDir])
    expect(audit.code, audit.stderr).toBe(0)
    const listed = JSON.parse(audit.stdout) as { entries: ExportRecordEntry[]; skippedLines: number }
    expect(listed.skippedLines).toBe(0)
    expect(listed.entries.map((entry) => entry.what)).toEqual(['copy', 'print', 'roster', 'view'])
    expect(listed.entries[0]).toMatchObject({ runtime: 'app', profile: 'Demo', rows: 3, chosenRows: true })
    expect(listed.entries[2]).toMatchObject({ fileName: rosterFile(), folder: app.dataDir })
    const record = readFileSync(join(app.dataDir, EXPORT_RECORD_FILE), 'utf8')
    const values = sandbox
      .allEmployees()
      .slice(0, 12)
      .flatMap((row) =>
        ['UUID', 'firstName', 'lastName', 'email', 'employeeNumber'].map((key) => String(row[key] ?? '')),
      )
      .filter((value) => value.length >= 4)
    expect(values.length).toBeGreaterThanOrEqual(50)
    expect(values.filter((value) => record.includes(value))).toEqual([])
  })
})

/** The roster's file name, as the save dialog offered it (the harness saves where it opened). */
function rosterFile(): string {
  const offered = app.saveDialog.offered.find((path) => / – Roster /.test(path))
  expect(offered).toBeDefined()
  return offered!.split(/[\\/]/).at(-1)!
}
