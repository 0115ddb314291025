import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { FakeCore } from '../helpers/fake/fake-core'
import { fakeUuid, makeEmployees } from '../helpers/fake/fake-employees'
import { bodyRows, renderWithCore, setUpAppTests } from './render-app'

/**
 * Issue 24, point 6 and the detail panel, manage-profiles and Settings items of point 7, over the fake core: signing
 * in again and being offline never hide the saved employees, a lost sign-in is said once, and the look-up on the
 * service is off, with its reason, whenever the window says Offline.
 */

setUpAppTests()
afterEach(() => setOnline(true))

function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online })
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'))
  })
}

const SAVED = makeEmployees(40)
/** The employee detail panel, once open (the filter panel is a complementary region too). */
async function detailPanel(): Promise<HTMLElement> {
  const close = await screen.findByRole('button', { name: 'Close details' })
  return close.closest('aside')!
}

const lookUpButton = (): HTMLButtonElement => screen.getByRole('button', { name: 'Look up on the service' })

/** Types into the search box and waits until the table has answered that text. */
async function search(core: FakeCore, text: string): Promise<void> {
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), { target: { value: text } })
  await waitFor(() =>
    expect(
      core.calls.some(
        (call) => call.channel === 'employees:query' && (call.args[0] as { text?: string }).text === text,
      ),
    ).toBe(true),
  )
  await waitFor(() => expect(screen.getByText(/ of 40 employees/).textContent).not.toMatch(/updating/))
}

describe('signing in again with employees saved', () => {
  it('shows the waiting card above the rows, which stay visible, searchable and clickable', async () => {
    const { core } = renderWithCore({ serviceEmployees: SAVED, synced: true, manualSignIn: true })
    await screen.findByText('40 of 40 employees')
    const bar = screen.getByRole('region', { name: 'Sync' })
    fireEvent.click(within(bar).getByRole('button', { name: 'Sign in to sync' }))

    const card = await screen.findByRole('region', { name: 'Signing in' })
    expect(within(card).getByRole('status').textContent).toContain(
      'Waiting for you to approve RosterDesk in your browser…',
    )
    // The card's Cancel is the one sign-in button while it waits.
    expect(within(bar).queryByRole('button', { name: 'Sign in to sync' })).toBeNull()
    // The rows are on screen and usable meanwhile: a click opens an employee, a search narrows the list.
    expect(bodyRows().length).toBeGreaterThan(10)
    fireEvent.click(bodyRows()[0]!.querySelector('[role="gridcell"]')!)
    const panel = await detailPanel()
    await within(panel).findByRole('heading', { name: 'Pay cycle' })
    await search(core, SAVED[3]!.employeeNumber as string)
    expect(screen.getByText('1 of 40 employees')).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Signing in' })).toBeTruthy()

    core.approveSignIn()
    await within(bar).findByRole('button', { name: 'Sync' })
    expect(screen.queryByRole('region', { name: 'Signing in' })).toBeNull()
  })

  it('cancels from the card, and the employees were never away', async () => {
    renderWithCore({ serviceEmployees: SAVED, synced: true, manualSignIn: true })
    await screen.findByText('40 of 40 employees')
    fireEvent.click(screen.getByRole('button', { name: 'Sign in to sync' }))
    const card = await screen.findByRole('region', { name: 'Signing in' })
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel' }))
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Sign-in was cancelled.')
    expect(screen.queryByRole('region', { name: 'Signing in' })).toBeNull()
    expect(screen.getByText('40 of 40 employees')).toBeTruthy()
  })
})

describe('a lost sign-in', () => {
  it('is one message, although the session ended and a sync then found no sign-in', async () => {
    const expired = 'Your sign-in has expired. Sign in again to continue.'
    const { core } = renderWithCore({ serviceEmployees: SAVED, synced: true, signedIn: true })
    core.setSyncFailure({ code: 'not-signed-in', message: 'You are not signed in. Sign in to continue.' })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    await screen.findByText('You are not signed in. Sign in to continue.')
    act(() => core.expireSignIn(expired))
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([expired]),
    )
    expect(screen.queryByText(/You are not signed in/)).toBeNull()
  })
})

describe('looking up on the service while offline', () => {
  it('is off, with its reason, when the last sync could not reach the service though the network is up', async () => {
    const { core } = renderWithCore({
      serviceEmployees: SAVED,
      synced: true,
      signedIn: true,
      syncFailure: { code: 'connection-refused', message: 'The payroll service refused the connection.' },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    await screen.findByText('The payroll service refused the connection.')
    // The service did not answer: that is said, not "Offline".
    expect(screen.queryByText(/Offline/)).toBeNull()
    await search(core, 'Nobody-by-this-name')
    const button = lookUpButton()
    expect(button.disabled).toBe(true)
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '')
    expect(reason?.textContent).toBe(
      'The payroll service did not answer the last sync: sync again once it is back, then look up.',
    )
    expect(core.calls.map((call) => call.channel)).not.toContain('employees:lookup-service')
  })

  it('drops a failed look-up’s error at the first keystroke, and does not bring it back', async () => {
    const failure = 'RosterDesk could not reach the payroll service.'
    const { core } = renderWithCore({
      serviceEmployees: SAVED,
      hiredSinceSync: [{ ...SAVED[0]!, UUID: fakeUuid(900), lastName: 'Okonkwo' }],
      synced: true,
      signedIn: true,
    })
    await screen.findByText('40 of 40 employees')
    await search(core, 'Okonkwo')
    core.setSyncFailure({ code: 'service', message: failure })
    fireEvent.click(lookUpButton())
    expect((await screen.findByRole('alert')).textContent).toContain(failure)

    // Gone as soon as the text changes, before the table has run the new text.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), {
      target: { value: 'Okonkw' },
    })
    expect(screen.queryByText(failure)).toBeNull()
    await search(core, 'Okonkw')
    await search(core, 'Okonkwo')
    expect(screen.queryByText(failure)).toBeNull()
    expect(lookUpButton().disabled).toBe(false)
  })
})

describe('the detail panel', () => {
  it('names the manager from the saved employees, with their number, under one pay-cycle heading', async () => {
    renderWithCore({ serviceEmployees: SAVED, synced: true, signedIn: true })
    await screen.findByText('40 of 40 employees')
    const employee = SAVED[7]!
    const manager = SAVED[2]!
    expect(employee.managerUUID).toBe(manager.UUID)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), {
      target: { value: employee.employeeNumber },
    })
    await waitFor(() => expect(bodyRows()).toHaveLength(1))
    fireEvent.click(bodyRows()[0]!.querySelector('[role="gridcell"]')!)
    const panel = await detailPanel()
    const field = await within(panel).findByText('Manager')
    await waitFor(() =>
      expect(field.nextElementSibling?.textContent).toBe(
        `${manager.firstName} ${manager.lastName} (${manager.employeeNumber})`,
      ),
    )
    expect(within(panel).queryByText(manager.UUID as string)).toBeNull()
    expect(
      within(panel)
        .getAllByRole('heading', { name: /^Pay cycle/ })
        .map((h) => h.textContent),
    ).toEqual(['Pay cycle'])
    expect(within(panel).getByRole('listitem').textContent).toBe(employee.payCycleId)
  })
})

describe('the tenant in use', () => {
  it("is what Settings' Tenant ID shows under Demo, as the header does; Staging's own stays editable", async () => {
    // As the real core: Demo's settings keep an empty tenant (the field's, for Staging and Production), while the
    // sign-in state names Demo's own tenant, which the header shows.
    const { core, events } = renderWithCore({
      serviceEmployees: SAVED,
      synced: true,
      signedIn: true,
      settings: { environment: 'demo', tenantId: '' },
    })
    const inUse = { ...(await core.handlers['auth:get-state']()), tenantId: 'tenant-demo' }
    core.handlers['auth:get-state'] = async () => inUse
    const header = await screen.findByRole('banner')
    act(() => events.emit('auth:changed', inUse))
    fireEvent.click(within(header).getByRole('button', { name: 'Settings' }))
    await screen.findByRole('heading', { name: 'Settings' })
    expect(within(header).getByText('tenant-demo')).toBeTruthy()
    const tenant = screen.getByLabelText<HTMLInputElement>('Tenant ID')
    expect(tenant.value).toBe('tenant-demo')
    expect(tenant.readOnly).toBe(true)

    fireEvent.change(screen.getByLabelText('Environment'), { target: { value: 'staging' } })
    const staging = screen.getByLabelText<HTMLInputElement>('Tenant ID')
    expect(staging.value).toBe('')
    expect(staging.readOnly).toBe(false)
  })
})

describe('Manage profiles', () => {
  it('tags the profile in use "Current", not "Active" (a status employees have)', async () => {
    renderWithCore({ serviceEmployees: SAVED, synced: true, signedIn: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Manage profiles…' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('Current')).toBeTruthy()
    expect(within(dialog).queryByText('Active')).toBeNull()
  })
})
