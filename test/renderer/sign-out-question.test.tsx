import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore } from './render-app'

afterEach(cleanup)

const signOuts = (core: { calls: Array<{ channel: string }> }) =>
  core.calls.filter((call) => call.channel === 'auth:sign-out').length

/** Issue 33, point 8: Sign out asks first when the machine policy deletes the saved employees at sign-out. */
describe('Sign out under a policy that deletes the saved employees', () => {
  it('asks, naming how many and whose; Cancel keeps everything, Sign out signs out', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(1200),
      synced: true,
      signedIn: true,
      policy: { clearsOnSignOut: true },
    })
    expect(await screen.findByText('1,200 of 1,200 employees')).toBeTruthy()
    const header = screen.getByRole('banner')
    fireEvent.click(within(header).getByRole('button', { name: 'Sign out' }))
    const question = await screen.findByRole('dialog', { name: 'Sign out of Demo?' })
    expect(question.textContent).toContain(
      'Signing out also deletes the 1,200 saved employees of Demo, as your organisation requires.',
    )
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(signOuts(core)).toBe(0)

    fireEvent.click(within(header).getByRole('button', { name: 'Sign out' }))
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Sign out of Demo?' })).getByRole('button', {
        name: 'Sign out',
      }),
    )
    await expect.poll(() => signOuts(core)).toBe(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('asks too when the profile holds only employees set aside, naming them', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(300),
      synced: true,
      signedIn: true,
      policy: { clearsOnSignOut: true },
    })
    expect(await screen.findByText('300 of 300 employees')).toBeTruthy()
    // Another environment, the 300 saved employees set aside (decision 039): none saved, 300 kept aside.
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
    await screen.findByRole('heading', { name: 'Settings' })
    fireEvent.change(screen.getByLabelText('Environment'), { target: { value: 'staging' } })
    fireEvent.change(screen.getByLabelText('Staging address'), {
      target: { value: 'https://staging.payroll.example.com' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    const identity = await screen.findByRole('dialog', { name: /^These saved employees came from/ })
    fireEvent.click(
      within(identity).getByRole('button', {
        name: 'Change this profile and set its 300 saved employees aside',
      }),
    )
    expect(await screen.findByText('Never synced')).toBeTruthy()
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' }))
    const question = await screen.findByRole('dialog', { name: 'Sign out of Staging?' })
    expect(question.textContent).toContain(
      'Signing out also deletes the 300 employees set aside from Staging, as your organisation requires.',
    )
    expect(signOuts(core)).toBe(0)
  })

  it('signs out at once without the rule', async () => {
    const { core } = renderWithCore({ serviceEmployees: makeEmployees(3), synced: true, signedIn: true })
    expect(await screen.findByText('3 of 3 employees')).toBeTruthy()
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' }))
    await expect.poll(() => signOuts(core)).toBe(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
