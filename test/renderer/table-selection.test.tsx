import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExportRequest } from '../../src/shared/domain/export'
import { fakeUuid, makeEmployees } from '../helpers/fake/fake-employees'
import type { FakeCore } from '../helpers/fake/fake-core'
import { bodyRows, renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const COUNT = 3_000
const EMPLOYEES = makeEmployees(COUNT)

/**
 * What main wrote on the system clipboard for the page's copies (the fake core's, by the core's own functions),
 * newest last: the page names the employees and columns, main writes the text and an HTML table.
 */
let copied: FakeCore['copy'] | undefined
const clipboard = (): string[] => (copied?.clipboard ?? []).map((content) => content.text)

async function renderSynced() {
  const rendered = renderWithCore({ serviceEmployees: EMPLOYEES, synced: true, signedIn: true })
  copied = rendered.core.copy
  await screen.findByText(`${COUNT.toLocaleString('en')} of ${COUNT.toLocaleString('en')} employees`)
  await waitFor(() => expect(bodyRows().length).toBeGreaterThan(0))
  return rendered
}

const row = (rowIndex: number): HTMLElement =>
  bodyRows().find((item) => item.getAttribute('aria-rowindex') === String(rowIndex + 2))!
const cells = (rowIndex: number): string[] =>
  within(row(rowIndex))
    .getAllByRole('gridcell')
    .map((cell) => cell.textContent ?? '')
const selectedRows = (): string[] =>
  bodyRows()
    .filter((item) => item.getAttribute('aria-selected') === 'true')
    .map((item) => item.getAttribute('aria-rowindex') ?? '')
const headers = (): string[] =>
  screen.getAllByRole('columnheader').map((cell) => (cell.textContent ?? '').replace(/[▲▼]$/, ''))
const focused = (): Element => document.activeElement!
const detailPanel = (): Element | null => document.querySelector('.detail-panel')
const press = (key: string, modifiers: { ctrlKey?: boolean; shiftKey?: boolean } = {}): void => {
  fireEvent.keyDown(focused(), { key, ...modifiers })
}

function exportRequests(calls: { channel: string; args: unknown[] }[]): ExportRequest[] {
  return calls.filter((call) => call.channel === 'export:start').map((call) => call.args[0] as ExportRequest)
}

describe('selecting rows', () => {
  it('selects by click, extends by Shift+click and Shift+↓, toggles by Ctrl+click, and takes all with Ctrl+A', async () => {
    await renderSynced()
    const grid = screen.getByRole('grid', { name: 'Employees' })
    expect(grid.getAttribute('aria-multiselectable')).toBe('true')
    fireEvent.click(row(0).querySelector('[role="gridcell"]')!)
    expect(selectedRows()).toEqual(['2'])
    fireEvent.click(row(3).querySelector('[role="gridcell"]')!, { shiftKey: true })
    expect(selectedRows()).toEqual(['2', '3', '4', '5'])
    fireEvent.click(row(1).querySelector('[role="gridcell"]')!, { ctrlKey: true })
    expect(selectedRows()).toEqual(['2', '4', '5'])
    fireEvent.click(row(6).querySelector('[role="gridcell"]')!)
    act(() => (row(6).querySelector('[role="gridcell"]') as HTMLElement).focus())
    press('ArrowDown', { shiftKey: true })
    press('ArrowDown', { shiftKey: true })
    expect(selectedRows()).toEqual(['8', '9', '10'])
    press('a', { ctrlKey: true })
    expect(selectedRows().length).toBe(bodyRows().length)
  })

  it('copies the selected rows as tab-separated text with the shown columns as its header', async () => {
    const { core } = await renderSynced()
    fireEvent.click(row(0).querySelector('[role="gridcell"]')!)
    fireEvent.click(row(2).querySelector('[role="gridcell"]')!, { shiftKey: true })
    press('c', { ctrlKey: true })
    await waitFor(() => expect(clipboard()).toHaveLength(1))
    const lines = clipboard()[0]!.split('\r\n')
    expect(lines.at(-1)).toBe('')
    const [head, ...rows] = lines.slice(0, -1).map((line) => line.split('\t'))
    expect(head).toEqual(headers())
    // Each row is the employee's data as saved (numbers without separators), in the shown columns' order.
    const numberAt = headers().indexOf('Employee number')
    expect(rows.map((cellsOfRow) => cellsOfRow[numberAt])).toEqual([0, 1, 2].map((i) => cells(i)[numberAt]))
    const saved = new Map(EMPLOYEES.map((employee) => [employee['employeeNumber'], employee]))
    const keys = screen.getAllByRole('columnheader').map((cell) => cell.getAttribute('data-col')!)
    for (const cellsOfRow of rows) {
      const employee = saved.get(cellsOfRow[numberAt]!)!
      expect(cellsOfRow).toEqual(keys.map((key) => String(employee[key] ?? '')))
    }
    expect(await screen.findByText('Copied 3 rows.')).toBeTruthy()
    // The page asked main with the employees' UUIDs and the shown columns' names, never their cells' text.
    const asked = core.calls.filter((call) => call.channel === 'export:copy-rows').map((call) => call.args[0])
    const uuids = rows.map((cellsOfRow) => String(saved.get(cellsOfRow[numberAt]!)!['UUID']))
    expect(asked).toEqual([{ uuids, columns: keys, headers: true }])
    // Beside the text, the same rows as an HTML table.
    expect(copied?.clipboard[0]?.html).toMatch(/^<table><tr><th[^>]*>/)
  })

  it('says so when main could not write the clipboard', async () => {
    const { core } = await renderSynced()
    core.copy.failing = true
    fireEvent.click(row(0).querySelector('[role="gridcell"]')!)
    fireEvent.click(row(1).querySelector('[role="gridcell"]')!, { shiftKey: true })
    press('c', { ctrlKey: true })
    expect(await screen.findByText('RosterDesk could not copy to the clipboard. Try again.')).toBeTruthy()
    expect(clipboard()).toEqual([])
  })

  it('copies rows far outside the rendered window, reading them through the query', async () => {
    const { core } = await renderSynced()
    act(() => (row(0).querySelector('[role="gridcell"]') as HTMLElement).focus())
    press('a', { ctrlKey: true })
    press('c', { ctrlKey: true })
    await waitFor(() => expect(clipboard()).toHaveLength(1))
    const lines = clipboard()[0]!.trimEnd().split('\r\n')
    expect(lines).toHaveLength(COUNT + 1)
    expect(new Set(lines.slice(1)).size).toBe(COUNT)
    const windows = core.calls
      .filter((call) => call.channel === 'employees:query')
      .map((call) => call.args[0])
    expect(windows).toContainEqual(expect.objectContaining({ offset: 2_000, limit: 1_000 }))
  })

  it('offers the row menu on the Menu key: copy a field, export the selected rows, open details', async () => {
    const { core } = await renderSynced()
    fireEvent.click(row(4).querySelector('[role="gridcell"]')!)
    fireEvent.click(row(6).querySelector('[role="gridcell"]')!, { shiftKey: true })
    press('F10', { shiftKey: true })
    const menu = screen.getByRole('menu', { name: 'Row actions' })
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['CopyCtrl+C', 'Copy employee number', 'Copy e-mail', 'Export selected rows…', 'Open details'])
    expect(focused()).toBe(within(menu).getAllByRole('menuitem')[0])
    const numberAt = headers().indexOf('Employee number')
    const numbers = [4, 5, 6].map((i) => cells(i)[numberAt]!)
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Copy employee number' }))
    await waitFor(() => expect(clipboard()).toEqual([numbers.join('\r\n')]))
    // Closing the menu gives the focus back to the row it was opened on.
    await waitFor(() => expect(focused().closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe('8'))

    fireEvent.contextMenu(row(5).querySelector('[role="gridcell"]')!)
    fireEvent.click(screen.getByRole('menuitem', { name: 'Export selected rows…' }))
    expect((await screen.findByText(/^Exported 3 rows to/)).textContent).toBe(
      'Exported 3 rows to employees.xlsx.',
    )
    expect(exportRequests(core.calls).at(-1)).toMatchObject({
      kind: 'view',
      uuids: numbers.map((number) => fakeUuid(Number(number) - 1)),
    })

    fireEvent.contextMenu(row(1).querySelector('[role="gridcell"]')!)
    expect(selectedRows()).toEqual(['3'])
    fireEvent.click(screen.getByRole('menuitem', { name: 'Open details' }))
    await waitFor(() => expect(detailPanel()).not.toBeNull())
  })
})

describe('keyboard flow', () => {
  it('goes from the search box to the first result, opens and closes details with Enter and Esc', async () => {
    await renderSynced()
    const search = screen.getByRole('searchbox', { name: 'Search employees' })
    act(() => search.focus())
    fireEvent.keyDown(search, { key: 'Enter' })
    await waitFor(() => expect(focused().getAttribute('data-cell')).toBe('0:0'))
    expect(selectedRows()).toEqual(['2'])
    press('ArrowRight')
    press('ArrowRight')
    expect(focused().getAttribute('data-cell')).toBe('0:2')
    press('Enter')
    await waitFor(() => expect(detailPanel()).not.toBeNull())
    expect(focused().getAttribute('data-cell')).toBe('0:2')
    press('PageDown')
    expect(Number(focused().getAttribute('data-cell')?.split(':')[0])).toBeGreaterThan(5)
    press('Home', { ctrlKey: true })
    expect(focused().getAttribute('data-cell')).toBe('0:2')
    press('Escape')
    await waitFor(() => expect(detailPanel()).toBeNull())
    expect(focused().getAttribute('data-cell')).toBe('0:2')
    // Up from the first row reaches the column headers, where Enter sorts.
    press('ArrowUp')
    expect(focused().closest('[role="columnheader"]')?.getAttribute('aria-colindex')).toBe('3')
    press('ArrowDown')
    expect(focused().getAttribute('data-cell')).toBe('0:2')
  })

  it('runs Export, Sync and Settings from their shortcuts and lists them in Help → Keyboard shortcuts', async () => {
    const { core, events } = await renderSynced()
    act(() => (row(0).querySelector('[role="gridcell"]') as HTMLElement).focus())
    press('e', { ctrlKey: true })
    expect((await screen.findByText(/^Exported [\d,]+ rows to/, {}, { timeout: 10_000 })).textContent).toBe(
      `Exported ${COUNT.toLocaleString('en')} rows to employees.xlsx.`,
    )
    expect(exportRequests(core.calls)).toHaveLength(1)
    // The export over, the focus is where it was when it started.
    await waitFor(() => expect(focused().getAttribute('data-cell')).toBe('0:0'))

    press('/', { ctrlKey: true })
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
    const shortcuts = within(dialog)
      .getAllByRole('row')
      .map((item) => item.textContent)
    expect(shortcuts).toContain('Ctrl+EExport the current view')
    expect(shortcuts).toContain('Ctrl+R or F5Sync now')
    expect(shortcuts).toContain('Ctrl+,Open Settings')
    expect(shortcuts).toContain('Ctrl+CCopy the selected rows (tab-separated, with headers)')
    fireEvent.keyDown(focused(), { key: 'Escape' })
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull()
    expect(focused().getAttribute('data-cell')).toBe('0:0')

    const syncs = () => core.calls.filter((call) => call.channel === 'sync:start').length
    fireEvent.keyDown(focused(), { key: 'F5' })
    await waitFor(() => expect(syncs()).toBe(1))

    // The menu's items arrive as `app:command`.
    act(() => events.emit('app:command', 'settings'))
    expect(await screen.findByRole('button', { name: 'Back to employees' })).toBeTruthy()
  })
})

describe('columns', () => {
  it('keeps the name columns frozen and reorders columns by dragging a header or from the chooser', async () => {
    const { core } = await renderSynced()
    const header = (label: string) => screen.getByRole('columnheader', { name: label })
    expect(header('Last name').className).toContain('frozen')
    expect(header('First name').className).toContain('frozen-edge')
    expect(header('Status').className).not.toContain('frozen')
    expect(row(0).querySelector('[role="gridcell"]')!.className).toContain('frozen')

    const data = new Map<string, string>()
    const dataTransfer = {
      types: [] as string[],
      setData: (type: string, value: string) => {
        data.set(type, value)
        dataTransfer.types = [...data.keys()]
      },
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: '',
      dropEffect: '',
    }
    fireEvent.dragStart(header('Status'), { dataTransfer })
    fireEvent.dragOver(header('Employee number'), { dataTransfer })
    fireEvent.drop(header('Employee number'), { dataTransfer })
    expect(headers().slice(0, 4)).toEqual(['Last name', 'First name', 'Employee number', 'Status'])

    fireEvent.click(screen.getByRole('button', { name: 'Columns' }))
    fireEvent.click(screen.getByRole('button', { name: 'Move Status left' }))
    expect(headers().slice(0, 4)).toEqual(['Last name', 'First name', 'Status', 'Employee number'])
    fireEvent.click(screen.getByRole('button', { name: 'Move First name left' }))
    expect(headers().slice(0, 2)).toEqual(['First name', 'Last name'])

    // The keyboard resizes too: Ctrl+Shift+→ widens the column the focus is in.
    act(() => (row(0).querySelector('[data-cell="0:2"]') as HTMLElement).focus())
    press('ArrowRight', { ctrlKey: true, shiftKey: true })
    press('ArrowRight', { ctrlKey: true, shiftKey: true })

    // Main keeps the layout as the profile's current view (sent at once: no debounce to wait for).
    const kept = async () => (await core.handlers['views:get-current']()).state?.columns
    await waitFor(async () =>
      expect((await kept())?.keys.slice(0, 4)).toEqual([
        'firstName',
        'lastName',
        'employeeStatus',
        'employeeNumber',
      ]),
    )
    // jsdom lays nothing out (every width 0), so each step lands on the narrowest width a layout keeps.
    await waitFor(async () => expect((await kept())?.widths).toEqual({ employeeStatus: 24 }))
    expect(localStorage.length).toBe(0)
  })

  it('finds a field in the column chooser by its name', async () => {
    await renderSynced()
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }))
    const chooser = screen.getByRole('group', { name: 'Show columns' })
    fireEvent.change(within(chooser).getByRole('searchbox', { name: 'Find a column' }), {
      target: { value: 'manager' },
    })
    expect(
      within(chooser)
        .getAllByRole('checkbox')
        .map((box) => box.parentElement?.textContent),
    ).toEqual([expect.stringMatching(/^Manager uuid/i)])
    fireEvent.change(within(chooser).getByRole('searchbox', { name: 'Find a column' }), {
      target: { value: 'zzz' },
    })
    expect(within(chooser).getByText('No column matches “zzz”.')).toBeTruthy()
  })
})
