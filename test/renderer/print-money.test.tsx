import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExportRequest } from '../../src/shared/domain/export'
import type { ColumnInfo, EmployeeRow } from '../../src/shared/domain/rows'
import { DetailPanel } from '../../src/renderer/src/components/detail-panel'
import { formatValue } from '../../src/renderer/src/format/format-value'
import { fakeUuid, makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

async function renderSynced() {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(700), synced: true, signedIn: true })
  await screen.findByText('700 of 700 employees')
  return rendered
}

function printRequests(calls: { channel: string; args: unknown[] }[]): ExportRequest[] {
  return calls.filter((call) => call.channel === 'export:print').map((call) => call.args[0] as ExportRequest)
}

describe('Print…', () => {
  it('prints the current view (filters, sort, visible columns) from the button, Ctrl+P and the menu', async () => {
    const { core, events } = await renderSynced()
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', { name: /On leave/ }),
    )
    await waitFor(() =>
      expect(screen.getByText(/ of 700 employees/).textContent).toBe(
        '100 of 700 employees from Demo (sample data)',
      ),
    )

    const button = screen.getByRole('button', { name: 'Print…' })
    expect(button.getAttribute('aria-keyshortcuts')).toBe('Control+P Meta+P')
    fireEvent.click(button)
    await waitFor(() => expect(printRequests(core.calls)).toHaveLength(1))
    const [request] = printRequests(core.calls)
    expect(request).toMatchObject({ kind: 'view', query: { statuses: ['On leave'] } })
    expect(request?.columns).toContain('annualSalary')
    // Nothing to say once the dialog closed with everything printed.
    await waitFor(() => expect(screen.queryByText(/Preparing the page/)).toBeNull())

    // Ctrl+P is claimed from the browser's own print of the screen, and prints the same view.
    const event = new KeyboardEvent('keydown', { key: 'p', ctrlKey: true, bubbles: true, cancelable: true })
    window.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(true)
    await waitFor(() => expect(printRequests(core.calls)).toHaveLength(2))
    expect(printRequests(core.calls)[1]).toEqual(request)
    await waitFor(() => expect(screen.queryByText(/Preparing the page/)).toBeNull())
    // Ctrl+Shift+P is not the shortcut. A shortcut starts its print within the keystroke (the command bus and the
    // print's start are synchronous), so the page would be in preparation as soon as React has rendered.
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'P', ctrlKey: true, shiftKey: true }))
    })
    expect(screen.queryByText(/Preparing the page/)).toBeNull()
    expect(printRequests(core.calls)).toHaveLength(2)

    // File → Print… arrives as the menu's `app:command`, and prints the same view.
    act(() => events.emit('app:command', 'print'))
    await waitFor(() => expect(printRequests(core.calls)).toHaveLength(3))
    expect(printRequests(core.calls)[2]).toEqual(request)
  })

  it('says when only the first rows of a large view were printed', async () => {
    renderWithCore({ serviceEmployees: makeEmployees(5200), synced: true, signedIn: true })
    await screen.findByText('5,200 of 5,200 employees')
    fireEvent.click(screen.getByRole('button', { name: 'Print…' }))
    expect((await screen.findByText(/Printed the first 5,000 of 5,200 rows/)).textContent).toContain(
      'Narrow the view, or export it for all of them.',
    )
  })
})

describe('CSV note in the export bar', () => {
  it('warns that spreadsheets drop leading zeros from CSV and switches to Excel on request', async () => {
    await renderSynced()
    expect(screen.queryByRole('note')).toBeNull()
    const format = screen.getByLabelText('Export format') as HTMLSelectElement
    fireEvent.change(format, { target: { value: 'csv' } })
    const note = screen.getByRole('note')
    expect(note.textContent).toContain('Spreadsheet apps drop leading zeros from CSV files')
    fireEvent.click(within(note).getByRole('button', { name: 'Use Excel (.xlsx) instead' }))
    expect(format.value).toBe('xlsx')
    expect(screen.queryByRole('note')).toBeNull()
    // The clerk continues from the format choice, not from the top of the page.
    expect(document.activeElement).toBe(format)
  })
})

describe('money', () => {
  it('shows amounts in money fields with two decimals, other numbers as they are', () => {
    expect(formatValue(58234.5, 'annualSalary')).toBe('58,234.50')
    expect(formatValue(58234.5, 'hourlyRate')).toBe('58,234.50')
    expect(formatValue(58234.5)).toBe('58,234.5')
    expect(formatValue(37.5, 'weeklyHours')).toBe('37.5')
    expect(formatValue(12.5, 'taxRate')).toBe('12.5')
    expect(formatValue('58234.5', 'annualSalary')).toBe('58234.5')
  })

  it('shows the salary in the detail panel as 58,234.50', async () => {
    const [employee] = makeEmployees(1)
    const row: EmployeeRow = { ...employee, annualSalary: 58234.5 }
    const columns: ColumnInfo[] = [
      { key: 'annualSalary', label: 'Annual salary', kind: 'number', known: false },
      { key: 'employeeNumber', label: 'Employee number', kind: 'text', known: false },
    ]
    renderWithCore(
      { serviceEmployees: [row], synced: true, signedIn: true },
      <DetailPanel uuid={row['UUID'] as string} columns={columns} onClose={() => undefined} />,
    )
    const salary = await screen.findByText('Annual salary')
    expect(salary.nextElementSibling?.textContent).toBe('58,234.50')
    expect(screen.getByText('Employee number').nextElementSibling?.textContent).toBe('000001')
  })

  it('shows the salary in the table’s cells as 58,234.50, and a live look-up’s too', async () => {
    const [first, second] = makeEmployees(2)
    const saved: EmployeeRow = { ...first!, annualSalary: 58234.5 }
    const hired: EmployeeRow = { ...second!, UUID: fakeUuid(9_000), lastName: 'Okonkwo', annualSalary: 41000 }
    renderWithCore({ serviceEmployees: [saved], hiredSinceSync: [hired], synced: true, signedIn: true })
    await screen.findByText('1 of 1 employees')
    expect(screen.getByRole('columnheader', { name: /^Annual salary/ })).toBeTruthy()
    const cell = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[role="gridcell"][data-col="annualSalary"]')
      expect(found).not.toBeNull()
      return found!
    })
    expect(cell.textContent).toBe('58,234.50')

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), {
      target: { value: 'Okonkwo' },
    })
    // Waits by text, which jsdom answers quickly; the role queries below run once the screen has settled.
    fireEvent.click(await screen.findByText('Look up on the service', { selector: 'button' }))
    await screen.findByText(/^Found 1 employee for/)
    const live = screen.getByRole('table', { name: 'Employees found on the payroll service' })
    const headers = within(live)
      .getAllByRole('columnheader')
      .map((header) => header.textContent)
    const [, liveRow] = within(live).getAllByRole('row')
    expect(within(liveRow!).getAllByRole('cell')[headers.indexOf('Annual salary')]?.textContent).toBe(
      '41,000.00',
    )
  })
})
