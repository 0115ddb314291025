import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { fakeUuid, makeEmployees } from '../helpers/fake/fake-employees'
import type { FakeCore } from '../helpers/fake/fake-core'
import { giveGridAViewport, renderWithCore } from './render-app'

/**
 * "Look up on the service" in the browse view, against the fake core, whose service lookup follows the app's
 * own rules (shared/service-lookup.ts) over the fake's service employees, some hired since its last sync.
 */

let restoreLayout: () => void
beforeAll(() => (restoreLayout = giveGridAViewport()))
afterAll(() => restoreLayout())
afterEach(() => {
  cleanup()
  localStorage.clear()
  setOnline(true)
})

function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online })
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'))
  })
}

const SAVED = makeEmployees(200)
/** Hired this morning: on the service, not in the saved employees. */
const HIRED: EmployeeRow = {
  ...SAVED[0]!,
  UUID: fakeUuid(9_000),
  firstName: 'Adaeze',
  lastName: 'Okonkwo',
  employeeStatus: 'Pending',
  employeeNumber: '009001',
}
/** Hired too, with a last name some saved employees share. */
const KOWALSKI: EmployeeRow = {
  ...HIRED,
  UUID: fakeUuid(9_001),
  firstName: 'Ines',
  lastName: 'Kowalski',
  employeeNumber: '009002',
}

async function renderBrowse(options: { signedIn?: boolean } = {}) {
  const rendered = renderWithCore({
    serviceEmployees: SAVED,
    hiredSinceSync: [HIRED, KOWALSKI],
    synced: true,
    signedIn: options.signedIn ?? true,
  })
  await screen.findByText('200 of 200 employees')
  return rendered
}

/** Types into the search box and waits until the table shows the saved employees' answer for that text. */
async function search(core: FakeCore, text: string): Promise<void> {
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), { target: { value: text } })
  const asked = (): boolean =>
    core.calls.some(
      (call) => call.channel === 'employees:query' && (call.args[0] as { text?: string }).text === text,
    )
  await waitFor(() => expect(asked()).toBe(true))
  await waitFor(() => expect(screen.getByText(/ of 200 employees/).textContent).not.toMatch(/updating/))
}

const lookUpButton = (): HTMLButtonElement => screen.getByRole('button', { name: 'Look up on the service' })

describe('looking someone up on the payroll service', () => {
  it('offers it when the saved employees have nobody, and shows the hire marked live and not saved', async () => {
    const { core } = await renderBrowse()
    expect(screen.queryByRole('button', { name: 'Look up on the service' })).toBeNull()
    await search(core, 'Okonkwo')
    expect(await screen.findByText('No matches')).toBeTruthy()
    expect(
      screen.getByText(
        'Not in your saved employees. Hired since the last sync? Search the payroll service for “Okonkwo” in last name and first name.',
      ),
    ).toBeTruthy()
    expect(lookUpButton().className).toBe('primary')

    fireEvent.click(lookUpButton())
    const live = await screen.findByRole('region', {
      name: 'From the service just now — not in your saved employees until the next sync',
    })
    expect(within(live).getByText('Found 1 employee for “Okonkwo” in last name or first name.')).toBeTruthy()
    const table = within(live).getByRole('table', { name: 'Employees found on the payroll service' })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(2)
    expect(within(rows[1]!).getByText('Not saved yet')).toBeTruthy()
    expect(within(rows[1]!).getByText('Adaeze')).toBeTruthy()
    expect(within(rows[1]!).getByText('Pending')).toBeTruthy()
    expect(core.calls.filter((call) => call.channel === 'employees:lookup-service')).toEqual([
      { channel: 'employees:lookup-service', args: [{ text: 'Okonkwo' }] },
    ])
    // The saved employees are unchanged: the live row is not one of them.
    expect(screen.getByText('0 of 200 employees')).toBeTruthy()
  })

  it('can be asked on demand, and tells saved employees from the one that is not', async () => {
    const { core } = await renderBrowse()
    await search(core, 'Kowalski')
    const local = Number((screen.getByText(/ of 200 employees/).textContent ?? '').split(' of ')[0])
    expect(local).toBeGreaterThan(0)
    expect(screen.getByText(/^Someone missing\?/)).toBeTruthy()
    expect(lookUpButton().className).toBe('')

    fireEvent.click(lookUpButton())
    const live = await screen.findByRole('region', { name: /^From the service just now — 1 of \d+ not in/ })
    const body = within(live).getAllByRole('row').slice(1)
    expect(body).toHaveLength(local + 1)
    expect(body.filter((row) => within(row).queryByText('Not saved yet') !== null)).toHaveLength(1)
    expect(body.filter((row) => within(row).queryByText('Also saved') !== null)).toHaveLength(local)
  })

  it('shows one page per column searched, and says when the service has more', async () => {
    const { core } = await renderBrowse()
    await search(core, 'Smith')
    fireEvent.click(lookUpButton())
    const live = await screen.findByRole('region', { name: /^From the service just now/ })
    const smiths = SAVED.filter((row) => String(row.lastName).startsWith('Smith')).length
    expect(smiths).toBeGreaterThan(25)
    expect(within(live).getAllByRole('row')).toHaveLength(26)
    expect(
      within(live).getByText(
        `Showing the first 25 of ${smiths} matches in last name: type more to narrow it down.`,
      ),
    ).toBeTruthy()
  })

  it('asks in the column chosen in "Search in", in the table’s order, and says so', async () => {
    const { core } = await renderBrowse()
    const lastName = screen.getByRole('columnheader', { name: /^Last name/ })
    fireEvent.click(within(lastName).getByRole('button'))
    await waitFor(() => expect(lastName.getAttribute('aria-sort')).toBe('ascending'))
    fireEvent.change(screen.getByRole('combobox', { name: 'Search in' }), {
      target: { value: 'employeeNumber' },
    })
    await search(core, '009001')
    expect(screen.getByText(/Search the payroll service for “009001” in employee number\./)).toBeTruthy()
    fireEvent.click(lookUpButton())
    await screen.findByText('Found 1 employee for “009001” in employee number.')
    expect(core.calls.find((call) => call.channel === 'employees:lookup-service')?.args).toEqual([
      { text: '009001', column: 'employeeNumber', sort: { column: 'lastName', order: 'asc' } },
    ])
  })

  it('finds a full name typed either way round, and says nobody only after both orders', async () => {
    const { core } = await renderBrowse()
    await search(core, 'Okonkwo Adaeze')
    expect(
      screen.getByText(
        /Search the payroll service for “Okonkwo Adaeze” in last name and first name, and as a last and a first name either way round\.$/,
      ),
    ).toBeTruthy()
    fireEvent.click(lookUpButton())
    expect(
      await screen.findByText(
        'Found 1 employee for “Okonkwo Adaeze” with last name “Okonkwo” and first name “Adaeze”.',
      ),
    ).toBeTruthy()
    await search(core, 'Adaeze Kowalski')
    fireEvent.click(lookUpButton())
    expect(
      await screen.findByText(
        'The payroll service has nobody matching “Adaeze Kowalski” in last name or first name, nor as a last and a first name either way round.',
      ),
    ).toBeTruthy()
    expect(screen.getByText('Check the spelling, or look up the last name alone.')).toBeTruthy()
  })

  it('drops an answer once the search changes, and hides it on request', async () => {
    const { core } = await renderBrowse()
    await search(core, 'Okonkwo')
    fireEvent.click(lookUpButton())
    await screen.findByRole('table', { name: 'Employees found on the payroll service' })
    await search(core, 'Okonkw')
    expect(screen.queryByRole('table', { name: 'Employees found on the payroll service' })).toBeNull()
    fireEvent.click(lookUpButton())
    const live = await screen.findByRole('region', { name: /^From the service/ })
    fireEvent.click(within(live).getByRole('button', { name: 'Hide' }))
    expect(screen.queryByRole('region', { name: /^From the service/ })).toBeNull()
    expect(lookUpButton()).toBeTruthy()
  })

  it('shows a failure plainly, and tries again', async () => {
    const { core } = await renderBrowse()
    core.setSyncFailure({ code: 'network', message: 'RosterDesk could not reach the payroll service.' })
    await search(core, 'Okonkwo')
    fireEvent.click(lookUpButton())
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('RosterDesk could not reach the payroll service.')
    core.setSyncFailure(undefined)
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('table', { name: 'Employees found on the payroll service' })).toBeTruthy()
  })

  it('needs a connection and a signed-in clerk, and says which is missing', async () => {
    const { core } = await renderBrowse({ signedIn: false })
    await search(core, 'Okonkwo')
    expect(lookUpButton().disabled).toBe(true)
    expect(screen.getByText(/^Sign in to look up on the service\./)).toBeTruthy()
    setOnline(false)
    expect(lookUpButton().disabled).toBe(true)
    expect(screen.getByText('You are offline: looking up on the service needs a connection.')).toBeTruthy()
  })
})

describe('the active-employees-only setting', () => {
  it('is a checkbox in the Sync settings, off by default, saved as the sync scope', async () => {
    const { core } = renderWithCore({ serviceEmployees: [] })
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
    const box = await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Sync active employees only' })
    expect(box.checked).toBe(false)
    expect(box.getAttribute('aria-describedby')).toBeTruthy()
    fireEvent.click(box)
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(core.calls.find((call) => call.channel === 'settings:update')?.args).toEqual([
      { syncScope: 'active' },
    ])
    expect(
      (screen.getByRole('checkbox', { name: 'Sync active employees only' }) as HTMLInputElement).checked,
    ).toBe(true)
  })
})
