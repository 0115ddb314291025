import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ExportRequest } from '../../src/shared/domain'
import { makeEmployees } from './fake/fake-employees'
import { giveGridAViewport, renderWithCore } from './render-app'

let restoreLayout: () => void
beforeAll(() => (restoreLayout = giveGridAViewport()))
afterAll(() => restoreLayout())
afterEach(() => {
  cleanup()
  localStorage.clear()
})

async function renderSynced() {
  const rendered = renderWithCore({
    serviceEmployees: makeEmployees(700),
    synced: true,
    signedIn: true,
    settings: { trackedPayCycles: ['PC-2026-11-A', 'PC-MONTHLY'] },
  })
  await screen.findByText('700 of 700 employees')
  return rendered
}

function exportRequests(calls: { channel: string; args: unknown[] }[]): ExportRequest[] {
  return calls.filter((call) => call.channel === 'export:start').map((call) => call.args[0] as ExportRequest)
}

describe('exports', () => {
  it('exports the current view: its filters and sort, and the visible columns in order', async () => {
    const { core } = await renderSynced()
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', { name: /On leave/ }),
    )
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Last name' })).getByRole('button'))
    await waitFor(() =>
      expect(screen.getByText(/ of 700 employees/).textContent).toBe('100 of 700 employees'),
    )

    fireEvent.click(screen.getByRole('button', { name: 'Export 100 rows…' }))
    const status = await screen.findByText(/Exported 100 rows to/)
    expect(status.textContent).toBe('Exported 100 rows to employees.xlsx.')
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers[0]).toBe('Last name▲')
    expect(exportRequests(core.calls)).toEqual([
      {
        kind: 'view',
        query: { statuses: ['On leave'], sort: { column: 'lastName', order: 'asc' } },
        columns: [
          'lastName',
          'firstName',
          'employeeStatus',
          'employeeNumber',
          'email',
          'department',
          'hireDate',
          'annualSalary',
        ],
        format: 'xlsx',
      },
    ])

    fireEvent.click(screen.getByRole('button', { name: 'Show in folder' }))
    await waitFor(() => expect(core.calls.at(-1)?.channel).toBe('export:show-in-folder'))
  })

  it('offers a roster export per tracked pay cycle, in the chosen format', async () => {
    const { core } = await renderSynced()
    fireEvent.change(screen.getByLabelText('Export format'), { target: { value: 'csv' } })
    fireEvent.click(screen.getByRole('button', { name: 'Export roster PC-MONTHLY…' }))
    expect((await screen.findByText(/Exported \d+ rows? to/)).textContent).toBe(
      'Exported 175 rows to roster-PC-MONTHLY.csv.',
    )
    expect(exportRequests(core.calls)[0]).toMatchObject({
      kind: 'roster',
      payCycleId: 'PC-MONTHLY',
      format: 'csv',
    })
    expect(screen.getByRole('button', { name: 'Export roster PC-2026-11-A…' })).toBeTruthy()
  })

  it('shows progress with a Cancel button while the file is written, and a cancelled export', async () => {
    const { core, events } = await renderSynced()
    let finish: (() => void) | undefined
    core.handlers['export:start'] = () =>
      new Promise((resolve) => {
        events.emit('export:progress', { rowsWritten: 300, rowsTotal: 700 })
        finish = () => resolve({ status: 'cancelled' })
      })
    fireEvent.click(screen.getByRole('button', { name: 'Export 700 rows…' }))
    expect(await screen.findByText('300 of 700 rows')).toBeTruthy()
    const bar = screen.getByRole('progressbar', { name: 'Export progress' })
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['300', '700'])
    expect(screen.getByRole('button', { name: 'Export 700 rows…' })).toHaveProperty('disabled', true)
    fireEvent.click(screen.getByRole('button', { name: 'Cancel export' }))
    await waitFor(() => expect(core.calls.at(-1)?.channel).toBe('export:cancel'))
    finish!()
    expect(await screen.findByText('Export cancelled.')).toBeTruthy()
  })
})
