import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain'
import { makeEmployees } from './fake/fake-employees'
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
    const select = within(header).getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement
    expect([...select.options].map((option) => option.text)).toEqual(['Demo (Demo)', 'Acme Ltd (Staging)'])
    expect(select.value).toBe('p1')
    expect(within(header).getByLabelText('Environment: Demo')).toBeTruthy()

    fireEvent.change(select, { target: { value: 'p2' } })
    expect(await screen.findByText('7 of 7 employees')).toBeTruthy()
    expect(screen.queryByText('300 of 300 employees')).toBeNull()
    expect(screen.getAllByText(/Acmeworker/).length).toBeGreaterThan(0)
    const after = screen.getByRole('banner')
    expect(within(after).getByLabelText('Environment: Staging')).toBeTruthy()
    expect(within(after).getByText('acme-tenant')).toBeTruthy()
    expect((within(after).getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement).value).toBe('p2')
    // Acme's sign-in is its own: it was never signed in.
    expect(within(after).getByRole('status').textContent).toBe('Not signed in')
    expect(core.calls.filter((call) => call.channel === 'profiles:switch')).toEqual([
      { channel: 'profiles:switch', args: ['p2'] },
    ])

    fireEvent.change(within(after).getByRole('combobox', { name: 'Profile' }), { target: { value: 'p1' } })
    expect(await screen.findByText('300 of 300 employees')).toBeTruthy()
    expect(screen.queryByText(/Acmeworker/)).toBeNull()
  })

  it('adds a profile by name, and says why a name is refused', async () => {
    renderWithCore({ serviceEmployees: makeEmployees(5), synced: true, signedIn: true })
    fireEvent.click(await screen.findByRole('button', { name: 'New profile' }))
    fireEvent.change(screen.getByLabelText('New profile name'), { target: { value: 'demo' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect((await screen.findByRole('alert')).textContent).toBe('A profile named "demo" exists.')

    fireEvent.change(screen.getByLabelText('New profile name'), { target: { value: ' Bureau  client ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    await waitFor(() => expect(screen.queryByLabelText('New profile name')).toBeNull())
    const select = screen.getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement
    expect([...select.options].map((option) => option.text)).toEqual(['Demo (Demo)', 'Bureau client (Demo)'])
    expect(select.value).toBe('p1')
  })
})
