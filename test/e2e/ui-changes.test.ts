import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { fieldChanges } from '../../src/shared/change-rules'
import type { FieldChange } from '../../src/shared/domain/changes'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { columnLabel } from '../../src/main/core/columns/column-label'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { SCREENSHOT_DIR, SCREENSHOTS_WANTED } from '../helpers/harness/app-page'
import { useUiSession } from '../helpers/harness/ui-session'
import { churnTheService } from '../helpers/sandbox'
import { aboutCells, readCsv, readXlsx, sheetNamed } from '../helpers/xlsx-reader'

/**
 * A clerk reconciles a churned payroll day, end to end: the built renderer in headless Chromium, the real app core
 * behind the harness's bridge, and the sandbox. The first sync says it is one; between syncs the sandbox adds and
 * removes employees (`churn`) and moves others' status and pay cycle (`mutate`); the change report then lists
 * exactly those, opens a removed employee from their last row, and exports the changes, read back by openpyxl and
 * Python's csv module. Screenshots go to test/e2e/screenshots/.
 */

const SIZE = 2_000
const ADDED = 6
const REMOVED = 4
const MUTATED = 40

const session = useUiSession({
  sandbox: { size: SIZE, seed: 21 },
  // The clerk's laptop screen of issue 24: the report must show 20 and more employees at once on it.
  viewport: { width: 1366, height: 768 },
  start: 'signed-in',
  setupTimeoutMs: 120_000,
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
/** The service's employees before and after the churned day, by UUID. */
let before: Map<string, EmployeeRow>
let after: Map<string, EmployeeRow>
let expected: { added: string[]; removed: string[]; changed: Map<string, FieldChange[]> }
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const byUuid = (rows: ReadonlyArray<Record<string, unknown>>): Map<string, EmployeeRow> =>
  new Map(rows.map((row) => [String(row['UUID']), row as EmployeeRow]))
const count = (value: number): string => value.toLocaleString('en')
const dialog = (): Locator => page.getByRole('dialog', { name: 'Change report' })
const panel = (): Locator => dialog().getByRole('tabpanel')
const summaryButton = (): Locator =>
  page.getByRole('button', { name: /^[\d,]+ added, [\d,]+ removed, [\d,]+ changed$/ })
/** The report table's body rows, and the one whose number cell reads `number`. */
const tableRows = (): Locator => panel().locator('tbody tr')
const rowWith = (number: unknown): Locator =>
  tableRows().filter({
    has: page.locator('td.change-number', { hasText: new RegExp(`^${String(number)}$`) }),
  })

/** Whether the page's focus is on (or in) what `locator` finds. */
const holdsFocus = (locator: Locator): Promise<boolean> =>
  locator.evaluate((element) => element.contains(element.ownerDocument.activeElement))

/**
 * Presses Tab (or Shift+Tab) more times than `dialog` has controls, and says where the focus was after each press
 * that left the dialog: none, for a modal dialog.
 */
async function focusOutsideWhileTabbing(dialog: Locator, key: 'Tab' | 'Shift+Tab'): Promise<string[]> {
  const controls = await dialog.locator('a[href], button:not([disabled]), input, select, textarea').count()
  const escaped: string[] = []
  for (let press = 0; press < controls + 2; press++) {
    await page.keyboard.press(key)
    if (!(await holdsFocus(dialog))) {
      escaped.push(
        String(
          await page.evaluate(
            "document.activeElement === null ? 'nothing' : document.activeElement.outerHTML.slice(0, 80)",
          ),
        ),
      )
    }
  }
  return escaped
}

describe('a clerk reconciles a churned sync with the change report', () => {
  it('1. a first sync says so instead of "+2,000"', async () => {
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText(`${count(SIZE)} of ${count(SIZE)} employees`).waitFor({ timeout: 60_000 })
    await page.getByText(`First sync: ${count(SIZE)} employees`).waitFor()
    expect(await page.getByText(`+${count(SIZE)}`).count()).toBe(0)
    await ui.screenshot('ui-changes-1-first-sync')
    expect(ui.problems).toEqual([])
  })

  it('2. the next sync shows its counts, and the report opens on who was added', async () => {
    before = byUuid(sandbox.allEmployees())
    await churnTheService(sandbox, {
      churn: { add: ADDED, remove: REMOVED },
      mutate: { rows: MUTATED },
    })
    after = byUuid(sandbox.allEmployees())
    expected = {
      added: [...after.keys()].filter((uuid) => !before.has(uuid)),
      removed: [...before.keys()].filter((uuid) => !after.has(uuid)),
      changed: new Map(
        [...after].flatMap(([uuid, row]) => {
          const old = before.get(uuid)
          const changes = old === undefined ? [] : fieldChanges(old, row)
          return changes.length === 0 ? [] : [[uuid, changes] as const]
        }),
      ),
    }
    expect(expected.added).toHaveLength(ADDED)
    expect(expected.removed).toHaveLength(REMOVED)
    // Mutated employees move both fields; a few may have been among the removed or the new.
    expect(expected.changed.size).toBeGreaterThan(MUTATED - 5)
    for (const changes of expected.changed.values()) {
      expect(changes.map((change) => change.field)).toEqual(['employeeStatus', 'payCycleId'])
    }

    await page.getByRole('button', { name: 'Sync', exact: true }).click()
    const total = SIZE + ADDED - REMOVED
    await page.getByText(`${count(total)} of ${count(total)} employees`).waitFor({ timeout: 60_000 })
    // Exact counts in words (no "~" that reads as "about"), and the button named by them.
    const summary = page.getByRole('button', {
      name: `${ADDED} added, ${REMOVED} removed, ${expected.changed.size} changed`,
      exact: true,
    })
    await expect
      .poll(() => summary.innerText())
      .toBe(`${ADDED} added, ${REMOVED} removed, ${expected.changed.size} changed`)
    expect(await summary.getAttribute('aria-describedby')).toBeTruthy()
    await summary.click()
    await dialog().waitFor()
    const sync = dialog().getByLabel('Sync')
    await expect
      .poll(() => sync.locator('option').allInnerTexts())
      .toEqual([
        expect.stringMatching(
          new RegExp(`\\(latest\\): ${ADDED} added, ${REMOVED} removed, ${expected.changed.size} changed$`),
        ),
        expect.stringMatching(new RegExp(`: first sync: ${count(SIZE)} employees$`)),
      ])
    await dialog()
      .getByText(`Demo · tenant tenant-demo · ${count(total)} employees after the sync`)
      .waitFor()
    expect(
      await dialog()
        .getByRole('tab', { name: `Added (${ADDED})` })
        .getAttribute('aria-selected'),
    ).toBe('true')
    await expect.poll(() => tableRows().count()).toBe(ADDED)
    // Each joiner a line: number, name, status and pay cycle, as the service sent them.
    for (const uuid of expected.added) {
      const row = after.get(uuid)!
      const line = rowWith(row['employeeNumber'])
      expect(await line.locator('td').allInnerTexts()).toEqual([
        String(row['employeeNumber']),
        `${String(row['firstName'])} ${String(row['lastName'])}`,
        String(row['employeeStatus']),
        String(row['payCycleId']),
      ])
      // Each part of the name isolated on its own, as the details panel shows it.
      expect(await line.locator('.change-entry bdi').allInnerTexts()).toEqual([
        String(row['firstName']),
        String(row['lastName']),
      ])
    }
    await ui.screenshot('ui-changes-2-report-added')
    expect(ui.problems).toEqual([])
  })

  it('3. a changed employee shows each field from what to what, and opens as saved now', async () => {
    await dialog()
      .getByRole('tab', { name: `Changed (${expected.changed.size})` })
      .click()
    await expect.poll(() => tableRows().count()).toBe(expected.changed.size)
    const [uuid, changes] = [...expected.changed][0]!
    const row = after.get(uuid)!
    const line = rowWith(row['employeeNumber'])
    const text = await line.innerText()
    for (const change of changes) {
      expect(text).toContain(
        `${columnLabel(change.field)}: ${String(change.before)} → ${String(change.after)}`,
      )
    }
    await line.getByRole('button').click()
    const details = dialog().getByRole('complementary')
    await details.getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    expect(await details.getByRole('note').count()).toBe(0)
    const shown = await details.locator('.detail-field').allInnerTexts()
    expect(shown).toContain(`Status\n${String(row['employeeStatus'])}`)
    await ui.screenshot('ui-changes-3-changed-employee')
  })

  it('3b. the changed list is a dense table: 20 and more lines on a 1366×768 screen, sortable, searchable', async () => {
    await dialog().getByRole('complementary').getByRole('button', { name: 'Close details' }).click()
    await expect.poll(() => dialog().getByRole('complementary').count()).toBe(0)
    // Measured in the browser: body rows the clerk sees whole, their first and last pixel lines not clipped by any
    // scroller nor covered by the sticky headings or the dialog's buttons (what the page draws at those points).
    const fullyShown = async (): Promise<number> =>
      Number(
        await page.evaluate(`(() => {
          const rows = [...document.querySelectorAll('.change-dialog [role="tabpanel"] tbody tr')]
          const seen = (row, x, y) => row.contains(document.elementFromPoint(x, y))
          return rows.filter((row) => {
            const box = row.getBoundingClientRect()
            const x = box.left + 20
            return box.height > 0 && seen(row, x, box.top + 1) && seen(row, x, box.bottom - 1)
          }).length
        })()`),
      )
    expect(await page.evaluate('[window.innerWidth, window.innerHeight]')).toEqual([1366, 768])
    await tableRows().first().waitFor()
    for (const theme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await ui.screenshot(`ui-changes-3b-dense-table-${theme}`)
    }
    await expect.poll(fullyShown).toBeGreaterThanOrEqual(20)
    // A struck-through pay cycle up close: its hyphens stay visible above the line.
    if (SCREENSHOTS_WANTED) {
      const struck = panel()
        .locator('.field-change del', { hasText: /^PC-2026/ })
        .first()
      await struck.evaluate((element) => {
        element.style.fontSize = '4em'
      })
      await struck.screenshot({ path: join(SCREENSHOT_DIR, 'ui-changes-3b-struck-pay-cycle.png') })
      await struck.evaluate((element) => {
        element.style.fontSize = ''
      })
    }

    // A heading sorts by its column, again the other way.
    const numberHeading = panel().getByRole('columnheader', { name: /Number/ })
    await numberHeading.getByRole('button').click()
    await expect.poll(() => numberHeading.getAttribute('aria-sort')).toBe('ascending')
    await numberHeading.getByRole('button').click()
    await expect.poll(() => numberHeading.getAttribute('aria-sort')).toBe('descending')
    const numbers = [...expected.changed.keys()].map((uuid) => String(after.get(uuid)!['employeeNumber']))
    await expect
      .poll(() => panel().locator('tbody td.change-number').allInnerTexts())
      .toEqual([...numbers].sort().reverse())

    // Found by number, and by a name's start in another case, as the grid's search finds them.
    const [uuid] = [...expected.changed.keys()]
    const someone = after.get(uuid!)!
    const search = dialog().getByRole('searchbox', { name: 'Find in this list' })
    await search.fill(String(someone['employeeNumber']))
    await expect
      .poll(() => panel().locator('tbody td.change-number').allInnerTexts())
      .toEqual([String(someone['employeeNumber'])])
    expect(await panel().getByRole('status').innerText()).toBe(
      `1 of ${expected.changed.size} employees found`,
    )
    await search.fill(String(someone['lastName']).toUpperCase())
    await expect.poll(() => rowWith(someone['employeeNumber']).count()).toBe(1)
    await ui.screenshot('ui-changes-3b-searched')
    await search.fill('')
    await expect.poll(() => tableRows().count()).toBe(expected.changed.size)
    expect(ui.problems).toEqual([])
  })

  it('4. a removed employee opens from the last row RosterDesk held, marked with the sync that removed them', async () => {
    await dialog()
      .getByRole('tab', { name: `Removed (${REMOVED})` })
      .click()
    await expect.poll(() => tableRows().count()).toBe(REMOVED)
    const uuid = expected.removed[0]!
    const last = before.get(uuid)!
    await rowWith(last['employeeNumber']).getByRole('button').click()
    const details = dialog().getByRole('complementary')
    const marker = details.getByRole('note')
    await marker.waitFor()
    expect(await marker.innerText()).toMatch(/^Removed in the sync of \w{3} \d+\/\d+, \d\d:\d\d [AP]M\./)
    await details
      .getByRole('heading', { name: `${String(last['firstName'])} ${String(last['lastName'])}` })
      .waitFor()
    const shown = await details.locator('.detail-field').allInnerTexts()
    expect(shown).toContain(`Email\n${String(last['email'])}`)
    expect(shown).toContain(`UUID\n${uuid}`)
    // The saved employees no longer hold them: the details came from the change report.
    expect(await app.core.handlers['employees:get'](uuid)).toBeNull()
    await ui.screenshot('ui-changes-4-removed-employee')
    expect(ui.problems).toEqual([])
  })

  it('5. exports the changes to .xlsx and .csv through main, read back by openpyxl and Python', async () => {
    await dialog().getByRole('button', { name: 'Export changes…' }).click()
    const changedRows = [...expected.changed.values()].reduce((sum, list) => sum + list.length, 0)
    const rows = ADDED + REMOVED + changedRows
    const done = dialog().getByText(/^Exported [\d,]+ rows/)
    await done.waitFor({ timeout: 30_000 })
    // The counts by kind are the export's own result; the file's rows are read back below.
    expect(await done.innerText()).toMatch(new RegExp(`^Exported ${rows} rows to Demo – Changes .+\\.xlsx:$`))
    const byKind = dialog()
      .getByRole('list', { name: 'Rows exported by kind of change' })
      .getByRole('listitem')
    expect(await byKind.allInnerTexts()).toEqual([
      `${ADDED} added employees`,
      `${REMOVED} removed employees`,
      `${expected.changed.size} changed employees: ${changedRows} rows, one per changed field`,
    ])
    await ui.screenshot('ui-changes-5-exported')

    const file = readdirSync(app.dataDir).find((name) => /^Demo – Changes .*\.xlsx$/.test(name))
    expect(file).toBeDefined()
    const book = await readXlsx(join(app.dataDir, file!))
    expect(book.sheetNames).toEqual(['Added', 'Removed', 'Changed', 'About this export'])
    const uuids = (name: string): string[] =>
      sheetNamed(book, name)
        .rows.slice(1)
        .map((row) => String(row[1]?.v))
    expect(new Set(uuids('Added'))).toEqual(new Set(expected.added))
    expect(new Set(uuids('Removed'))).toEqual(new Set(expected.removed))
    const removedRow = sheetNamed(book, 'Removed').rows.find((row) => row[1]?.v === expected.removed[0])!
    expect(removedRow.map((cell) => cell?.v)).toEqual([
      before.get(expected.removed[0]!)!['employeeNumber'],
      expected.removed[0],
      `${String(before.get(expected.removed[0]!)!['firstName'])} ${String(before.get(expected.removed[0]!)!['lastName'])}`,
      before.get(expected.removed[0]!)!['employeeStatus'],
      before.get(expected.removed[0]!)!['payCycleId'],
    ])
    const changed = sheetNamed(book, 'Changed')
    expect(changed.rows[0]!.map((cell) => cell?.v)).toEqual([
      'Employee number',
      'UUID',
      'Name',
      'Status',
      'Pay cycle',
      'Field',
      'Before',
      'After',
    ])
    const diffs = changed.rows.slice(1).map((row) => [row[1]?.v, row[5]?.v, row[6]?.v, row[7]?.v])
    expect(new Set(diffs.map((diff) => JSON.stringify(diff)))).toEqual(
      new Set(
        [...expected.changed].flatMap(([uuid, changes]) =>
          changes.map((change) =>
            JSON.stringify([uuid, columnLabel(change.field), change.before, change.after]),
          ),
        ),
      ),
    )
    const about = aboutCells(book)
    expect(about.get('Environment')?.v).toBe('Demo (sample data)')
    expect(about.get('Tenant')?.v).toBe('tenant-demo')
    expect(about.get('Added')?.v).toBe(ADDED)
    expect(about.get('Removed')?.v).toBe(REMOVED)
    expect(about.get('Changed')?.v).toBe(expected.changed.size)

    await dialog().getByLabel('Export format').selectOption('csv')
    await dialog().getByRole('button', { name: 'Export changes…' }).click()
    await dialog()
      .getByText(/^Exported [\d,]+ rows to Demo – Changes .+\.csv:$/)
      .waitFor({ timeout: 30_000 })
    const csvFile = readdirSync(app.dataDir).find((name) => /^Demo – Changes .*\.csv$/.test(name))
    const csv = await readCsv(join(app.dataDir, csvFile!))
    expect(csv.records[0]).toEqual([
      'Change',
      'Employee number',
      'UUID',
      'Name',
      'Status',
      'Pay cycle',
      'Field',
      'Before',
      'After',
    ])
    const kinds = csv.records.slice(1).map((record) => record[0])
    expect(kinds.filter((kind) => kind === 'Added')).toHaveLength(ADDED)
    expect(kinds.filter((kind) => kind === 'Removed')).toHaveLength(REMOVED)
    expect(kinds).toHaveLength(rows)
    expect(ui.problems).toEqual([])
  })

  it('6. the change report keeps Tab inside, and Esc gives the focus back to the button that opened it', async () => {
    expect(await focusOutsideWhileTabbing(dialog(), 'Tab')).toEqual([])
    expect(await focusOutsideWhileTabbing(dialog(), 'Shift+Tab')).toEqual([])
    await page.keyboard.press('Escape')
    await dialog().waitFor({ state: 'detached' })
    expect(await holdsFocus(summaryButton())).toBe(true)

    // Opened from the keyboard, the same.
    await page.keyboard.press('Enter')
    await dialog().waitFor()
    expect(await holdsFocus(dialog())).toBe(true)
    await page.keyboard.press('Escape')
    await dialog().waitFor({ state: 'detached' })
    expect(await holdsFocus(summaryButton())).toBe(true)
    expect(ui.problems).toEqual([])
  })

  it('7. the roster dialog keeps Tab inside, and Esc gives the focus back to "Export roster…"', async () => {
    const opener = page.getByRole('button', { name: 'Export roster…' })
    const roster = page.getByRole('dialog', { name: 'Export a pay-cycle roster' })
    await opener.focus()
    await page.keyboard.press('Enter')
    await roster.getByLabel('Pay cycle').waitFor()
    expect(await holdsFocus(roster)).toBe(true)
    expect(await focusOutsideWhileTabbing(roster, 'Tab')).toEqual([])
    expect(await focusOutsideWhileTabbing(roster, 'Shift+Tab')).toEqual([])
    await ui.screenshot('ui-changes-7-roster-dialog')
    await page.keyboard.press('Escape')
    await roster.waitFor({ state: 'detached' })
    expect(await holdsFocus(opener)).toBe(true)
    expect(ui.problems).toEqual([])
  })
})
