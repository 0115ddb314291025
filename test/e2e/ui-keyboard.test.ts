import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * The table as a spreadsheet user drives it, in real Chromium over the real core and the sandbox's employees:
 * search → first result → details → Esc → export with the keyboard alone (focus checked at each step), three rows
 * copied with click and Shift+click and read back from the clipboard, the frozen name columns after scrolling
 * right, and a resized and moved column still so after a reload.
 */

const SIZE = 2_000

const session = useUiSession({ sandbox: { size: SIZE }, start: 'synced' })
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const searchBox = (): Locator => page.getByRole('searchbox', { name: 'Search employees' })
const header = (label: string): Locator => grid().getByRole('columnheader', { name: label, exact: true })
const cell = (row: number, column: number): Locator => grid().locator(`[data-cell="${row}:${column}"]`)

/**
 * What has the focus: its data-cell ("cell row:column"), its column header, or its tag and id or name. Runs in the
 * page as a script (the test's TypeScript has no DOM types).
 */
async function focusIs(): Promise<string> {
  return String(
    await page.evaluate(`(() => {
      const active = document.activeElement
      if (active === null || active === document.body) return 'nothing'
      if (active.dataset.cell !== undefined) return 'cell ' + active.dataset.cell
      const header = active.closest('[role="columnheader"]')
      if (header) return 'header ' + header.getAttribute('aria-colindex')
      const name = active.id !== '' ? '#' + active.id : ' ' + (active.getAttribute('aria-label') || active.textContent || '')
      return (active.tagName.toLowerCase() + name).trim()
    })()`),
  )
}

/** The shown columns' keys and labels, in on-screen order. */
async function shownColumns(): Promise<{ key: string; label: string }[]> {
  return grid()
    .getByRole('columnheader')
    .evaluateAll((cells) =>
      cells.map((item) => ({
        key: item.getAttribute('data-col') ?? '',
        label: (item.querySelector('.header-label')?.textContent ?? '').trim(),
      })),
    )
}

/** N of "N of M employees", once the table has answered (no "updating…"). */
async function settledCount(): Promise<number> {
  const line = page.getByText(/^[\d,]+ of [\d,]+ employees/)
  await expect.poll(async () => /updating/i.test(await line.innerText())).toBe(false)
  return Number((await line.innerText()).split(' of ')[0]!.replace(/,/g, ''))
}

/** Rows as the core holds them, in the table's default order. */
async function savedRows(offset: number, limit: number): Promise<EmployeeRow[]> {
  return (await app.core.handlers['employees:query']({ offset, limit })).rows
}

describe('the employee table with the keyboard, the clipboard and its columns', () => {
  it('goes search → first result → details → Esc → export with the keyboard only', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const [someone] = await savedRows(700, 1)
    const lastName = String(someone?.['lastName'])

    await page.keyboard.press('Control+f')
    expect(await focusIs()).toBe('input#employee-search')
    await page.keyboard.type(lastName)
    await expect
      .poll(() =>
        app.calls.some((call) => (call.args[0] as { text?: string } | undefined)?.text === lastName),
      )
      .toBe(true)
    const matches = await settledCount()
    expect(matches).toBeGreaterThan(0)

    await page.keyboard.press('ArrowDown')
    await expect.poll(focusIs).toBe('cell 0:0')
    expect(await cell(0, 0).locator('..').getAttribute('aria-selected')).toBe('true')
    expect(await cell(0, 0).innerText()).toBe(lastName)

    await page.keyboard.press('Enter')
    const panel = page.locator('.detail-panel')
    await panel.getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    expect(await focusIs()).toBe('cell 0:0')
    await ui.screenshot('ui-keyboard-1-details')

    await page.keyboard.press('Escape')
    await panel.waitFor({ state: 'detached' })
    expect(await focusIs()).toBe('cell 0:0')

    await page.keyboard.press('Control+e')
    const done = page.getByText(/^Exported [\d,]+ rows? to/)
    await done.waitFor({ timeout: 60_000 })
    expect(await done.innerText()).toMatch(new RegExp(`^Exported ${matches} rows? to .+\\.xlsx\\.$`))
    await expect.poll(focusIs).toBe('cell 0:0')
    await ui.screenshot('ui-keyboard-2-exported')

    // Help → Keyboard shortcuts lists what was just used; it is modal: Tab and Shift+Tab stay in it, and Esc
    // (even after a click on the dimmed page behind) gives the focus back to the row.
    await page.keyboard.press('Control+/')
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await help.waitFor()
    expect(await help.getByRole('row', { name: /Export the current view/ }).innerText()).toMatch(/Ctrl\+E/)
    await ui.screenshot('ui-keyboard-3-shortcuts')
    const focusInHelp = (): Promise<boolean> =>
      help.evaluate((dialog) => dialog.contains(dialog.ownerDocument.activeElement))
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Tab']) {
      await page.keyboard.press(key)
      expect(await focusInHelp(), key).toBe(true)
    }
    await page.mouse.click(5, 790)
    await page.keyboard.press('Tab')
    expect(await focusInHelp(), 'Tab after a click behind').toBe(true)
    await page.keyboard.press('Escape')
    await help.waitFor({ state: 'detached' })
    expect(await focusIs()).toBe('cell 0:0')

    await page.getByRole('button', { name: 'Dismiss' }).click()
    await searchBox().fill('')
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(ui.problems).toEqual([])
  })

  it('copies three rows chosen by click and Shift+click as tab-separated text with headers', async () => {
    await cell(0, 0).click()
    await cell(2, 1).click({ modifiers: ['Shift'] })
    const selected = grid().locator('[role="row"][aria-selected="true"]')
    expect(await selected.count()).toBe(3)
    await page.keyboard.press('Control+c')
    await page.getByText('Copied 3 rows.').waitFor()
    // What main wrote on the system clipboard (the page names the rows; main reads and writes them).
    const pasted = app.clipboard.at(-1)?.text

    const columns = await shownColumns()
    const rows = await savedRows(0, 3)
    const expected = [
      columns.map((column) => column.label).join('\t'),
      ...rows.map((row) => columns.map((column) => String(row[column.key] ?? '')).join('\t')),
    ]
    expect(pasted).toBe(`${expected.join('\r\n')}\r\n`)
    await ui.screenshot('ui-keyboard-4-copied')
  })

  it('keeps the name columns in view when the table scrolls right', async () => {
    await grid().evaluate((element) => {
      element.scrollLeft = element.scrollWidth
    })
    await expect.poll(() => grid().evaluate((element) => element.scrollLeft)).toBeGreaterThan(100)
    const view = (await grid().boundingBox())!
    for (const label of ['Last name', 'First name']) {
      const box = (await header(label).boundingBox())!
      expect(box.x, label).toBeGreaterThanOrEqual(view.x)
      expect(box.x + box.width, label).toBeLessThanOrEqual(view.x + view.width)
      const first = (await cell(0, label === 'Last name' ? 0 : 1).boundingBox())!
      expect(first.x, `${label} cell`).toBeGreaterThanOrEqual(view.x)
    }
    // The header "Employee number" is not cut at its default width (its words on two lines: decision 056). A
    // pixel of slack: the glyphs of two 16.5 px lines round to 34 px in a 33 px box; a line cut off is 16 px.
    const label = header('Employee number').locator('.header-label')
    expect(
      await label.evaluate(
        (element) =>
          element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight + 1,
      ),
    ).toBe(true)
    await ui.screenshot('ui-keyboard-5-scrolled-right')
    await grid().evaluate((element) => {
      element.scrollLeft = 0
    })
  })

  it('keeps a resized and a moved column after a reload', async () => {
    // The copy's click opened the details; Esc from the row closes them, so the table has its full width.
    await cell(0, 0).focus()
    await page.keyboard.press('Escape')
    await page.locator('.detail-panel').waitFor({ state: 'detached' })
    const before = (await header('Employee number').boundingBox())!
    const grip = header('Employee number').locator('.resize-grip')
    const gripBox = (await grip.boundingBox())!
    await page.mouse.move(gripBox.x + gripBox.width / 2, gripBox.y + gripBox.height / 2)
    await page.mouse.down()
    await page.mouse.move(gripBox.x + 60, gripBox.y + gripBox.height / 2, { steps: 5 })
    await page.mouse.move(gripBox.x + 90, gripBox.y + gripBox.height / 2, { steps: 5 })
    await page.mouse.up()
    await expect
      .poll(async () => (await header('Employee number').boundingBox())!.width)
      .toBeGreaterThan(before.width + 60)
    const resized = (await header('Employee number').boundingBox())!.width

    // A double-click on the grip fits the column to its header and the rows on screen: no department cut
    // ("Research & Development" is wider than the column's default).
    await header('Department').locator('.resize-grip').dblclick()
    const cut = () =>
      grid()
        .locator('[role="gridcell"][data-col="department"]')
        .evaluateAll((cells) => cells.filter((item) => item.scrollWidth > item.clientWidth).length)
    await expect.poll(cut).toBe(0)
    await grid().evaluate((element) => {
      element.scrollLeft = 0
    })

    // Both in view, so the drag needs no scrolling on the way.
    await header('Employee number').dragTo(header('Status'))
    await expect
      .poll(async () => (await shownColumns()).map((column) => column.key).slice(0, 4))
      .toEqual(['lastName', 'firstName', 'employeeNumber', 'employeeStatus'])
    const order = (await shownColumns()).map((column) => column.key)
    await ui.screenshot('ui-keyboard-6-resized-moved')

    await page.reload()
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    await expect.poll(async () => (await shownColumns()).map((column) => column.key)).toEqual(order)
    expect(Math.abs((await header('Employee number').boundingBox())!.width - resized)).toBeLessThanOrEqual(1)
    await ui.screenshot('ui-keyboard-7-after-reload')
    expect(sandbox.employeeCount()).toBe(SIZE)
    expect(ui.problems).toEqual([])
  })

  it('runs a held shortcut once, and claims every repeat so no menu accelerator runs it again', async () => {
    // Every keydown as the page leaves it: a listener after the app's sees whether the app claimed it.
    await page.evaluate(`(() => {
      window.__keydowns = []
      window.addEventListener('keydown', (event) => {
        if (event.key === 'r') window.__keydowns.push({ repeat: event.repeat, claimed: event.defaultPrevented })
      })
    })()`)
    const syncs = (): number => app.calls.filter((call) => call.channel === 'sync:start').length
    const before = syncs()
    await page.keyboard.down('Control')
    // Held: Playwright sends the second and later presses of a key still down as repeats.
    for (let press = 0; press < 4; press++) await page.keyboard.down('r')
    await page.keyboard.up('r')
    await page.keyboard.up('Control')
    const keydowns = (await page.evaluate('window.__keydowns')) as { repeat: boolean; claimed: boolean }[]
    expect(keydowns).toEqual([
      { repeat: false, claimed: true },
      { repeat: true, claimed: true },
      { repeat: true, claimed: true },
      { repeat: true, claimed: true },
    ])
    await expect.poll(syncs).toBe(before + 1)
    // The one sync ends (the Sync button is back), and no second one started meanwhile.
    await page.getByRole('button', { name: 'Sync', exact: true }).waitFor({ timeout: 60_000 })
    expect(syncs()).toBe(before + 1)
    expect(ui.problems).toEqual([])
  })
})
