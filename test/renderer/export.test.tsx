import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExportRequest } from '../../src/shared/domain/export'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { expectRosterSummary, renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

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
      expect(screen.getByText(/ of 700 employees/).textContent).toBe(
        '100 of 700 employees from Demo (sample data)',
      ),
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
          'payCycleId',
          'annualSalary',
          'department',
          'hireDate',
        ],
        format: 'xlsx',
      },
    ])

    fireEvent.click(screen.getByRole('button', { name: 'Show in folder' }))
    await waitFor(() => expect(core.calls.at(-1)?.channel).toBe('export:show-in-folder'))
  })

  it('exports a roster chosen from the pay cycles in the data, applying the screen’s status filter if asked', async () => {
    const { core } = await renderSynced()
    fireEvent.change(screen.getByLabelText('Export format'), { target: { value: 'csv' } })
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', { name: /On leave/ }),
    )
    const opener = screen.getByRole('button', { name: 'Export roster…' })
    // A click focuses a button in Chromium (not in jsdom): the dialog gives the focus back to it.
    opener.focus()
    fireEvent.click(opener)
    const dialog = await screen.findByRole('dialog', { name: 'Export a pay-cycle roster' })
    const select = await within(dialog).findByLabelText('Pay cycle')
    // Pay cycles come from the data with their sizes; the tracked ones first, in Settings' order. None is ticked on
    // screen, so none is chosen: nothing can be exported until the clerk picks one.
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual([
        'Choose a pay cycle…',
        'PC-2026-11-A (175 employees), tracked',
        'PC-MONTHLY (175 employees), tracked',
        'PC-2026-11-B (175 employees)',
        'PC-2026-12-A (175 employees)',
      ]),
    )
    expect(
      within(dialog).getByText('No pay cycle is ticked on screen. Choose the roster’s pay cycle above.'),
    ).toBeTruthy()
    expect(within(dialog).getByText('Nothing will be written until a pay cycle is chosen.')).toBeTruthy()
    expect(within(dialog).getByRole('button', { name: 'Export…' })).toHaveProperty('disabled', true)
    fireEvent.change(select, { target: { value: 'PC-MONTHLY' } })
    // The on-screen status filter applies by default, and the dialog says what the file will hold.
    const applies = within(dialog).getByRole('checkbox', {
      name: /Only the statuses filtered on screen: On leave/,
    })
    expect(applies).toHaveProperty('checked', true)
    await expectRosterSummary(
      dialog,
      'The roster will hold 25 employees: pay cycle PC-MONTHLY, status On leave.',
    )
    fireEvent.click(applies)
    await expectRosterSummary(
      dialog,
      'The roster will hold 175 employees: pay cycle PC-MONTHLY, every status.',
    )
    expect(
      within(dialog).getByText(
        /The status filter on screen is not applied: employees of every status are included/,
      ),
    ).toBeTruthy()
    fireEvent.click(applies)
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Export 25 rows…' }))

    expect((await screen.findByText(/Exported \d+ rows? to/)).textContent).toBe(
      'Exported 25 rows to roster-PC-MONTHLY.csv.',
    )
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Export roster…' }))
    expect(exportRequests(core.calls)).toEqual([
      expect.objectContaining({
        kind: 'roster',
        payCycleId: 'PC-MONTHLY',
        statuses: ['On leave'],
        format: 'csv',
      }),
    ])
  })

  it('starts from the one pay cycle ticked on screen, and says in one line what it will write', async () => {
    const { core } = await renderSynced()
    const cycles = screen.getByRole('group', { name: 'Pay cycle' })
    fireEvent.click(within(cycles).getByRole('checkbox', { name: /PC-MONTHLY/ }))
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', { name: /On leave/ }),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Export roster…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Export a pay-cycle roster' })
    const select = await within(dialog).findByLabelText<HTMLSelectElement>('Pay cycle')
    await waitFor(() => expect(select.value).toBe('PC-MONTHLY'))
    // The ticked one first and marked; no "Choose…" entry, as one is chosen.
    expect(select.options[0]?.textContent).toBe('PC-MONTHLY (175 employees), ticked on screen, tracked')
    const summary = await expectRosterSummary(
      dialog,
      'The roster will hold 25 employees: pay cycle PC-MONTHLY, status On leave.',
    )
    // Each identifier is kept whole on its line.
    expect([...summary.querySelectorAll('.identifier')].map((part) => part.textContent)).toEqual([
      'PC-MONTHLY',
      'On leave',
    ])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export 25 rows…' }))
    await screen.findByText(/Exported 25 rows to/)
    expect(exportRequests(core.calls)).toEqual([
      expect.objectContaining({ kind: 'roster', payCycleId: 'PC-MONTHLY', statuses: ['On leave'] }),
    ])
  })

  it('chooses no pay cycle when several are ticked: the clerk picks among them, each with its count', async () => {
    const { core } = await renderSynced()
    const cycles = screen.getByRole('group', { name: 'Pay cycle' })
    fireEvent.click(within(cycles).getByRole('checkbox', { name: /PC-2026-12-A/ }))
    fireEvent.click(within(cycles).getByRole('checkbox', { name: /PC-2026-11-B/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Export roster…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Export a pay-cycle roster' })
    const select = await within(dialog).findByLabelText<HTMLSelectElement>('Pay cycle')
    await waitFor(() =>
      expect([...select.options].map((option) => option.textContent)).toEqual([
        'Choose a pay cycle…',
        'PC-2026-12-A (175 employees), ticked on screen',
        'PC-2026-11-B (175 employees), ticked on screen',
        'PC-2026-11-A (175 employees), tracked',
        'PC-MONTHLY (175 employees), tracked',
      ]),
    )
    expect(select.value).toBe('')
    expect(
      within(dialog).getByText('2 pay cycles are ticked on screen; a roster holds one. Choose it above.'),
    ).toBeTruthy()
    expect(within(dialog).getByRole('button', { name: 'Export…' })).toHaveProperty('disabled', true)
    fireEvent.change(select, { target: { value: 'PC-2026-11-B' } })
    await expectRosterSummary(
      dialog,
      'The roster will hold 175 employees: pay cycle PC-2026-11-B, every status.',
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export 175 rows…' }))
    await screen.findByText(/Exported 175 rows to/)
    expect(exportRequests(core.calls)).toEqual([
      expect.objectContaining({ kind: 'roster', payCycleId: 'PC-2026-11-B' }),
    ])
  })

  it('warns that a roster is empty and will not export it', async () => {
    renderWithCore({ serviceEmployees: makeEmployees(5), synced: true, signedIn: true })
    await screen.findByText('5 of 5 employees')
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', { name: /Suspended/ }),
    )
    const opener = screen.getByRole('button', { name: 'Export roster…' })
    // A click focuses a button in Chromium (not in jsdom): the dialog gives the focus back to it.
    opener.focus()
    fireEvent.click(opener)
    const dialog = await screen.findByRole('dialog', { name: 'Export a pay-cycle roster' })
    fireEvent.change(await within(dialog).findByLabelText('Pay cycle'), { target: { value: 'PC-2026-11-B' } })
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This roster is empty: no saved employee matches. Choose another pay cycle or status.',
    )
    expect(within(dialog).getByRole('button', { name: 'Export…' })).toHaveProperty('disabled', true)
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
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
