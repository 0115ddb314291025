import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { ColumnBuilder } from '../../src/main/core/query/column-builds'
import { auditPage, describeViolations } from '../helpers/axe-audit'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * A first sort on a column is built on the core worker; at a million employees that takes seconds. Here the
 * build of the "First name" order is held back until the test lets it go (the real build then runs on the
 * worker), so the window can be watched meanwhile: it says what is being prepared, keeps its rows, and answers
 * everything else the clerk does; when the order is ready the message goes and the table is in that order.
 */

const SIZE = 1_500

let letGo: () => void = () => undefined
const held = new Promise<void>((resolve) => (letGo = resolve))
let holding = false

/** The worker's own builder, with the "First name" order waiting for `letGo` before it is asked for. */
function holdFirstNameSort(onWorker: ColumnBuilder): ColumnBuilder {
  return {
    searchIndex: (path) => onWorker.searchIndex(path),
    columnIndex: (source, build) => onWorker.columnIndex(source, build),
    uuidParts: (source) => onWorker.uuidParts(source),
    sortOrder: async (source, build) => {
      if (build.column === 'firstName') {
        holding = true
        await held
      }
      return onWorker.sortOrder(source, build)
    },
  }
}

const session = useUiSession({
  sandbox: { size: SIZE, seed: 23 },
  start: 'synced',
  columnBuilder: holdFirstNameSort,
})
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const bodyRows = (): Locator => grid().locator('[role="row"]:not([aria-rowindex="1"])')
const header = (label: string): Locator => grid().getByRole('columnheader', { name: new RegExp(`^${label}`) })
/** The count line: "N of M employees", or "Updating…" once this view's answer is slow (UPDATING_SIGN_MS). */
const countLine = (): Locator => page.getByText(/^([\d,]+ of [\d,]+ employees|Updating…)/)
const detailUuid = async (): Promise<string> =>
  (
    await page
      .getByRole('complementary')
      .locator('dt', { hasText: /^UUID$/ })
      .locator('xpath=following-sibling::dd')
      .innerText()
  ).trim()

/** The texts of one column of the rows on screen, by header label. */
async function columnTexts(label: string): Promise<string[]> {
  const headers = await grid().getByRole('columnheader').allTextContents()
  const index = headers.findIndex((text) => text.replace(/[▲▼]$/, '') === label)
  expect(index, `column ${label}`).toBeGreaterThanOrEqual(0)
  const rows = await bodyRows().all()
  return Promise.all(rows.map((row) => row.getByRole('gridcell').nth(index).innerText()))
}

/** The first rows the core answers for a sort, as names. */
function expectedNames(column: string, key: string): string[] {
  return app.core.queries
    .query({ sort: { column, order: 'asc' }, offset: 0, limit: 5 })
    .rows.map((row) => String(row[key]))
}

describe('while a first sort is being prepared', () => {
  it('says so, keeps its rows, and answers details, another sort and a search meanwhile', async () => {
    // The count line names where the rows came from (issue 24, point 1).
    const all = `${allEmployeesText(SIZE)} from Demo (sample data)`
    await expect.poll(async () => (await countLine().innerText()).trim()).toBe(all)
    const before = await columnTexts('Last name')
    expect(before.length).toBeGreaterThan(5)

    await header('First name').getByRole('button').click()
    await expect.poll(() => holding).toBe(true)
    // Said in words, in the count's polite live region, with the column as its header names it; the old count
    // is not shown as if current.
    await expect
      .poll(async () => (await countLine().innerText()).trim())
      .toBe('Updating… preparing the sort on First name… the list stays usable meanwhile')
    expect(await countLine().getAttribute('aria-live')).toBe('polite')
    expect(await countLine().getAttribute('aria-busy')).toBe('true')
    expect(await columnTexts('Last name')).toEqual(before)
    await ui.screenshot('ui-preparing-1-first-sort')
    const violations = await auditPage(page)
    expect(violations, describeViolations(violations)).toEqual([])

    // The rows on screen open their details meanwhile.
    await bodyRows().nth(2).click()
    await page.getByRole('complementary').getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    const opened = await detailUuid()
    expect(app.core.queries.getEmployee(opened)?.row['lastName']).toBe(before[2])
    await page.getByRole('complementary').getByRole('button', { name: 'Close details' }).click()

    // Another sort needs nothing built, so it is answered while the first one's order is still being built.
    await header('Last name').getByRole('button').click()
    await expect.poll(() => header('Last name').getAttribute('aria-sort')).toBe('ascending')
    await expect
      .poll(async () => (await columnTexts('Last name')).slice(0, 5))
      .toEqual(expectedNames('lastName', 'lastName'))
    await expect
      .poll(async () => (await countLine().innerText()).trim())
      .toBe(`${all} · preparing the sort on First name… the list stays usable meanwhile`)

    // And so is a search typed meanwhile.
    const someone = String(app.core.queries.query({ offset: 700, limit: 1 }).rows[0]?.['lastName'])
    const matching = app.core.queries.count({ text: someone })
    await page.getByRole('searchbox', { name: 'Search employees' }).fill(someone)
    await expect
      .poll(async () => (await countLine().innerText()).trim())
      .toMatch(
        new RegExp(
          `^${matching.toLocaleString('en')} of [\\d,]+ employees from Demo \\(sample data\\) · preparing the sort on First name…`,
        ),
      )
    expect(new Set(await columnTexts('Last name'))).toEqual(new Set([someone]))
    await ui.screenshot('ui-preparing-2-search-meanwhile')
    expect(holding).toBe(true)

    // The order is built: the message goes, and sorting by first name is answered at once from it.
    letGo()
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('')
    await expect.poll(async () => (await countLine().innerText()).trim()).toBe(all)
    await header('First name').getByRole('button').click()
    await expect.poll(() => header('First name').getAttribute('aria-sort')).toBe('ascending')
    await expect
      .poll(async () => (await columnTexts('First name')).slice(0, 5))
      .toEqual(expectedNames('firstName', 'firstName'))
    expect((await countLine().innerText()).trim()).toBe(all)
    await ui.screenshot('ui-preparing-3-done')
    expect(ui.problems).toEqual([])
  })
})
