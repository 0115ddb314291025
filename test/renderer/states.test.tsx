import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FakeIpcError } from '../helpers/fake/fake-api'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online })
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'))
  })
}

describe('sync, empty, error and offline states', () => {
  it('asks for a sync when nothing is saved, shows rows on one bar while it runs, then the employees', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(1_200),
      signedIn: true,
      manualSync: true,
    })
    expect(await screen.findByText('No employees saved yet')).toBeTruthy()
    expect(screen.getByText('Sync to download employees.')).toBeTruthy()
    expect(screen.getByText('Never synced')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }))
    const progress = await screen.findByRole('progressbar', { name: 'Sync progress' })
    expect(await screen.findByText('Downloading employees: 500 of 1,200 (1,000 rows/s)')).toBeTruthy()
    // One bar for the whole run: a fraction of 1.
    expect(progress.getAttribute('max')).toBe('1')
    expect(Number(progress.getAttribute('value'))).toBeCloseTo(1 / 3)
    expect(screen.getByRole('button', { name: 'Cancel sync' })).toBeTruthy()

    core.releaseSync()
    expect(await screen.findByText('1,200 of 1,200 employees')).toBeTruthy()
    expect(screen.getByText(/Last synced/).textContent).toBe('Last synced just now')
    // Every employee is new after a first sync: said as such, not as 1,200 changes.
    expect(screen.getByText('First sync: 1,200 employees')).toBeTruthy()
    expect(screen.queryByText('+1,200')).toBeNull()
    expect(core.calls.map((call) => call.channel)).not.toContain('changes:list')
  })

  it('says a cancelled sync left the saved employees as they were', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(1_200),
      synced: true,
      signedIn: true,
      manualSync: true,
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel sync' }))
    expect(await screen.findByText('Sync cancelled; the saved employees are unchanged.')).toBeTruthy()
    expect(core.calls.map((call) => call.channel)).toContain('sync:cancel')
    expect(screen.getByText(/Last synced/).textContent).toBe('Last synced 2 hours ago')
  })

  it('shows a failed query with what to do, and recovers on Try again', async () => {
    const { core } = renderWithCore({ serviceEmployees: makeEmployees(50), synced: true, signedIn: true })
    const working = core.handlers['employees:query']
    core.handlers['employees:query'] = async () => {
      throw new FakeIpcError(
        'storage',
        'RosterDesk could not read its saved employees. Sync again to rebuild them.',
      )
    }
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('Could not load employees')).toBeTruthy()
    expect(within(alert).getByText(/Sync again to rebuild them/)).toBeTruthy()
    core.handlers['employees:query'] = working
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('50 of 50 employees')).toBeTruthy()
  })

  it('shows the offline indicator when the computer goes offline, and browsing still works', async () => {
    renderWithCore({ serviceEmployees: makeEmployees(50), synced: true, signedIn: true })
    await screen.findByText('50 of 50 employees')
    expect(screen.queryByText(/Offline/)).toBeNull()
    setOnline(false)
    try {
      expect(screen.getByText('Offline — showing saved employees')).toBeTruthy()
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), {
        target: { value: 'smith' },
      })
      await waitFor(() =>
        expect(screen.getByText(/ of 50 employees/).textContent).not.toBe('50 of 50 employees'),
      )
    } finally {
      setOnline(true)
    }
    expect(screen.queryByText(/Offline/)).toBeNull()
  })

  it('says "Offline" for a sync that failed because the computer is offline', async () => {
    renderWithCore({
      serviceEmployees: makeEmployees(50),
      synced: true,
      signedIn: true,
      syncFailure: {
        code: 'offline',
        message: 'This computer is offline. Connect to a network, then sync again.',
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    expect(
      await screen.findByText('This computer is offline. Connect to a network, then sync again.'),
    ).toBeTruthy()
    expect(await screen.findByText('Offline — showing saved employees')).toBeTruthy()
    expect(screen.getByText('50 of 50 employees')).toBeTruthy()
  })

  it('never says "Offline" for a service that does not answer, nor what a sync that failed changed', async () => {
    const { core } = renderWithCore({ serviceEmployees: makeEmployees(50), synced: true, signedIn: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    const chip = await screen.findByRole('button', { name: 'No changes in the last sync' })
    core.setSyncFailure({
      code: 'connection-refused',
      message:
        'The connection to payroll.example.com:443 was refused. RosterDesk tried 8 times without success.',
    })
    fireEvent.click(screen.getByRole('button', { name: 'Sync' }))
    expect(await screen.findByText(/was refused/)).toBeTruthy()
    expect(screen.queryByText(/Offline/)).toBeNull()
    // The chip spoke of the last sync: after one that failed, it would speak of a sync that did not happen.
    expect(chip.isConnected).toBe(false)
    expect(screen.queryByText('No changes in the last sync')).toBeNull()
    expect(screen.getByText('50 of 50 employees')).toBeTruthy()
  })
})
