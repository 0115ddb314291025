import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { ODD_FIELD_NAMES } from '../../src/main/sandbox/field-names'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { readXlsx } from '../helpers/xlsx-reader'

/**
 * Issue 32, point 7, through the app core in real Chromium: the service adds fields under names a clerk never
 * chose (src/main/sandbox/field-names.ts). The column chooser lists them by their names, the clerk shows two of
 * them (`Job Title/Grade` and a formula-like one) and `constructor`, the table shows each row's own values, and the
 * export of the view holds those columns headed by their names (text, never a formula), read back with openpyxl.
 */

const SIZE = 20
const FORMULA = '=HYPERLINK("http://evil.example","click")'
const session = useUiSession({
  sandbox: { size: SIZE, seed: 32, behaviours: { oddFieldNames: true } },
  start: 'synced',
})
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const chooser = (): Locator => page.getByRole('group', { name: 'Show columns' })

/** The file in the data folder whose name matches. */
function written(pattern: RegExp): string {
  const file = readdirSync(app.dataDir).find((name) => pattern.test(name))
  expect(file, `a file named ${String(pattern)}`).toBeDefined()
  return join(app.dataDir, file!)
}

describe('fields under any name, through the app core', () => {
  it('the column chooser lists them by their names, and the table shows the ones the clerk picks', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    await page.getByRole('button', { name: 'Columns', exact: true }).click()
    await chooser().waitFor()
    const more = chooser().getByRole('list', { name: 'More fields from the service' })
    for (const name of [
      'Cost Center',
      'Job Title/Grade',
      FORMULA,
      '@SUM(1+1)',
      'Comma, Inc.',
      'Constructor',
    ]) {
      await expect
        .poll(() => more.getByRole('checkbox', { name, exact: true }).count(), { message: name })
        .toBe(1)
    }
    for (const name of ['Job Title/Grade', FORMULA, 'Constructor']) {
      // A shown column leaves this list for the shown ones, so its box is clicked, not checked in place.
      await more.getByRole('checkbox', { name, exact: true }).click()
      await expect
        .poll(() => more.getByRole('checkbox', { name, exact: true }).count(), { message: name })
        .toBe(0)
    }
    await page.keyboard.press('Escape')
    await expect.poll(() => chooser().count()).toBe(0)
    for (const name of ['Job Title/Grade', FORMULA, 'Constructor']) {
      await expect
        .poll(() => grid().getByRole('columnheader', { name, exact: true }).count(), { message: name })
        .toBe(1)
    }
    // Each row's own value, never what an object inherits.
    const text = await grid().innerText()
    expect(text).toContain(`odd ${ODD_FIELD_NAMES.indexOf('Job Title/Grade')} `)
    expect(text).toContain(`odd ${ODD_FIELD_NAMES.indexOf('constructor')} `)
    expect(text).not.toContain('[native code]')
    await ui.screenshot('ui-field-names-1-chosen')
  })

  it('the export of the view holds those columns headed by their names, as text, with each row’s values', async () => {
    await page.getByRole('button', { name: `Export ${SIZE} rows…` }).click()
    await page.getByText(new RegExp(`^Exported ${SIZE} rows to `)).waitFor({ timeout: 60_000 })
    const rows = (await readXlsx(written(/^Demo – Employees.*\.xlsx$/))).sheets[0]!.rows
    const header = rows[0]!.map((cell) => cell?.v ?? null)
    expect(rows).toHaveLength(SIZE + 1)
    for (const [name, label] of [
      ['Job Title/Grade', 'Job Title/Grade'],
      [FORMULA, FORMULA],
      ['constructor', 'Constructor'],
    ] as const) {
      const column = header.indexOf(label)
      expect(column, label).toBeGreaterThanOrEqual(0)
      expect(rows[0]![column]?.t).toBe('s')
      const values = rows.slice(1).map((row) => String(row[column]?.v))
      for (const value of values) expect(value).toMatch(new RegExp(`^odd ${ODD_FIELD_NAMES.indexOf(name)} `))
    }
    expect(ui.problems).toEqual([])
  })
})
