import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * The default search box as a clerk uses it, in real Chromium over the real core and the sandbox's employees:
 * an employee number typed with and without its zeros, a whole e-mail address and a name spelled without its
 * special letters each bring the right employee to the top of the table.
 */

const SIZE = 20_000

const session = useUiSession({
  sandbox: { size: SIZE },
  settings: { pageSize: 1_000 },
  start: 'synced',
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

/** One field of a sandbox employee as text. */
const field = (row: Record<string, unknown> | undefined, key: string): string => String(row?.[key] ?? '')

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const bodyRows = (): Locator => grid().locator('[role="row"]:not([aria-rowindex="1"])')
const searchBox = (): Locator => page.getByRole('searchbox', { name: 'Search employees' })

/** The texts of one column of the rows on screen, by header label. */
async function columnTexts(label: string): Promise<string[]> {
  const headers = await grid().getByRole('columnheader').allTextContents()
  const index = headers.findIndex((text) => text.replace(/[▲▼]$/, '') === label)
  expect(index, `column ${label}`).toBeGreaterThanOrEqual(0)
  const rows = await bodyRows().all()
  return Promise.all(rows.map((row) => row.getByRole('gridcell').nth(index).innerText()))
}

/** N of "N of M employees", or -1 while the table is still updating. */
async function shownCount(): Promise<number> {
  const line = await page.getByText(/^[\d,]+ of [\d,]+ employees/).innerText()
  return /updating/i.test(line) ? -1 : Number(line.split(' of ')[0]!.replace(/,/g, ''))
}

/**
 * Types into the box and waits until the table answers that text: the page has asked the core for it and shows
 * the outcome.
 */
async function search(text: string): Promise<number> {
  const asked = () =>
    app.calls.some(
      (call) => call.channel === 'employees:query' && (call.args[0] as { text?: string }).text === text,
    )
  await searchBox().fill(text)
  await expect.poll(asked).toBe(true)
  await expect.poll(shownCount).toBeGreaterThanOrEqual(0)
  return shownCount()
}

/**
 * The first row on screen as (employee number, first name, last name): the default columns, where the employee
 * number (unique) says who it is; Email is not among them since pay data is.
 */
async function firstRow(): Promise<{ number: string; first: string; last: string }> {
  const [number, first, last] = await Promise.all(
    ['Employee number', 'First name', 'Last name'].map(async (label) => (await columnTexts(label))[0]),
  )
  return { number: number ?? '', first: first ?? '', last: last ?? '' }
}

describe('the default search box over 20,000 synced employees', () => {
  it('says what it looks in', async () => {
    expect(await searchBox().getAttribute('placeholder')).toBe('Search names and IDs (Ctrl+F)')
    expect(await searchBox().getAttribute('title')).toBe(
      'Finds names in any word order, and employee number, email or UUID whole or from the start, and a pasted part of a UUID',
    )
    await ui.screenshot('ui-search-0-placeholder')
    expect(ui.problems).toEqual([])
  })

  it('finds an employee number with and without its leading zeros, that employee first', async () => {
    const employee = sandbox.allEmployees().find((row) => row['employeeNumber'] === '0000436')
    expect(employee).toBeDefined()
    // 436 whole, then 4360…4369 from the start: the number itself is listed first.
    expect(await search('436')).toBeGreaterThan(1)
    expect(await firstRow()).toMatchObject({ number: field(employee, 'employeeNumber') })
    await ui.screenshot('ui-search-1-number-without-zeros')
    expect(await search('0000436')).toBe(1)
    expect((await firstRow()).number).toBe('0000436')
    expect(await search('4360')).toBeGreaterThanOrEqual(1)
    expect((await firstRow()).number).toBe('0004360')
  })

  it('finds a whole e-mail address', async () => {
    const employee = sandbox.allEmployees()[12_345]
    expect(await search(field(employee, 'email'))).toBe(1)
    expect(await firstRow()).toMatchObject({ number: field(employee, 'employeeNumber') })
    await ui.screenshot('ui-search-2-email')
  })

  it('finds a name typed without its special letters (Mueller for Müller)', async () => {
    // The sandbox romanises names for e-mail addresses as clerks type them: Jürgen Müller → juergen.mueller.
    const employee = sandbox
      .allEmployees()
      .find((row) => /ü|ö|ä|ß/.test(field(row, 'lastName')) && /ü|ö|ä|ß|ø|å/.test(field(row, 'firstName')))
    expect(employee).toBeDefined()
    const [first, last] = field(employee, 'email').split('.')
    expect(`${first} ${last}`).toMatch(/ue|oe|ae|ss|aa/)
    expect(await search(`${first} ${last}`)).toBeGreaterThanOrEqual(1)
    const shown = await firstRow()
    expect(shown).toMatchObject({ first: field(employee, 'firstName'), last: field(employee, 'lastName') })
    expect(new Set(await columnTexts('Last name'))).toEqual(new Set([field(employee, 'lastName')]))
    await ui.screenshot('ui-search-3-transliterated-name')
    expect(ui.problems).toEqual([])
  })
})
