import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ProfileList } from '../../src/shared/domain/profiles'
import { IdentityChangeDialog } from '../../src/renderer/src/components/identity-change-dialog'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore } from './render-app'

afterEach(cleanup)

/** The app over 41 saved Demo employees, with Settings open and Staging with an address typed in. */
async function stagingTyped() {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(41), synced: true, signedIn: true })
  expect(await screen.findByText('41 of 41 employees')).toBeTruthy()
  // Rows and settings agree: only the sync bar names the source, the header adds nothing.
  expect(document.querySelector('.data-source')?.textContent).toBe('Employees from Demo (sample data)')
  // The count line names the rows' source itself.
  expect(document.querySelector('.result-count')?.textContent).toBe(
    '41 of 41 employees from Demo (sample data)',
  )
  expect(within(screen.getByRole('banner')).queryByRole('note')).toBeNull()
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  await screen.findByRole('heading', { name: 'Settings' })
  fireEvent.change(screen.getByLabelText('Environment'), { target: { value: 'staging' } })
  fireEvent.change(screen.getByLabelText('Staging address'), {
    target: { value: 'https://staging.payroll.example.com' },
  })
  fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
  // The title names where the saved employees came from.
  const dialog = await screen.findByRole('dialog', {
    name: 'These saved employees came from Demo (sample data)',
  })
  return { ...rendered, dialog }
}

const updates = (core: { calls: Array<{ channel: string; args: unknown[] }> }) =>
  core.calls.filter((call) => call.channel === 'settings:update')

describe('changing the source of a profile with saved employees (decision 039)', () => {
  it('asks first, each button naming what happens; Cancel saves nothing', async () => {
    const { core, dialog } = await stagingTyped()
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([
      'Create a new profile for Staging',
      'Change this profile and set its 41 saved employees aside',
      'Cancel',
    ])
    // "Demo" would name the old source beside the Staging badge: changing the profile renames it, and says so.
    expect(dialog.textContent).toContain(
      'It also renames the profile “Staging”, since “Demo” names the old source.',
    )
    expect(dialog.textContent).not.toContain('set-aside copy')
    expect(updates(core)).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(await screen.findByText('Not saved: the profile still reads from where it did.')).toBeTruthy()
    expect(updates(core)).toEqual([])
  })

  it('sets the employees aside: none shown under Staging, then restored from Manage profiles', async () => {
    const { core, dialog } = await stagingTyped()
    fireEvent.click(
      within(dialog).getByRole('button', {
        name: 'Change this profile and set its 41 saved employees aside',
      }),
    )
    await expect.poll(() => updates(core).length).toBe(1)
    expect(updates(core)[0]?.args[1]).toEqual({ identityChange: 'set-aside' })
    // The profile's cache was replaced under the window: its workspace reloads, showing what the profile holds now.
    expect(await screen.findByText('Never synced')).toBeTruthy()
    expect(screen.queryByText('41 of 41 employees')).toBeNull()
    const select = (await within(screen.getByRole('banner')).findByRole('combobox', {
      name: /^Profile/,
    })) as HTMLSelectElement
    await expect.poll(() => [...select.options].map((option) => option.text)).toEqual(['Staging'])

    fireEvent.click(await screen.findByRole('button', { name: 'Manage profiles…' }))
    const profiles = screen.getByRole('dialog', { name: 'Profiles' })
    const restore = await within(profiles).findByRole('button', {
      name: /^Restore the Demo employees set aside on /,
    })
    fireEvent.click(restore)
    await expect
      .poll(() => core.calls.filter((call) => call.channel === 'profiles:restore-set-aside').length)
      .toBe(1)
    if (screen.queryByRole('dialog', { name: 'Profiles' }) !== null) {
      fireEvent.click(within(profiles).getByRole('button', { name: 'Close profiles' }))
    }
    expect(await screen.findByText('41 of 41 employees')).toBeTruthy()
    // The rows are Demo's while the profile reads Staging: the header and the sync bar say whose they are.
    const header = screen.getByRole('banner')
    expect(within(header).getByRole('note').textContent).toBe('Showing Demo (sample data) employees')
    expect(document.querySelector('.data-source')?.textContent).toBe('Employees from Demo (sample data)')
  })

  it('creates a new profile for Staging and switches to it, the Demo one kept', async () => {
    const { core, dialog } = await stagingTyped()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create a new profile for Staging' }))
    await expect.poll(() => updates(core).length).toBe(1)
    expect(updates(core)[0]?.args[1]).toEqual({ identityChange: 'new-profile' })
    const header = screen.getByRole('banner')
    const select = (await within(header).findByRole('combobox', {
      name: 'Profile (Staging environment)',
    })) as HTMLSelectElement
    expect([...select.options].map((option) => option.text)).toEqual(['Demo', 'Staging'])
  })
})

describe('the confirmation’s other consequences', () => {
  const list = (name: string, setAside?: ProfileList['profiles'][number]['setAside']): ProfileList => ({
    activeId: 'p1',
    profiles: [
      {
        id: 'p1',
        name,
        environment: 'demo',
        tenantId: '',
        employeeCount: 1200,
        ...(setAside === undefined ? {} : { setAside }),
      },
      { id: 'p2', name: 'Staging', environment: 'staging', tenantId: '', employeeCount: 0 },
    ],
  })

  it('says an earlier set-aside copy is deleted, and keeps a name the clerk chose', () => {
    render(
      <IdentityChangeDialog
        environment="staging"
        source={{ environment: 'demo' }}
        employeeCount={1200}
        profiles={list('Acme Ltd', {
          environment: 'production',
          setAsideAt: '2026-11-20T10:00:00Z',
          employeeCount: 1500,
        })}
        onChoose={() => undefined}
      />,
    )
    const dialog = screen.getByRole('dialog')
    expect(dialog.querySelector('.identity-earlier-set-aside')?.textContent).toBe(
      'A profile keeps one set-aside copy: changing this profile deletes the 1,500 Production employees set aside on 11/20.',
    )
    expect(dialog.textContent).not.toContain('renames')
  })

  it('renames a profile named after its old environment to the first free name of the new one', () => {
    render(
      <IdentityChangeDialog
        environment="staging"
        source={{ environment: 'demo' }}
        employeeCount={1200}
        profiles={list('demo')}
        onChoose={() => undefined}
      />,
    )
    // "Staging" is taken by the other profile.
    expect(screen.getByRole('dialog').textContent).toContain(
      'It also renames the profile “Staging 2”, since “demo” names the old source.',
    )
  })

  it('renames a numbered name the app gave ("Demo 2") too, and never a profile the policy manages', () => {
    const numbered = render(
      <IdentityChangeDialog
        environment="staging"
        source={{ environment: 'demo' }}
        employeeCount={1200}
        profiles={list('Demo 2')}
        onChoose={() => undefined}
      />,
    )
    expect(screen.getByRole('dialog').textContent).toContain(
      'It also renames the profile “Staging 2”, since “Demo 2” names the old source.',
    )
    numbered.unmount()
    const managed = list('Demo')
    render(
      <IdentityChangeDialog
        environment="staging"
        source={{ environment: 'demo' }}
        employeeCount={1200}
        profiles={{
          ...managed,
          profiles: managed.profiles.map((p) => ({ ...p, managedByPolicy: p.id === 'p1' })),
        }}
        onChoose={() => undefined}
      />,
    )
    expect(screen.getByRole('dialog').textContent).not.toContain('renames')
  })
})
