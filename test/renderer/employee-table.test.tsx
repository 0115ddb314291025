import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeQuery } from '../../src/shared/domain/query'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { bodyRows, renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const COUNT = 6_000

/** The aria-rowindex of the row holding the focus. */
function focusedRowIndex(): string | null | undefined {
  return document.activeElement?.closest('[role="row"]')?.getAttribute('aria-rowindex')
}

function cellText(row: HTMLElement, column: number): string {
  return within(row).getAllByRole('gridcell')[column]!.textContent ?? ''
}

async function renderSynced() {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true })
  await screen.findByText(`${COUNT.toLocaleString('en')} of ${COUNT.toLocaleString('en')} employees`)
  await waitFor(() => expect(bodyRows().length).toBeGreaterThan(0))
  return rendered
}

function queries(calls: { channel: string; args: unknown[] }[]): EmployeeQuery[] {
  return calls
    .filter((call) => call.channel === 'employees:query')
    .map((call) => call.args[0] as EmployeeQuery)
}

describe('employee table', () => {
  it('renders only a window of the rows and says how many there are', async () => {
    await renderSynced()
    const grid = screen.getByRole('grid', { name: 'Employees' })
    expect(grid.getAttribute('aria-rowcount')).toBe(String(COUNT + 1))
    expect(bodyRows().length).toBeLessThan(80)
    expect(bodyRows()[0]!.getAttribute('aria-rowindex')).toBe('2')
  })

  it('fetches the window it scrolls to, not everything before it', async () => {
    const { core } = await renderSynced()
    const grid = screen.getByRole('grid', { name: 'Employees' })
    const rowHeight = 36
    act(() => {
      grid.scrollTop = 4_000 * rowHeight
      fireEvent.scroll(grid)
    })
    await waitFor(() =>
      expect(
        queries(core.calls).some((query) => (query.offset ?? 0) >= 3_800 && (query.offset ?? 0) <= 4_100),
      ).toBe(true),
    )
    const offsets = queries(core.calls).map((query) => query.offset ?? 0)
    expect(offsets.filter((offset) => offset > 0 && offset < 3_000)).toEqual([])
    await waitFor(() =>
      expect(bodyRows().some((row) => row.getAttribute('aria-rowindex') === '4002')).toBe(true),
    )
  })

  it('sorts by a column on click, ascending then descending, and marks it with aria-sort', async () => {
    const { core } = await renderSynced()
    const header = () => screen.getByRole('columnheader', { name: 'Employee number' })
    fireEvent.click(within(header()).getByRole('button'))
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('ascending'))
    await waitFor(() => expect(cellText(bodyRows()[0]!, 3)).toBe('000001'))
    expect(queries(core.calls).at(-1)?.sort).toEqual({ column: 'employeeNumber', order: 'asc' })

    fireEvent.click(within(header()).getByRole('button'))
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('descending'))
    await waitFor(() => expect(cellText(bodyRows()[0]!, 3)).toBe(String(COUNT).padStart(6, '0')))
    expect(screen.getByRole('columnheader', { name: 'Last name' }).getAttribute('aria-sort')).toBe('none')
  })

  it('moves the selection with the arrow keys and opens every field with Enter', async () => {
    await renderSynced()
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search employees' }), { key: 'ArrowDown' })
    await waitFor(() => expect(focusedRowIndex()).toBe('2'))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    const selected = bodyRows().filter((row) => row.getAttribute('aria-selected') === 'true')
    expect(selected.map((row) => row.getAttribute('aria-rowindex'))).toEqual(['4'])
    expect(focusedRowIndex()).toBe('4')
    const number = cellText(selected[0]!, 3)

    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    const panel = await screen.findByRole('complementary', { name: new RegExp(cellText(selected[0]!, 1)) })
    await within(panel).findByText(number)
    // Discovered fields the table does not show are in the panel too (the manager by name), with the pay cycle.
    expect(within(panel).getByText('Manager')).toBeTruthy()
    expect(within(panel).getByText('UUID')).toBeTruthy()
    expect(within(panel).getByRole('heading', { name: 'Pay cycle' })).toBeTruthy()
    expect(within(panel).getAllByRole('listitem')[0]!.textContent).toMatch(/^PC-/)

    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    await waitFor(() => expect(focusedRowIndex()).toBe(String(COUNT + 1)))
    // As a mouse does: the button takes the focus, then the click.
    const close = within(panel).getByRole('button', { name: 'Close details' })
    act(() => close.focus())
    fireEvent.click(close)
    // Closed, and not opened again by the focus going back to its row.
    await waitFor(() => expect(document.querySelector('.detail-panel')).toBeNull())
    expect(screen.queryByRole('complementary', { name: new RegExp(cellText(selected[0]!, 1)) })).toBeNull()
    // Closing the panel gives the focus back to the row it showed.
    expect(focusedRowIndex()).toBe(String(COUNT + 1))
  })

  it('adds a discovered field as a column from the column chooser', async () => {
    await renderSynced()
    expect(screen.queryByRole('columnheader', { name: /^Manager UUID$/i })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }))
    const chooser = screen.getByRole('group', { name: 'Show columns' })
    fireEvent.click(within(chooser).getByRole('checkbox', { name: /Manager UUID/i }))
    expect(await screen.findByRole('columnheader', { name: /^Manager UUID$/i })).toBeTruthy()
    fireEvent.click(within(chooser).getByRole('checkbox', { name: /Department/ }))
    expect(screen.queryByRole('columnheader', { name: 'Department' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Reset columns' }))
    expect(await screen.findByRole('columnheader', { name: 'Department' })).toBeTruthy()
  })
})
