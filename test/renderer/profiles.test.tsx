import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

/** Acme's employees: other people (names and numbers) than the Demo profile's. */
function acmeEmployees(count: number): EmployeeRow[] {
  return makeEmployees(count).map((row, i) => ({
    ...row,
    UUID: `acme-${i}`,
    lastName: `Acmeworker${i}`,
    employeeNumber: `A${String(i).padStart(5, '0')}`,
  }))
}

describe('the profile switcher in the header', () => {
  it('names the active profile and switches in one click, showing only that profile’s employees', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(300),
      synced: true,
      signedIn: true,
      otherProfiles: [
        {
          name: 'Acme Ltd',
          employees: acmeEmployees(7),
          settings: { environment: 'staging', tenantId: 'acme-tenant' },
        },
      ],
    })
    expect(await screen.findByText('300 of 300 employees')).toBeTruthy()
    const header = screen.getByRole('banner')
    const select = within(header).getByRole('combobox', {
      name: 'Profile (Demo environment)',
    }) as HTMLSelectElement
    // "Demo" is both the name and the environment: said once, not "Demo (Demo)".
    expect([...select.options].map((option) => option.text)).toEqual(['Demo', 'Acme Ltd (Staging)'])
    expect(select.value).toBe('p1')
    // The environment's badge shows for every profile, Demo as Staging: the clerk reads it in the same place.
    expect(within(header).getByLabelText('Environment: Demo').classList).not.toContain('visually-hidden')

    fireEvent.change(select, { target: { value: 'p2' } })
    expect(await screen.findByText('7 of 7 employees')).toBeTruthy()
    expect(screen.queryByText('300 of 300 employees')).toBeNull()
    expect(screen.getAllByText(/Acmeworker/).length).toBeGreaterThan(0)
    const after = screen.getByRole('banner')
    // "Acme Ltd" does not say Staging: the badge shows.
    expect(within(after).getByLabelText('Environment: Staging').classList).not.toContain('visually-hidden')
    expect(within(after).getByText('acme-tenant')).toBeTruthy()
    expect(
      (within(after).getByRole('combobox', { name: 'Profile (Staging environment)' }) as HTMLSelectElement)
        .value,
    ).toBe('p2')
    // Acme's sign-in is its own: it was never signed in.
    expect(within(after).getByRole('status').textContent).toBe('Not signed in')
    expect(core.calls.filter((call) => call.channel === 'profiles:switch')).toEqual([
      { channel: 'profiles:switch', args: ['p2'] },
    ])

    fireEvent.change(within(after).getByRole('combobox', { name: /^Profile/ }), { target: { value: 'p1' } })
    expect(await screen.findByText('300 of 300 employees')).toBeTruthy()
    expect(screen.queryByText(/Acmeworker/)).toBeNull()
  })
})

/** A clerk with no saved employees in the active profile (the sign-in screen) and two client companies. */
function renderBureau() {
  return renderWithCore({
    serviceEmployees: [],
    otherProfiles: [
      {
        name: 'Acme Ltd',
        employees: acmeEmployees(1234),
        settings: { environment: 'staging', tenantId: 'acme-tenant' },
      },
      { name: 'Globex', employees: acmeEmployees(1), settings: { environment: 'production', tenantId: '' } },
    ],
  })
}

async function openManage(): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: 'Manage profiles…' }))
  return screen.getByRole('dialog', { name: 'Profiles' })
}

function rowOf(dialog: HTMLElement, name: string): HTMLElement {
  const row = within(dialog)
    .getAllByRole('listitem')
    .find((item) => item.querySelector('.profile-row-name')?.textContent === name)
  if (row === undefined) throw new Error(`no row for ${name}`)
  return row
}

describe('Manage profiles', () => {
  it('lists every profile with its environment, tenant and saved employees; Esc closes it and focus returns', async () => {
    renderBureau()
    const opener = await screen.findByRole('button', { name: 'Manage profiles…' })
    opener.focus()
    fireEvent.click(opener)
    const dialog = screen.getByRole('dialog', { name: 'Profiles' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(dialog.contains(document.activeElement)).toBe(true)
    await waitFor(() => expect(rowOf(dialog, 'Acme Ltd').textContent).toContain('1,234 saved employees'))
    expect(rowOf(dialog, 'Demo').textContent).toBe(
      'DemoCurrentDemoTenant tenant-demoNo saved employeesRenameDelete…Switch to another profile to delete this one.',
    )
    expect(rowOf(dialog, 'Acme Ltd').textContent).toContain('StagingTenant acme-tenant1,234 saved employees')
    expect(rowOf(dialog, 'Globex').textContent).toContain('ProductionNo tenant1 saved employee')
    // The active profile cannot be deleted, and says why.
    const deleteActive = within(rowOf(dialog, 'Demo')).getByRole('button', { name: 'Delete Demo…' })
    expect(deleteActive).toHaveProperty('disabled', true)
    expect(deleteActive.getAttribute('aria-describedby')).toBeTruthy()

    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Manage profiles…' }))
  })

  it('renames a profile in place, refusing a name by the shared rule', async () => {
    const { core } = renderBureau()
    const dialog = await openManage()
    fireEvent.click(within(rowOf(dialog, 'Acme Ltd')).getByRole('button', { name: 'Rename Acme Ltd' }))
    const input = within(dialog).getByLabelText('New name for Acme Ltd')
    expect(document.activeElement).toBe(input)
    fireEvent.change(input, { target: { value: ' globex ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save name' }))
    expect(within(dialog).getByRole('alert').textContent).toBe('A profile named "globex" exists.')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(core.calls.some((call) => call.channel === 'profiles:rename')).toBe(false)

    fireEvent.change(input, { target: { value: '  Acme   Holdings ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save name' }))
    expect(await within(dialog).findByText('Renamed “Acme Ltd” to “Acme Holdings”.')).toBeTruthy()
    expect(core.calls.filter((call) => call.channel === 'profiles:rename')).toEqual([
      { channel: 'profiles:rename', args: ['p2', 'Acme Holdings'] },
    ])
    const select = screen.getByRole('combobox', { name: /^Profile/ }) as HTMLSelectElement
    expect([...select.options].map((option) => option.text)).toContain('Acme Holdings (Staging)')
    // Focus is back on the row's Rename button, once the renders the rename set off (the notice, the list read
    // again) have settled.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(rowOf(dialog, 'Acme Holdings')).getByRole('button', { name: 'Rename Acme Holdings' }),
      ),
    )
  })

  it('deletes another profile only after a confirmation that says what goes with it', async () => {
    const { core } = renderBureau()
    const dialog = await openManage()
    await waitFor(() => expect(rowOf(dialog, 'Acme Ltd').textContent).toContain('1,234 saved employees'))
    fireEvent.click(within(rowOf(dialog, 'Acme Ltd')).getByRole('button', { name: 'Delete Acme Ltd…' }))
    const confirmation = within(dialog).getByRole('group', { name: /^Delete “Acme Ltd”\?/ })
    expect(confirmation.textContent).toContain(
      'Delete “Acme Ltd”? This removes its settings, its 1,234 saved employees and its sign-in from this computer. The payroll service itself is not changed, and this cannot be undone.',
    )
    // The safe choice has the focus; keeping it deletes nothing.
    expect(document.activeElement).toBe(within(confirmation).getByRole('button', { name: 'Keep it' }))
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Keep it' }))
    expect(core.calls.some((call) => call.channel === 'profiles:delete')).toBe(false)
    expect(document.activeElement).toBe(
      within(rowOf(dialog, 'Acme Ltd')).getByRole('button', { name: 'Delete Acme Ltd…' }),
    )

    fireEvent.click(within(rowOf(dialog, 'Acme Ltd')).getByRole('button', { name: 'Delete Acme Ltd…' }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Acme Ltd' }))
    expect(
      await within(dialog).findByText('Deleted “Acme Ltd”, with its settings, saved employees and sign-in.'),
    ).toBeTruthy()
    expect(core.calls.filter((call) => call.channel === 'profiles:delete')).toEqual([
      { channel: 'profiles:delete', args: ['p2'] },
    ])
    expect(within(dialog).queryByText('Acme Ltd')).toBeNull()
    const select = screen.getByRole('combobox', { name: /^Profile/ }) as HTMLSelectElement
    expect([...select.options].map((option) => option.text)).toEqual(['Demo', 'Globex (Production)'])
  })

  it('creates a profile whose name and environment the clerk chooses up front', async () => {
    const { core } = renderBureau()
    const dialog = await openManage()
    const form = within(dialog).getByRole('form', { name: 'New profile' })
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'ACME LTD' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Create profile' }))
    expect(within(form).getByText('A profile named "ACME LTD" exists.')).toBeTruthy()
    expect(within(form).getByText('Choose the environment this profile works in.')).toBeTruthy()
    expect(core.calls.some((call) => call.channel === 'profiles:create')).toBe(false)

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: ' Bureau  client ' } })
    fireEvent.click(within(form).getByRole('radio', { name: 'Production' }))
    fireEvent.click(within(form).getByRole('button', { name: 'Create profile' }))
    // Created, then switched to at once (issue 33, point 11): the dialog goes with the profile it was opened in,
    // and the new profile's Settings open at its service address, focused.
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: /^Profile/ }) as HTMLSelectElement).value).toBe('p4'),
    )
    expect(core.calls.filter((call) => call.channel === 'profiles:create')).toEqual([
      { channel: 'profiles:create', args: ['Bureau client', { environment: 'production' }] },
    ])
    expect(core.calls.filter((call) => call.channel === 'profiles:switch')).toEqual([
      { channel: 'profiles:switch', args: ['p4'] },
    ])
    expect(screen.queryByRole('dialog')).toBeNull()
    const address = await screen.findByLabelText('Production address')
    await waitFor(() => expect(document.activeElement).toBe(address))
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy()
    expect(screen.getByLabelText('Environment: Production')).toBeTruthy()
  })

  it('switches to a new Demo profile at once, at its sign-in (Demo needs no address)', async () => {
    renderBureau()
    const dialog = await openManage()
    const form = within(dialog).getByRole('form', { name: 'New profile' })
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Training' } })
    fireEvent.click(within(form).getByRole('radio', { name: 'Demo' }))
    fireEvent.click(within(form).getByRole('button', { name: 'Create profile' }))
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: /^Profile/ }) as HTMLSelectElement).value).toBe('p4'),
    )
    expect(await screen.findByRole('button', { name: 'Sign in with your browser' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Settings', level: 1 })).toBeNull()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
