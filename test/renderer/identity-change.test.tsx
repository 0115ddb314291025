import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore } from './render-app'

afterEach(cleanup)

/** The app over 41 saved Demo employees, with Settings open and Staging with an address typed in. */
async function stagingTyped() {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(41), synced: true, signedIn: true })
  expect(await screen.findByText('41 of 41 employees')).toBeTruthy()
  // Rows and settings agree: only the sync bar names the source, the header adds nothing.
  expect(document.querySelector('.data-source')?.textContent).toBe('Employees from Demo (sample data)')
  expect(within(screen.getByRole('banner')).queryByRole('note')).toBeNull()
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  await screen.findByRole('heading', { name: 'Settings' })
  fireEvent.change(screen.getByLabelText('Environment'), { target: { value: 'staging' } })
  fireEvent.change(screen.getByLabelText('Staging address'), {
    target: { value: 'https://staging.payroll.example.com' },
  })
  fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
  const dialog = await screen.findByRole('dialog', { name: 'These saved employees came from elsewhere' })
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
