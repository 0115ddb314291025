import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { tokenize } from '../../src/main/core/text/text-fold'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * Near-misses find people, in real Chromium over the real core and the sandbox's employees: "Smtih" offers
 * "Smith" and one click finds the Smiths; "Search in: UUID" finds an employee by the middle of their UUID; a
 * number typed is offered to the service as an employee number; the search box's placeholder shows whole.
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

const field = (row: Record<string, unknown> | undefined, key: string): string => String(row?.[key] ?? '')
const searchBox = (): Locator => page.getByRole('searchbox', { name: 'Search employees' })
const searchIn = (): Locator => page.getByRole('combobox', { name: 'Search in' })
const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const bodyRows = (): Locator => grid().locator('[role="row"]:not([aria-rowindex="1"])')

/** N of "N of M employees", or -1 while the table is still updating. */
async function shownCount(): Promise<number> {
  const line = await page.getByText(/^[\d,]+ of [\d,]+ employees/).innerText()
  return /updating/i.test(line) ? -1 : Number(line.split(' of ')[0]!.replace(/,/g, ''))
}

/** Types into the box and waits until the table shows its answer for that text. */
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

/** The texts of one column of the rows on screen, by header label. */
async function columnTexts(label: string): Promise<string[]> {
  const headers = await grid().getByRole('columnheader').allTextContents()
  const index = headers.findIndex((text) => text.replace(/[▲▼]$/, '') === label)
  expect(index, `column ${label}`).toBeGreaterThanOrEqual(0)
  const rows = await bodyRows().all()
  return Promise.all(rows.map((row) => row.getByRole('gridcell').nth(index).innerText()))
}

describe('near-misses over 20,000 synced employees', () => {
  it('shows the whole placeholder in the toolbar', async () => {
    await expect.poll(() => searchBox().getAttribute('placeholder')).toBe('Search names and IDs (Ctrl+F)')
    // The placeholder's text, in the box's own font, fits the box's content width.
    // (Evaluated in the page as source text: this project's Node tests have no DOM types.)
    const fit = await page.evaluate<{ text: number; room: number }>(`(() => {
      const input = document.getElementById('employee-search')
      const style = getComputedStyle(input)
      const context = document.createElement('canvas').getContext('2d')
      context.font = style.font
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      return { text: context.measureText(input.placeholder).width, room }
    })()`)
    expect(fit.text).toBeLessThanOrEqual(fit.room)
    await ui.screenshot('ui-near-miss-0-placeholder')
  })

  it('offers "Smith" for "Smtih", and one click finds the Smiths', async () => {
    const smiths = sandbox
      .allEmployees()
      .filter((row) =>
        [...tokenize(field(row, 'firstName')), ...tokenize(field(row, 'lastName'))].some((token) =>
          token.startsWith('smith'),
        ),
      ).length
    expect(smiths).toBeGreaterThan(0)
    expect(await search('Smtih')).toBe(0)
    const list = page.getByRole('list', { name: 'Did you mean' })
    await list.waitFor()
    const smith = list.getByRole('button', { name: /^Smith, [\d,]+ employees$/ })
    await ui.screenshot('ui-near-miss-1-did-you-mean')
    // Keyboard reachable: a native button in the tab order, which takes the focus (Enter or Space presses it).
    await smith.focus()
    await expect
      .poll(() => smith.evaluate((button) => button === button.ownerDocument.activeElement))
      .toBe(true)
    await smith.click()
    await expect.poll(() => searchBox().inputValue()).toBe('Smith')
    await expect.poll(shownCount).toBe(smiths)
    expect((await columnTexts('Last name')).some((name) => name.startsWith('Smith'))).toBe(true)
    await expect.poll(() => list.count()).toBe(0)
    await ui.screenshot('ui-near-miss-2-smith-found')
    expect(ui.problems).toEqual([])
  })

  it('finds an employee by the middle of their UUID in "Search in: UUID"', async () => {
    const employee = sandbox.allEmployees()[4_321]
    const uuid = field(employee, 'UUID')
    const middle = uuid.slice(9, 27)
    await searchIn().selectOption('UUID')
    expect(await search(middle)).toBe(1)
    await page.getByText(`Search the payroll service for “${middle}” in UUID.`, { exact: false }).waitFor()
    expect(await columnTexts('Employee number')).toEqual([field(employee, 'employeeNumber')])
    expect(await search(uuid.slice(14, 21))).toBe(0) // under eight characters: only a start counts
    await search(middle.toUpperCase())
    expect(await shownCount()).toBe(1)
    await ui.screenshot('ui-near-miss-3-uuid-middle')
    await searchIn().selectOption('')
  })

  it('offers to look a number up on the service in employee number', async () => {
    expect(await search('0004360')).toBe(1)
    await page
      .getByText('Search the payroll service for “0004360” in employee number.', { exact: false })
      .waitFor()
    expect(await search('0999999')).toBe(0)
    await page
      .getByText(
        'Not in your saved employees. Hired since the last sync? Search the payroll service for “0999999” in employee number.',
      )
      .waitFor()
    await ui.screenshot('ui-near-miss-4-number-lookup')
    await page.getByRole('button', { name: 'Look up on the service' }).click()
    await expect
      .poll(() =>
        app.calls.filter((call) => call.channel === 'employees:lookup-service').map((call) => call.args[0]),
      )
      .toEqual([{ text: '0999999', column: 'employeeNumber' }])
    expect(ui.problems).toEqual([])
  })
})
