import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeEmployees } from '../helpers/fake/fake-employees'
import type { FakeCoreOptions } from '../helpers/fake/fake-core'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const SYNC_RUNNING = 'RosterDesk restarts to update once it is done: a sync is running.'

async function renderSynced(options: Partial<FakeCoreOptions>) {
  const rendered = renderWithCore({
    serviceEmployees: makeEmployees(20),
    synced: true,
    signedIn: true,
    ...options,
  })
  await screen.findByText('20 of 20 employees')
  return rendered
}

describe('the update banner', () => {
  it('shows nothing while updates are not set up, checking or downloading, then offers the restart', async () => {
    const { core } = await renderSynced({})
    expect(screen.queryByRole('region', { name: 'Update' })).toBeNull()
    act(() => core.updates.setState({ status: 'checking' }))
    act(() => core.updates.setState({ status: 'downloading', version: '1.4.0', percent: 42 }))
    expect(screen.queryByRole('region', { name: 'Update' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Restart to update' })).toBeNull()

    act(() => core.updates.setState({ status: 'ready', version: '1.4.0' }))
    const banner = await screen.findByRole('region', { name: 'Update' })
    expect(banner.textContent).toContain('RosterDesk 1.4.0 is ready to install.')
    fireEvent.click(within(banner).getByRole('button', { name: 'Restart to update' }))
    await waitFor(() => expect(core.updates.restarts).toBe(1))
    expect(within(banner).getByRole('button', { name: 'Restarting…' })).toHaveProperty('disabled', true)
    expect(core.calls.filter((call) => call.channel === 'updates:restart')).toHaveLength(1)
  })

  it('reads a state main already had when the window opened', async () => {
    await renderSynced({ updates: { state: { status: 'ready', version: '2.0.1' } } })
    expect((await screen.findByRole('region', { name: 'Update' })).textContent).toContain(
      'RosterDesk 2.0.1 is ready to install.',
    )
  })

  it('says why the restart waits while a sync runs, and restarts on a click once it is over', async () => {
    const { core } = await renderSynced({
      updates: { state: { status: 'ready', version: '1.4.0' }, busyReason: SYNC_RUNNING },
    })
    const banner = await screen.findByRole('region', { name: 'Update' })
    fireEvent.click(within(banner).getByRole('button', { name: 'Restart to update' }))
    expect((await within(banner).findByRole('status')).textContent).toBe(SYNC_RUNNING)
    expect(core.updates.restarts).toBe(0)
    // Refused, the button is there again for when the work is done.
    const button = within(banner).getByRole('button', { name: 'Restart to update' })
    expect(button).toHaveProperty('disabled', false)

    core.updates.setBusyReason(undefined)
    fireEvent.click(button)
    await waitFor(() => expect(core.updates.restarts).toBe(1))
    expect(within(banner).queryByRole('status')).toBeNull()
  })

  it('shows a failed check as one muted line, never an alert', async () => {
    const { core } = await renderSynced({})
    act(() =>
      core.updates.setState({
        status: 'failed',
        message: 'the download did not match its published checksum and was deleted',
        at: new Date().toISOString(),
      }),
    )
    const note = await screen.findByText(/^Updates: the download did not match/)
    expect(note.className).toBe('update-note')
    expect(note.getAttribute('role')).toBe('status')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('region', { name: 'Update' })).toBeNull()
  })
})
