import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { aboutCells, readXlsx, sheetNamed, type DumpedWorkbook } from '../helpers/xlsx-reader'

/**
 * Rosters follow the screen (issue 24, point 2), end to end: the built renderer in headless Chromium over the real
 * app core and the sandbox, at the clerk's 1366×768. With one pay cycle ticked on screen the roster dialog starts
 * from it; with two it chooses none until the clerk picks, each with its count; one line says what will be
 * written. Each file is read back by openpyxl: its rows are exactly the chosen pay cycle's employees (of the
 * statuses applied), and its About sheet names the order. A view export's file is named after its filters.
 * Screenshots (ROSTERDESK_SCREENSHOTS=1) go to test/e2e/screenshots/.
 */

const SIZE = 800

const session = useUiSession({
  sandbox: { size: SIZE, seed: 24 },
  start: 'synced',
  viewport: { width: 1366, height: 768 },
  setupTimeoutMs: 120_000,
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const rosterDialog = (): Locator => page.getByRole('dialog', { name: 'Export a pay-cycle roster' })
const filterBox = (group: 'Status' | 'Pay cycle', name: string): Locator =>
  page.getByRole('group', { name: group }).getByRole('checkbox', { name: new RegExp(`^${name} `) })
const count = (value: number): string => value.toLocaleString('en')

/** The employee numbers of the service's employees in `payCycleId` (and of `statuses`, when given). */
function expectedNumbers(payCycleId: string, statuses?: readonly string[]): Set<string> {
  return new Set(
    sandbox
      .allEmployees()
      .filter((row) => row['payCycleId'] === payCycleId)
      .filter((row) => statuses === undefined || statuses.includes(String(row['employeeStatus'])))
      .map((row) => String(row['employeeNumber'])),
  )
}

/** The employee numbers of a roster file's rows (a default column on screen, so in the roster), read by openpyxl. */
function numbersIn(book: DumpedWorkbook, sheet: string): Set<string> {
  const rows = sheetNamed(book, sheet).rows
  const column = rows[0]!.findIndex((cell) => cell?.v === 'Employee number')
  expect(column).toBeGreaterThanOrEqual(0)
  return new Set(rows.slice(1).map((row) => String(row[column]?.v)))
}

/** The newest file in the data folder whose name matches. */
function written(pattern: RegExp): string {
  const file = readdirSync(app.dataDir).find((name) => pattern.test(name))
  expect(file, `a file named ${String(pattern)}`).toBeDefined()
  return join(app.dataDir, file!)
}

/** The options of the dialog's pay cycle list, as the clerk reads them. */
const payCycleOptions = (): Promise<string[]> =>
  rosterDialog().getByLabel('Pay cycle').locator('option').allInnerTexts()

describe('rosters follow the screen, through the real core', () => {
  it('1. one pay cycle ticked: the dialog starts from it and the file holds exactly its employees', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const monthly = expectedNumbers('PC-MONTHLY', ['Active'])
    expect(monthly.size).toBeGreaterThan(0)
    await filterBox('Pay cycle', 'PC-MONTHLY').check()
    await filterBox('Status', 'Active').check()
    await page.getByText(new RegExp(`^${count(monthly.size)} of ${count(SIZE)} employees`)).waitFor()

    await page.getByRole('button', { name: 'Export roster…' }).click()
    const payCycle = rosterDialog().getByLabel('Pay cycle')
    await expect.poll(() => payCycle.inputValue()).toBe('PC-MONTHLY')
    const options = await payCycleOptions()
    expect(options[0]).toMatch(/^PC-MONTHLY \([\d,]+ employees\), ticked on screen$/)
    expect(options).not.toContain('Choose a pay cycle…')
    const summary = rosterDialog().locator('.roster-summary')
    await expect
      .poll(() => summary.innerText())
      .toBe(`The roster will hold ${count(monthly.size)} employees: pay cycle PC-MONTHLY, status Active.`)
    // Measured in the browser: the pay cycle in the line sits on one line, whole.
    const cycle = summary.locator('.identifier', { hasText: 'PC-MONTHLY' })
    expect(await cycle.evaluate((element) => element.getClientRects().length)).toBe(1)
    for (const theme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await ui.screenshot(`ui-roster-1-one-ticked-${theme}`)
    }
    await rosterDialog()
      .getByRole('button', { name: `Export ${count(monthly.size)} rows…` })
      .click()
    await page
      .getByText(
        new RegExp(
          `^Exported ${count(monthly.size)} rows to Demo – Roster PC-MONTHLY \\d{4}-\\d\\d-\\d\\d\\.xlsx\\.$`,
        ),
      )
      .waitFor({ timeout: 60_000 })

    const book = await readXlsx(written(/^Demo – Roster PC-MONTHLY \d{4}-\d\d-\d\d\.xlsx$/))
    expect(numbersIn(book, 'Roster PC-MONTHLY')).toEqual(monthly)
    const about = aboutCells(book)
    expect(about.get('Pay cycle')?.v).toBe('PC-MONTHLY')
    expect(about.get('Statuses')?.v).toBe('Active')
    expect(about.get('Sorted by')?.v).toBe('Last name, then first name')
    expect(ui.problems).toEqual([])
  })

  it('2. a view export is named after its filters', async () => {
    const rows = expectedNumbers('PC-MONTHLY', ['Active']).size
    await page.getByRole('button', { name: `Export ${count(rows)} rows…` }).click()
    await page
      .getByText(/^Exported [\d,]+ rows to Demo – Employees – Active, PC-MONTHLY /)
      .waitFor({ timeout: 60_000 })
    written(/^Demo – Employees – Active, PC-MONTHLY \d{4}-\d\d-\d\d\.xlsx$/)
    expect(ui.problems).toEqual([])
  })

  it('3. two pay cycles ticked: nothing is chosen until the clerk picks, each with its count', async () => {
    await filterBox('Status', 'Active').uncheck()
    await filterBox('Pay cycle', 'PC-MONTHLY').uncheck()
    await filterBox('Pay cycle', 'PC-2026-11-A').check()
    await filterBox('Pay cycle', 'PC-2026-11-B').check()
    const first = expectedNumbers('PC-2026-11-A')
    const second = expectedNumbers('PC-2026-11-B')

    await page.getByRole('button', { name: 'Export roster…' }).click()
    const payCycle = rosterDialog().getByLabel('Pay cycle')
    await expect
      .poll(payCycleOptions)
      .toEqual([
        'Choose a pay cycle…',
        `PC-2026-11-A (${count(first.size)} employees), ticked on screen`,
        `PC-2026-11-B (${count(second.size)} employees), ticked on screen`,
        expect.stringMatching(/^PC-2026-12-A \([\d,]+ employees\)$/),
        expect.stringMatching(/^PC-MONTHLY \([\d,]+ employees\)$/),
      ])
    expect(await payCycle.inputValue()).toBe('')
    await rosterDialog()
      .getByText('2 pay cycles are ticked on screen; a roster holds one. Choose it above.')
      .waitFor()
    expect(await rosterDialog().locator('.roster-summary').innerText()).toBe(
      'Nothing will be written until a pay cycle is chosen.',
    )
    expect(await rosterDialog().getByRole('button', { name: 'Export…' }).isDisabled()).toBe(true)
    for (const theme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await ui.screenshot(`ui-roster-3-two-ticked-${theme}`)
    }

    await payCycle.selectOption('PC-2026-11-B')
    await expect
      .poll(() => rosterDialog().locator('.roster-summary').innerText())
      .toBe(`The roster will hold ${count(second.size)} employees: pay cycle PC-2026-11-B, every status.`)
    await rosterDialog()
      .getByRole('button', { name: `Export ${count(second.size)} rows…` })
      .click()
    await page.getByText(/^Exported [\d,]+ rows to Demo – Roster PC-2026-11-B /).waitFor({ timeout: 60_000 })
    const book = await readXlsx(written(/^Demo – Roster PC-2026-11-B \d{4}-\d\d-\d\d\.xlsx$/))
    expect(numbersIn(book, 'Roster PC-2026-11-B')).toEqual(second)
    expect(aboutCells(book).get('Statuses')?.v).toBe('All statuses')
    expect(ui.problems).toEqual([])
  })
})
