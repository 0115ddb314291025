import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * Issue 33, points 12 and 13, as a clerk meets them at 1366×768 in real Chromium over the real core and the
 * sandbox service: a pasted UUID tail finds its employee in "Names and IDs"; "No matches" offers to clear what it
 * clears; "Did you mean" is the main choice over "Look up on the service"; a full name typed last name first is
 * found on the service; the Demo badge shows; choosing CSV keeps the toolbar on one row; an e-mail wraps only
 * after its @ and dots; Test connection writes its count in German digits under German formats.
 */

const SIZE = 2_000

const session = useUiSession({
  sandbox: { size: SIZE },
  start: 'synced',
  viewport: { width: 1366, height: 768 },
  setupTimeoutMs: 120_000,
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

type Row = Record<string, unknown>
const field = (row: Row | undefined, key: string): string => String(row?.[key] ?? '')
const searchBox = (): Locator => page.getByRole('searchbox', { name: 'Search employees' })
const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const countLine = (): Locator => page.getByText(/^[\d.,]+ of [\d.,]+ employees/)
const count = (n: number): string => n.toLocaleString('en')

/** Types into the search box and waits until the table answers that text ("N of 2,000 employees", not updating). */
async function search(text: string): Promise<string> {
  const asked = (): boolean =>
    app.calls.some(
      (call) => call.channel === 'employees:query' && (call.args[0] as { text?: string }).text === text,
    )
  await searchBox().fill(text)
  await expect.poll(asked).toBe(true)
  await expect.poll(async () => /updating/i.test(await countLine().innerText())).toBe(false)
  return countLine().innerText()
}

/** The element's box in the page (evaluated there: this project's Node tests have no DOM types). */
async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox()
  expect(found).not.toBeNull()
  return found!
}

describe('issue 33, points 12 and 13, at 1366×768', () => {
  it('shows the Demo environment badge, as Staging’s shows', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const badge = page.getByRole('banner').getByLabel('Environment: Demo')
    expect(await badge.isVisible()).toBe(true)
    expect((await box(badge)).width).toBeGreaterThan(20)
    await ui.screenshot('ui-week-three-search-1-demo-badge')
  })

  it('keeps the toolbar on one row when CSV is chosen, the grid where it was', async () => {
    const toolbar = page.locator('.toolbar')
    const before = { toolbar: await box(toolbar), grid: await box(grid()) }
    const format = page.getByLabel('Export format')
    await format.selectOption('csv')
    const note = page.getByRole('note')
    await note.waitFor()
    await ui.screenshot('ui-week-three-search-2-csv-toolbar')
    // The short form says why; its full sentence is there for screen readers and as its tooltip.
    expect(await note.innerText()).toContain('Spreadsheet apps drop leading zeros from CSV files')
    expect(await note.getAttribute('title')).toMatch(/^Spreadsheet apps drop leading zeros from CSV files/)
    // The toolbar keeps its one row, and the note sits on the count line's row: the grid keeps its rows.
    expect((await box(toolbar)).height).toBe(before.toolbar.height)
    expect((await box(grid())).y).toBe(before.grid.y)
    const count = await box(countLine())
    const chip = await box(note)
    expect(chip.y + chip.height).toBeLessThanOrEqual(before.grid.y)
    expect(Math.abs(chip.y + chip.height / 2 - (count.y + count.height / 2))).toBeLessThan(count.height)
    await note.getByRole('button', { name: 'Use Excel (.xlsx) instead' }).click()
    expect(await format.inputValue()).toBe('xlsx')
    expect(await note.count()).toBe(0)
  })

  it('finds an employee by a pasted UUID tail in "Names and IDs"', async () => {
    const everyone = sandbox.allEmployees() as Row[]
    const someone = everyone.find((row) => /[a-f]/.test(field(row, 'UUID').slice(19)))!
    const tail = field(someone, 'UUID').slice(19)
    expect(tail).toMatch(/^[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(await page.getByRole('combobox', { name: 'Search in' }).inputValue()).toBe('')
    expect(await search(tail)).toMatch(new RegExp(`^1 of ${count(SIZE)} employees`))
    expect(await grid().innerText()).toContain(field(someone, 'lastName'))
    await ui.screenshot('ui-week-three-search-3-uuid-tail')
  })

  it('names the clear button by what it clears: the search and the filters', async () => {
    const status = page.getByRole('group', { name: 'Status' })
    await status.getByRole('checkbox').first().check()
    await search('zzzzqx')
    await page.getByText('No matches').waitFor()
    expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0)
    const clear = page.getByRole('button', { name: 'Clear search and filters' })
    await ui.screenshot('ui-week-three-search-4-clear-search-and-filters')
    await clear.click()
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(await searchBox().inputValue()).toBe('')
    expect(await status.getByRole('checkbox', { checked: true }).count()).toBe(0)
  })

  it('makes "Did you mean" the first, larger choice before "Look up on the service"', async () => {
    // A saved last name with one pair of letters swapped: a near-miss nobody has.
    const names = (sandbox.allEmployees() as Row[]).map((row) => field(row, 'lastName'))
    const name = names.find((each) => /^[A-Za-z]{6,}$/.test(each) && each[2] !== each[3])!
    const typo = name.slice(0, 2) + name[3]! + name[2]! + name.slice(4)
    expect(await search(typo)).toMatch(new RegExp(`^0 of ${count(SIZE)} employees`))
    const list = page.getByRole('list', { name: 'Did you mean' })
    await list.waitFor()
    await ui.screenshot('ui-week-three-search-5-did-you-mean')
    // The closest name is the list's first button.
    const first = list.getByRole('button').first()
    expect(await first.innerText()).toMatch(new RegExp(`^${name}\\s`))
    const firstClass = String(await first.evaluate((element) => element.className))
    const lookUp = page.getByRole('button', { name: 'Look up on the service' })
    await lookUp.waitFor()
    expect(firstClass).toContain('primary')
    expect(String(await lookUp.evaluate((element) => element.className))).not.toContain('primary')
    const [suggestion, service] = [await box(first), await box(lookUp)]
    // First (above it) and larger.
    expect(suggestion.y + suggestion.height).toBeLessThanOrEqual(service.y)
    expect(suggestion.height).toBeGreaterThan(service.height)
    expect(suggestion.width * suggestion.height).toBeGreaterThan(service.width * service.height * 0.6)
    await first.click()
    await expect.poll(() => searchBox().inputValue()).toBe(name)
  })

  it('wraps an e-mail in the detail panel only after its @, dots and hyphens', async () => {
    const everyone = sandbox.allEmployees() as Row[]
    const longest = everyone.reduce((a, b) => (field(b, 'email').length > field(a, 'email').length ? b : a))
    const email = field(longest, 'email')
    await search(email)
    await grid()
      .getByRole('gridcell', { name: field(longest, 'lastName') })
      .first()
      .dblclick()
    const value = page.locator('.detail-panel .email-value').filter({ hasText: email }).first()
    await value.waitFor()
    expect(await value.getAttribute('title')).toBe(email)
    await ui.screenshot('ui-week-three-search-6-email-wrap')
    // Evaluated in the page as source text: this project's Node tests have no DOM types.
    const layout = await page.evaluate<{ pieces: Array<[string, number]>; lines: number }>(`(() => {
      const element = document.querySelector('.detail-panel .email-value')
      const linesOf = (node) => {
        const range = document.createRange()
        range.selectNodeContents(node)
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size
      }
      const texts = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
      return { pieces: texts.map((node) => [node.textContent, linesOf(node)]), lines: linesOf(element) }
    })()`)
    // Long enough to wrap in the panel, and each piece ("anna.", "kowalski@", "example.", "com") whole on a line.
    expect(layout.lines, JSON.stringify(layout)).toBeGreaterThan(1)
    expect(layout.pieces.filter(([, lines]) => lines !== 1)).toEqual([])
    await page.getByRole('button', { name: 'Close details' }).click()
    await value.waitFor({ state: 'detached' })
  })

  it('Test connection writes its count in the profile’s regional formats', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    await page.getByLabel('Numbers and dates').selectOption('de-DE')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    await page.getByRole('button', { name: 'Test connection' }).click()
    const report = page.getByRole('region', { name: 'Connection report' })
    await report.waitFor()
    await expect
      .poll(() => report.innerText())
      .toContain(`answered with 1 of ${SIZE.toLocaleString('de-DE')} employees`)
    expect(await report.innerText()).not.toContain(count(SIZE))
    await report.evaluate((element) => element.scrollIntoView())
    await ui.screenshot('ui-week-three-search-7-test-connection-german')
    await page.getByRole('button', { name: 'Back to employees' }).click()
    await ui.screenshot('ui-week-three-search-7b-back')
    await page.getByText(`1 of ${SIZE.toLocaleString('de-DE')} employees`).waitFor()
  })

  it('looks a full name up on the service last name first, and finds them', async () => {
    // HR adds someone after the sync: the sandbox's churn adds one employee on the next list request.
    sandbox.setBehaviours({ churn: { add: 1, remove: 0, listRequests: 1 } })
    const { accessToken } = sandbox.issueTokens()
    const poke = await fetch(`${sandbox.baseUrl}/employees/list?limit=1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    expect(poke.status).toBe(200)
    const hired = sandbox.allEmployees()[0] as Row
    const text = `${field(hired, 'lastName')} ${field(hired, 'firstName')}`
    await search(text)
    await page.getByRole('button', { name: 'Look up on the service' }).click()
    const live = page.getByRole('region', { name: /^From the service/ })
    await live.waitFor()
    expect(await live.innerText()).not.toContain('has nobody matching')
    expect(await live.getByText(/^Found \d+ employees? for/).innerText()).toContain(
      `with last name “${field(hired, 'lastName')}” and first name “${field(hired, 'firstName')}”`,
    )
    const rows = live.getByRole('table', { name: 'Employees found on the payroll service' }).getByRole('row')
    expect(await rows.filter({ hasText: 'Not saved yet' }).count()).toBe(1)
    await ui.screenshot('ui-week-three-search-8-full-name-lookup')
    expect(ui.problems).toEqual([])
  })
})
