import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { isDataStale } from '../../src/shared/freshness'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { giveGridAViewport, renderWithCore } from './render-app'

const HOUR = 3_600_000
/** Monday 23 November 2026, 09:00 UTC (the test machine's zone, which the banner's date is written in). */
const MONDAY_9AM = Date.UTC(2026, 10, 23, 9, 0, 0)
const EXPIRED = 'Your sign-in has expired. Sign in again to continue.'

let restoreLayout: () => void
beforeAll(() => (restoreLayout = giveGridAViewport()))
afterAll(() => restoreLayout())
afterEach(() => {
  cleanup()
  localStorage.clear()
  vi.useRealTimers()
})

/**
 * The renderer's clock is the page's own (`Date.now` and the interval `useNow` ticks on), so the test fakes both:
 * time stands where the test puts it and moves on by itself, so the app's own waits still end.
 */
function clockAt(now: number): void {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  vi.setSystemTime(now)
}

function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online })
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'))
  })
}

const banner = () => screen.queryByRole('region', { name: 'Data age' })

describe('the staleness rule', () => {
  it('is old from the threshold on; never synced is not old, an unreadable time is', () => {
    const synced = new Date(MONDAY_9AM).toISOString()
    expect(isDataStale(synced, MONDAY_9AM + 24 * HOUR - 1, 24)).toBe(false)
    expect(isDataStale(synced, MONDAY_9AM + 24 * HOUR, 24)).toBe(true)
    expect(isDataStale(synced, MONDAY_9AM + 3 * HOUR, 3)).toBe(true)
    expect(isDataStale(undefined, MONDAY_9AM, 24)).toBe(false)
    expect(isDataStale('yesterday-ish', MONDAY_9AM, 24)).toBe(true)
  })
})

describe('the stale-data banner', () => {
  it('appears while the app sits open, once the data passes the threshold set in Settings', async () => {
    clockAt(MONDAY_9AM)
    // Synced two hours ago; the clerk's threshold is three hours.
    renderWithCore({
      serviceEmployees: makeEmployees(20),
      synced: true,
      signedIn: true,
      settings: { staleAfterHours: 3 },
    })
    await screen.findByText('20 of 20 employees')
    expect(screen.getByText(/Last synced/).textContent).toBe('Last synced 2 hours ago')
    expect(banner()).toBeNull()

    // An hour later the next tick of the app's clock finds the data three hours old.
    vi.setSystemTime(MONDAY_9AM + HOUR)
    act(() => vi.advanceTimersByTime(30_000))
    const shown = await screen.findByRole('region', { name: 'Data age' })
    expect(within(shown).getByText(/^Employees last synced/).textContent).toBe(
      'Employees last synced 3 hours ago (Mon 11/23, 07:00 AM)',
    )
    expect(within(shown).getByRole('button', { name: 'Sync now' })).toBeTruthy()
  })

  it('says how old the data is, and Sync now starts a sync that makes it go', async () => {
    clockAt(MONDAY_9AM)
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(20),
      synced: true,
      signedIn: true,
      syncedAt: MONDAY_9AM - 3 * 24 * HOUR + 12 * 60_000,
      manualSync: true,
    })
    const shown = await screen.findByRole('region', { name: 'Data age' })
    // The default threshold is a day.
    expect(within(shown).getByText(/^Employees last synced/).textContent).toBe(
      'Employees last synced 2 days ago (Fri 11/20, 09:12 AM)',
    )
    fireEvent.click(within(shown).getByRole('button', { name: 'Sync now' }))
    expect(core.calls.filter((call) => call.channel === 'sync:start')).toHaveLength(1)
    // While it runs the banner stays (the data is still old) but offers nothing more to press.
    expect(await within(shown).findByText('A sync is under way.')).toBeTruthy()
    expect(within(shown).queryByRole('button')).toBeNull()
    core.releaseSync()
    await waitFor(() => expect(banner()).toBeNull())
    expect(screen.getByText(/Last synced/).textContent).toBe('Last synced just now')
  })

  it('offers a sign-in instead when signed out, and is not shown before the first sync', async () => {
    clockAt(MONDAY_9AM)
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(20),
      synced: true,
      signedIn: false,
      syncedAt: MONDAY_9AM - 30 * HOUR,
    })
    const shown = await screen.findByRole('region', { name: 'Data age' })
    expect(within(shown).getByText(/^Employees last synced/).textContent).toBe(
      'Employees last synced yesterday (Sun 11/22, 03:00 AM)',
    )
    fireEvent.click(within(shown).getByRole('button', { name: 'Sign in to sync' }))
    expect(core.calls.map((call) => call.channel)).toContain('auth:sign-in')
    cleanup()

    renderWithCore({ serviceEmployees: makeEmployees(20), signedIn: true })
    expect(await screen.findByText('No employees saved yet')).toBeTruthy()
    expect(banner()).toBeNull()
  })
})

describe('messages whose cause is gone', () => {
  it('drops "sign-in has expired" once the clerk has signed in again', async () => {
    const { core } = renderWithCore({ serviceEmployees: makeEmployees(20), synced: true, signedIn: true })
    // The service refuses the refresh during a sync: the run fails and main signs the clerk out, both saying why.
    core.setSyncFailure({ code: 'not-signed-in', message: EXPIRED })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    await screen.findByText(EXPIRED)
    act(() => core.expireSignIn(EXPIRED))
    // Said once, although both the sync and the sign-in report it.
    expect(screen.getAllByText(EXPIRED)).toHaveLength(1)

    core.setSyncFailure(undefined)
    const bar = screen.getByRole('region', { name: 'Sync' })
    fireEvent.click(within(bar).getByRole('button', { name: 'Sign in to sync' }))
    expect(await within(bar).findByRole('button', { name: 'Sync' })).toBeTruthy()
    expect(screen.queryByText(EXPIRED)).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('drops the offline state and its message once the computer is back online', async () => {
    const unreachable = 'This computer is offline. Connect to a network, then sync again.'
    renderWithCore({
      serviceEmployees: makeEmployees(20),
      synced: true,
      signedIn: true,
      syncFailure: { code: 'offline', message: unreachable },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    expect(await screen.findByText(unreachable)).toBeTruthy()
    expect(screen.getByText('Offline — showing saved employees')).toBeTruthy()

    setOnline(true)
    expect(screen.queryByText(unreachable)).toBeNull()
    expect(screen.queryByText(/Offline/)).toBeNull()
  })

  it('drops a failed sync’s message when a later sync succeeds, even one main started on its own', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(20),
      synced: true,
      signedIn: true,
      syncFailure: { code: 'service', message: 'The payroll service had a problem. Try again later.' },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    expect(await screen.findByText('The payroll service had a problem. Try again later.')).toBeTruthy()

    // The scheduler in main starts a run: the window did not ask, it only hears the progress and the outcome.
    core.setSyncFailure(undefined)
    await act(() => core.handlers['sync:start']())
    await waitFor(() =>
      expect(screen.queryByText('The payroll service had a problem. Try again later.')).toBeNull(),
    )
    // The message goes with the run's outcome; the time of the last sync comes with the status read after it.
    await waitFor(() => expect(screen.getByText(/Last synced/).textContent).toBe('Last synced just now'))
  })
})
