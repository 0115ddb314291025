import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { formatMoney } from '../../src/shared/money'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests, type Rendered } from './render-app'

setUpAppTests()

const BEFORE = makeEmployees(150)

/** The service after a busy payroll day: two leavers, three joiners, and 130 employees moved to Suspended. */
function churned(): EmployeeRow[] {
  const joiners = makeEmployees(153).slice(150)
  const kept = BEFORE.filter((_, index) => index !== 3 && index !== 4).map((row, index) =>
    index >= 10 && index < 140
      ? { ...row, employeeStatus: row.employeeStatus === 'Suspended' ? 'Active' : 'Suspended' }
      : row,
  )
  return [...kept, ...joiners]
}

/** Renders a synced cache, changes the service and syncs again, as the clerk's next morning would. */
async function afterASecondSync(): Promise<Rendered> {
  const rendered = renderWithCore({ serviceEmployees: BEFORE, synced: true, signedIn: true })
  await screen.findByText('150 of 150 employees')
  rendered.core.setServiceEmployees(churned())
  fireEvent.click(screen.getByRole('button', { name: 'Sync' }))
  await screen.findByText('151 of 151 employees')
  return rendered
}

async function openReport(): Promise<HTMLElement> {
  const summary = screen.getByRole('button', {
    name: '3 added, 2 removed, 130 changed',
    description: 'Changes in the last sync of Demo (sample data). Opens the change report.',
  })
  // A click focuses a button in Chromium (not in jsdom): the dialog gives the focus back to it.
  summary.focus()
  fireEvent.click(summary)
  return screen.findByRole('dialog', { name: 'Change report' })
}

/** The report table's body rows. */
function tableRows(panel: HTMLElement): HTMLTableRowElement[] {
  return [...panel.querySelectorAll<HTMLTableRowElement>('tbody tr')]
}

/** The row whose number cell reads `number`. */
function rowWith(panel: HTMLElement, number: string): HTMLTableRowElement {
  const row = tableRows(panel).find((each) => each.cells[0]?.textContent === number)
  if (row === undefined) throw new Error(`No row for ${number}`)
  return row
}

function cells(row: HTMLTableRowElement): string[] {
  return [...row.cells].map((cell) => cell.textContent ?? '')
}

function headings(panel: HTMLElement): string[] {
  return [...panel.querySelectorAll('thead th')].map((cell) => cell.textContent ?? '')
}

describe('the change report', () => {
  it('shows the last sync’s counts in the sync bar, and opens on its first list with each entry’s facts', async () => {
    const { core } = await afterASecondSync()
    const summary = screen.getByRole('button', { name: '3 added, 2 removed, 130 changed' })
    expect(summary.textContent).toBe('3 added, 2 removed, 130 changed')

    const dialog = await openReport()
    const sync = within(dialog).getByLabelText('Sync') as HTMLSelectElement
    expect([...sync.options].map((option) => option.textContent)).toEqual([
      expect.stringMatching(/\(latest\): 3 added, 2 removed, 130 changed$/),
      expect.stringMatching(/: first sync: 150 employees$/),
    ])
    expect(
      within(dialog).getByText(/^Demo · tenant tenant-demo · 151 employees after the sync$/),
    ).toBeTruthy()
    const added = within(dialog).getByRole('tab', { name: 'Added (3)' })
    expect(added.getAttribute('aria-selected')).toBe('true')
    const panel = within(dialog).getByRole('tabpanel')
    await waitFor(() => expect(tableRows(panel)).toHaveLength(3))
    expect(headings(panel)).toEqual(['Number', 'Name ▲', 'Status', 'Pay cycle'])
    // A line per joiner: number, name (the button that opens them), status and pay cycle, in name order.
    const joiner = makeEmployees(151)[150]!
    const row = rowWith(panel, String(joiner.employeeNumber))
    expect(cells(row)).toEqual([
      String(joiner.employeeNumber),
      `${String(joiner.firstName)} ${String(joiner.lastName)}`,
      String(joiner.employeeStatus),
      String(joiner.payCycleId),
    ])
    expect(within(row).getByRole('button').textContent).toBe(
      `${String(joiner.firstName)} ${String(joiner.lastName)}`,
    )
    expect(core.calls.filter((call) => call.channel === 'changes:list').map((call) => call.args)).toEqual([
      [2, 'added', 0, 100, { sort: { column: 'name', order: 'asc' } }],
    ])
  })

  it('isolates each part of an entry’s name, so an override in the first name cannot reorder the last', async () => {
    const rendered = renderWithCore({ serviceEmployees: BEFORE, synced: true, signedIn: true })
    await screen.findByText('150 of 150 employees')
    const joiner: EmployeeRow = { ...makeEmployees(151)[150]!, firstName: '\u202eAmira', lastName: 'Haddad' }
    rendered.core.setServiceEmployees([...BEFORE, joiner])
    fireEvent.click(screen.getByRole('button', { name: 'Sync' }))
    await screen.findByText('151 of 151 employees')
    fireEvent.click(screen.getByRole('button', { name: '1 added, 0 removed, 0 changed' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change report' })
    const panel = within(dialog).getByRole('tabpanel')
    await waitFor(() => expect(tableRows(panel)).toHaveLength(1))
    const name = rowWith(panel, String(joiner.employeeNumber)).querySelector('.change-entry')
    expect([...(name?.querySelectorAll('bdi') ?? [])].map((part) => part.textContent)).toEqual([
      '\u202eAmira',
      'Haddad',
    ])
    expect(name?.textContent).toBe('\u202eAmira Haddad')
  })

  it('opens a removed employee from the last row it held, marked with the sync that removed them', async () => {
    const { core } = await afterASecondSync()
    const dialog = await openReport()
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Removed (2)' }))
    const panel = within(dialog).getByRole('tabpanel')
    await waitFor(() => expect(tableRows(panel)).toHaveLength(2))
    const leaver = BEFORE[3]!
    fireEvent.click(within(rowWith(panel, String(leaver.employeeNumber))).getByRole('button'))

    const details = within(dialog).getByRole('complementary')
    expect(within(details).getByRole('note').textContent).toMatch(
      /^Removed in the sync of \w{3} \d+\/\d+, \d\d:\d\d [AP]M\./,
    )
    expect(
      within(details).getByRole('heading', { name: `${leaver.firstName} ${leaver.lastName}` }),
    ).toBeTruthy()
    expect(within(details).getByText(String(leaver.email))).toBeTruthy()
    // Shown from the change report: the saved employees no longer hold them, and were not asked.
    expect(core.calls.some((call) => call.channel === 'employees:get')).toBe(false)
  })

  it('lists each changed field from what to what, a window at a time, and opens the employee as saved now', async () => {
    const { core } = await afterASecondSync()
    const dialog = await openReport()
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Changed (130)' }))
    const panel = within(dialog).getByRole('tabpanel')
    // Counted by attribute, not getAllByRole: computing 130 accessible names on every waitFor poll takes
    // seconds in jsdom on a busy machine, and the roles themselves are held by the axe walk in Chromium.
    const entries = (): HTMLButtonElement[] => [
      ...panel.querySelectorAll<HTMLButtonElement>('button[aria-pressed="false"]'),
    ]
    await waitFor(() => expect(entries()).toHaveLength(100))
    // By its text, then held to being a button: a role query would name all 100 entries again first.
    const more = within(panel).getByText('Show 30 more')
    expect(more.tagName).toBe('BUTTON')
    fireEvent.click(more)
    await waitFor(() => expect(entries()).toHaveLength(130))

    const moved = churned().find((row) => row.UUID === BEFORE[12]!.UUID)!
    const row = rowWith(panel, String(moved.employeeNumber))
    expect(row.textContent).toContain(
      `Status: ${String(BEFORE[12]!.employeeStatus)} → ${String(moved.employeeStatus)}`,
    )
    const entry = row.querySelector<HTMLButtonElement>('button.change-entry')!
    fireEvent.click(entry)
    expect(entry.getAttribute('aria-pressed')).toBe('true')
    const details = within(dialog).getByRole('complementary')
    await within(details).findByText(String(moved.employeeStatus))
    expect(within(details).queryByRole('note')).toBeNull()
    // The employee as saved now, then their manager, whom the panel names.
    await waitFor(() =>
      expect(core.calls.filter((call) => call.channel === 'employees:get').map((call) => call.args)).toEqual([
        [moved.UUID],
        [moved.managerUUID],
      ]),
    )
  })

  it('shows a changed salary as money, by the rule the table and the export use', async () => {
    const rendered = renderWithCore({ serviceEmployees: BEFORE, synced: true, signedIn: true })
    await screen.findByText('150 of 150 employees')
    const raised: EmployeeRow = { ...BEFORE[7]!, annualSalary: 61_000.5 }
    rendered.core.setServiceEmployees(BEFORE.map((row, index) => (index === 7 ? raised : row)))
    fireEvent.click(screen.getByRole('button', { name: 'Sync' }))
    fireEvent.click(await screen.findByRole('button', { name: '0 added, 0 removed, 1 changed' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change report' })
    const panel = within(dialog).getByRole('tabpanel')
    await waitFor(() => expect(tableRows(panel)).toHaveLength(1))
    const before = formatMoney(BEFORE[7]!.annualSalary as number)
    expect(before).toMatch(/^\d{2},\d{3}\.00$/)
    expect(rowWith(panel, String(raised.employeeNumber)).textContent).toContain(
      `Annual salary: ${before} → 61,000.50`,
    )
  })

  it('sorts by a column heading, again the other way, and finds by name or number within the list', async () => {
    const { core } = await afterASecondSync()
    const dialog = await openReport()
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Changed (130)' }))
    const panel = within(dialog).getByRole('tabpanel')
    await waitFor(() => expect(tableRows(panel)).toHaveLength(100))
    expect(headings(panel)).toEqual([
      'Number',
      'Name ▲',
      'Status',
      'Pay cycle',
      'Changed fields: before → after',
    ])
    const numberHeading = within(panel).getByRole('columnheader', { name: /Number/ })
    fireEvent.click(within(numberHeading).getByRole('button'))
    await waitFor(() => expect(numberHeading.getAttribute('aria-sort')).toBe('ascending'))
    fireEvent.click(within(numberHeading).getByRole('button'))
    await waitFor(() => expect(numberHeading.getAttribute('aria-sort')).toBe('descending'))
    await waitFor(() => {
      const numbers = tableRows(panel).map((row) => row.cells[0]?.textContent ?? '')
      expect(numbers).toHaveLength(100)
      expect(numbers).toEqual([...numbers].sort().reverse())
    })
    expect(core.calls.at(-1)?.args).toEqual([
      2,
      'changed',
      0,
      100,
      { sort: { column: 'number', order: 'desc' } },
    ])

    // By number: the one employee, and how many of the list were found.
    const moved = churned().find((row) => row.UUID === BEFORE[12]!.UUID)!
    const search = within(dialog).getByRole('searchbox', { name: 'Find in this list' })
    fireEvent.change(search, { target: { value: String(moved.employeeNumber) } })
    await waitFor(() =>
      expect(tableRows(panel).map((row) => row.cells[0]?.textContent)).toEqual([
        String(moved.employeeNumber),
      ]),
    )
    expect(within(panel).getByRole('status').textContent).toBe('1 of 130 employees found')
    // By a name's start, in another case: everyone listed has a name word starting so.
    const start = String(moved.lastName).slice(0, 2)
    fireEvent.change(search, { target: { value: start.toUpperCase() } })
    await waitFor(() =>
      expect(within(panel).getByRole('status').textContent).toMatch(/ of 130 employees found$/),
    )
    const names = tableRows(panel).map((row) => (row.cells[1]?.textContent ?? '').toLowerCase())
    expect(names.length).toBeGreaterThan(0)
    expect(
      names.every((name) => name.split(/[\s-]+/).some((word) => word.startsWith(start.toLowerCase()))),
    ).toBe(true)
    fireEvent.change(search, { target: { value: 'zzzz' } })
    expect(await within(panel).findByText('Nobody changed in this sync matches “zzzz”.')).toBeTruthy()
  })

  it('offers the CSV note of the export bar when CSV is chosen, and its button goes back to Excel', async () => {
    await afterASecondSync()
    const dialog = await openReport()
    expect(within(dialog).queryByRole('note')).toBeNull()
    const format = within(dialog).getByLabelText<HTMLSelectElement>('Export format')
    fireEvent.change(format, { target: { value: 'csv' } })
    const note = within(dialog).getByRole('note')
    expect(note.textContent).toMatch(/^Spreadsheet apps drop leading zeros from CSV files/)
    fireEvent.click(within(note).getByRole('button', { name: 'Use Excel (.xlsx) instead' }))
    expect(format.value).toBe('xlsx')
    expect(document.activeElement).toBe(format)
    expect(within(dialog).queryByRole('note')).toBeNull()
  })

  it('exports a sync’s changes in the chosen format, and says a first sync has none to list', async () => {
    const { core } = await afterASecondSync()
    const dialog = await openReport()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export changes…' }))
    // The counts are the export's own: 3 added and 2 removed take a row each, 130 changed take the other 130 rows.
    expect((await within(dialog).findByText(/^Exported 135 rows/)).textContent).toMatch(
      /^Exported 135 rows to Changes [\d-]+\.xlsx:$/,
    )
    const kinds = within(dialog).getByRole('list', { name: 'Rows exported by kind of change' })
    expect(
      within(kinds)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '3 added employees',
      '2 removed employees',
      '130 changed employees: 130 rows, one per changed field',
    ])
    fireEvent.change(within(dialog).getByLabelText('Export format'), { target: { value: 'csv' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export changes…' }))
    await waitFor(() =>
      expect(core.calls.filter((call) => call.channel === 'changes:export').map((call) => call.args)).toEqual(
        [[{ runId: 2, format: 'xlsx' }], [{ runId: 2, format: 'csv' }]],
      ),
    )

    fireEvent.change(within(dialog).getByLabelText('Sync'), { target: { value: '1' } })
    expect(within(dialog).getByText(/^First sync: 150 employees\. From the next sync on/)).toBeTruthy()
    expect(within(dialog).queryByRole('tablist')).toBeNull()
    expect(
      (within(dialog).getByRole('button', { name: 'Export changes…' }) as HTMLButtonElement).disabled,
    ).toBe(true)

    // Escape closes it and gives the focus back to the summary that opened it.
    act(() => {
      fireEvent.keyDown(dialog, { key: 'Escape' })
    })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: '3 added, 2 removed, 130 changed' }),
    )
  })
})
