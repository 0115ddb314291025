import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FakeIpcError } from '../helpers/fake/fake-api'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { giveGridAViewport, renderWithCore } from './render-app'

let restoreLayout: () => void
beforeAll(() => (restoreLayout = giveGridAViewport()))
afterAll(() => restoreLayout())
afterEach(cleanup)

describe('first screen and sign-in', () => {
  it('shows the app name, the environment and "Not signed in" from main', async () => {
    renderWithCore({
      serviceEmployees: [],
      settings: {
        environment: 'staging',
        tenantId: 'acme',
        baseUrls: { staging: 'https://staging.example.com', production: '' },
      },
    })
    const banner = await screen.findByRole('banner')
    expect(within(banner).getByText('RosterDesk')).toBeTruthy()
    expect(within(banner).getByLabelText('Environment: Staging')).toBeTruthy()
    expect(await within(banner).findByText('Not signed in')).toBeTruthy()
    expect(within(banner).getByText('acme')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Sign in with your browser' })).toBeTruthy()
  })

  it('asks first for the service address a profile lacks, opening Settings at it (issue 33, point 11)', async () => {
    const { core } = renderWithCore({ serviceEmployees: [], settings: { environment: 'production' } })
    const enter = await screen.findByRole('button', { name: 'Enter the service address' })
    expect(screen.getByText(/This profile has no Production service address yet\./)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Sign in with your browser' })).toBeNull()
    fireEvent.click(enter)
    const address = (await screen.findByLabelText('Production address')) as HTMLInputElement
    await waitFor(() => expect(document.activeElement).toBe(address))
    expect(core.calls.map((call) => call.channel)).not.toContain('auth:sign-in')

    // Saved, the way back is to sign in.
    fireEvent.change(address, { target: { value: 'https://payroll.example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await screen.findByText('Settings saved.')
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(await screen.findByRole('button', { name: 'Sign in with your browser' })).toBeTruthy()
  })

  it('asks for the client ID a profile with an address lacks, opening Settings at it', async () => {
    const { core } = renderWithCore({
      serviceEmployees: [],
      settings: {
        environment: 'staging',
        clientId: '',
        baseUrls: { staging: 'https://staging.example.com', production: '' },
      },
    })
    const enter = await screen.findByRole('button', { name: 'Enter the client ID' })
    expect(screen.getByText(/This profile has no client ID yet\./)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Sign in with your browser' })).toBeNull()
    fireEvent.click(enter)
    const clientId = (await screen.findByLabelText('Client ID')) as HTMLInputElement
    await waitFor(() => expect(document.activeElement).toBe(clientId))
    expect(core.calls.map((call) => call.channel)).not.toContain('auth:sign-in')
  })

  it('warns when secrets can only be kept in memory', async () => {
    renderWithCore({ serviceEmployees: [], secretStorage: 'memory-only' })
    expect(
      await screen.findByText(
        'This computer offers no secure password store: you will need to sign in again each time RosterDesk starts.',
      ),
    ).toBeTruthy()
  })

  it('says, beside it, that the saved employees last only until quit when their key is in memory only', async () => {
    renderWithCore({ serviceEmployees: [], secretStorage: 'memory-only', savedEmployeesUntilQuit: true })
    const banner = await screen.findByRole('region', { name: 'Password storage' })
    expect(banner.textContent).toBe(
      'This computer offers no secure password store: you will need to sign in again each time RosterDesk ' +
        'starts. The saved employees are kept only until RosterDesk quits, so each start syncs them again.',
    )
  })

  it('waits for the browser with a Cancel button, and cancelling shows why sign-in stopped', async () => {
    const { core } = renderWithCore({ serviceEmployees: [], manualSignIn: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with your browser' }))
    expect(await screen.findByText(/Waiting for you to approve RosterDesk in your browser/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Sign-in was cancelled.')
    expect(screen.getByRole('button', { name: 'Sign in with your browser' })).toBeTruthy()
    expect(core.calls.map((call) => call.channel)).toContain('auth:cancel-sign-in')
  })

  it('shows the signed-in state, then an empty cache asks for a sync', async () => {
    const { core } = renderWithCore({ serviceEmployees: makeEmployees(30), manualSignIn: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with your browser' }))
    await screen.findByText(/Waiting for you/)
    core.approveSignIn()
    expect(await screen.findByText('Signed in')).toBeTruthy()
    expect(await screen.findByText('Sync to download employees.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy()
  })

  it('shows the message main worded when sign-in fails', async () => {
    const { core } = renderWithCore({ serviceEmployees: [] })
    core.handlers['auth:sign-in'] = async () => {
      throw new FakeIpcError('config', 'Enter the client secret in Settings before signing in.')
    }
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with your browser' }))
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Enter the client secret in Settings before signing in.',
    )
  })

  it('signs out from the header', async () => {
    renderWithCore({ serviceEmployees: makeEmployees(5), synced: true, signedIn: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }))
    expect(await screen.findByText('Not signed in')).toBeTruthy()
    // The saved employees stay browsable; syncing needs a new sign-in.
    expect(await screen.findByRole('button', { name: 'Sign in to sync' })).toBeTruthy()
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(1))
  })
})
