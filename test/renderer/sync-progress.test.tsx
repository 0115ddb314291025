import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SyncProgress, SyncRunSummary } from '../../src/shared/domain/sync'
import { SyncProgressBar } from '../../src/renderer/src/components/sync-progress-bar'
import { etaText, syncProgressText } from '../../src/renderer/src/format/sync-progress-text'
import { App } from '../../src/renderer/src/App'
import { createClient, type RosterDeskClient } from '../../src/renderer/src/api/client'
import { ClientProvider } from '../../src/renderer/src/api/client-context'
import { createFakeApi, createFakeEvents } from '../helpers/fake/fake-api'
import { createFakeCore } from '../helpers/fake/fake-core'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { giveGridAViewport } from './render-app'

let restoreLayout: () => void
beforeAll(() => (restoreLayout = giveGridAViewport()))
afterAll(() => restoreLayout())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  localStorage.clear()
})

const base: SyncProgress = {
  runId: 7,
  phase: 'listing',
  fraction: 0.3,
  rows: 1_500,
  rowsTotal: 5_000,
  rowsPerSecond: 412.6,
}

describe('the progress line’s words', () => {
  it('says what is happening, how much, how fast and, once known, how long', () => {
    expect(syncProgressText(undefined)).toBe('Starting sync…')
    expect(syncProgressText({ ...base, rows: 0, rowsTotal: 0, rowsPerSecond: 0 })).toBe(
      'Downloading employees: 0',
    )
    expect(syncProgressText(base)).toBe('Downloading employees: 1,500 of 5,000 (413 rows/s)')
    expect(syncProgressText({ ...base, etaSeconds: 150 })).toBe(
      'Downloading employees: 1,500 of 5,000 (413 rows/s), about 3 min left',
    )
    expect(syncProgressText({ ...base, phase: 'pay-cycles', etaSeconds: 7 })).toBe(
      'Reading pay cycles (413 rows/s), a few seconds left',
    )
    expect(syncProgressText({ ...base, phase: 'reconciling' })).toBe('Checking for changes (413 rows/s)')
    expect(syncProgressText({ ...base, phase: 'committing', rows: 5_000, etaSeconds: 3 })).toBe(
      'Saving 5,000 employees…',
    )
  })

  it('rounds time remaining to what a clerk plans with', () => {
    expect([10, 11, 42, 59, 60, 89, 90, 3_599, 3_600, 5_400].map(etaText)).toEqual([
      'a few seconds left',
      'about 15 s left',
      'about 45 s left',
      'about 60 s left',
      'about 1 min left',
      'about 1 min left',
      'about 2 min left',
      'about 1 h left',
      'about 1 h left',
      'about 1 h 30 min left',
    ])
  })

  it('names each retry state instead of the figures, and counts its wait down', () => {
    const retrying = (reason: 'rate-limited' | 'server-error' | 'network'): SyncProgress => ({
      ...base,
      etaSeconds: 60,
      retry: { reason, retryInSeconds: 8, attempt: 1, attempts: 8 },
    })
    expect(syncProgressText(retrying('rate-limited'))).toBe('Service busy, retrying in 8 s — attempt 2 of 8')
    expect(syncProgressText(retrying('server-error'))).toBe('Service error, retrying in 8 s — attempt 2 of 8')
    // No answer at all: the service, its host and the cause, the wait and which attempt comes of how many.
    const refused: SyncProgress = {
      ...base,
      retry: {
        reason: 'network',
        retryInSeconds: 5,
        attempt: 1,
        attempts: 8,
        code: 'connection-refused',
        host: 'payroll.example.com',
      },
    }
    expect(syncProgressText(refused)).toBe(
      'The payroll service at payroll.example.com is not answering (connection refused). Trying again in 5 s — attempt 2 of 8.',
    )
    expect(syncProgressText(refused, 0)).toBe(
      'The payroll service at payroll.example.com is not answering (connection refused). Trying again now — attempt 2 of 8.',
    )
    const timedOut: SyncProgress = { ...base, retry: { ...refused.retry!, code: 'timeout', attempt: 3 } }
    expect(syncProgressText(timedOut, 2)).toBe(
      'The payroll service at payroll.example.com is not answering (timed out). Trying again in 2 s — attempt 4 of 8.',
    )
    expect(syncProgressText({ ...base, retry: { reason: 'network', retryInSeconds: 8, attempt: 1 } })).toBe(
      'The payroll service is not answering (connection lost). Trying again in 8 s — attempt 2.',
    )
    expect(syncProgressText(retrying('rate-limited'), 3)).toBe(
      'Service busy, retrying in 3 s — attempt 2 of 8',
    )
    expect(syncProgressText(retrying('server-error'), 0)).toBe('Service error, retrying… — attempt 2 of 8')
  })
})

describe('SyncProgressBar', () => {
  it('fills one bar by the run’s fraction, and is indeterminate until the run’s size is known', () => {
    const { rerender } = render(<SyncProgressBar progress={{ ...base, fraction: undefined }} />)
    const bar = screen.getByRole('progressbar', { name: 'Sync progress' })
    expect(bar.hasAttribute('value')).toBe(false)
    rerender(<SyncProgressBar progress={base} />)
    expect(bar.getAttribute('value')).toBe('0.3')
    expect(bar.getAttribute('max')).toBe('1')
  })

  it('counts a retry’s wait down each second, and starts again for the next retry', () => {
    vi.useFakeTimers()
    const retry = { reason: 'rate-limited', retryInSeconds: 8, attempt: 1 } as const
    const { rerender } = render(<SyncProgressBar progress={{ ...base, retry }} />)
    const line = screen.getByText('Service busy, retrying in 8 s — attempt 2')
    expect(line.classList.contains('sync-progress-retry')).toBe(true)
    act(() => vi.advanceTimersByTime(3_000))
    expect(line.textContent).toBe('Service busy, retrying in 5 s — attempt 2')
    act(() => vi.advanceTimersByTime(6_000))
    expect(line.textContent).toBe('Service busy, retrying… — attempt 2')
    rerender(<SyncProgressBar progress={{ ...base, retry: { ...retry, attempt: 2, retryInSeconds: 16 } }} />)
    expect(line.textContent).toBe('Service busy, retrying in 16 s — attempt 3')
    rerender(<SyncProgressBar progress={{ ...base, etaSeconds: 30 }} />)
    expect(line.textContent).toBe('Downloading employees: 1,500 of 5,000 (413 rows/s), about 30 s left')
    expect(line.classList.contains('sync-progress-retry')).toBe(false)
    // Another request's retry that looks just like the first still counts from its own start.
    rerender(<SyncProgressBar progress={{ ...base, retry }} />)
    expect(line.textContent).toBe('Service busy, retrying in 8 s — attempt 2')
  })

  it('says the cause of a retry under the line, in the failure’s words, and drops it with the retry', () => {
    const cause =
      'The payroll service had a problem (HTTP 500): “maintenance until 02:00 UTC, ticket PAY-4471”. Try again in a few minutes.'
    const retry = { reason: 'server-error', retryInSeconds: 1, attempt: 1, cause } as const
    const { rerender, container } = render(<SyncProgressBar progress={{ ...base, retry }} />)
    expect(screen.getByText('Service error, retrying in 1 s — attempt 2')).toBeTruthy()
    expect(container.querySelector('.sync-progress-cause')?.textContent).toBe(cause)
    rerender(<SyncProgressBar progress={base} />)
    expect(container.querySelector('.sync-progress-cause')).toBeNull()
  })
})

describe('a sync in the app, told only by events', () => {
  it('shows the retry state main reports, clears it with the next page, and ends on its own summary', async () => {
    const events = createFakeEvents()
    const core = createFakeCore(events, {
      serviceEmployees: makeEmployees(1_200),
      synced: true,
      signedIn: true,
      manualSync: true,
    })
    const client = createClient(createFakeApi(core.handlers, events))
    // True once the app has had sync:start's answer (the run's id): a callback added to the answer after the app
    // added its own (it does so as the call returns) runs after the app's.
    let startAnswered = false
    const watched: RosterDeskClient = {
      on: (channel, listener) => client.on(channel, listener),
      call: (channel, ...args) => {
        const answer = client.call(channel, ...args)
        if (channel === 'sync:start') queueMicrotask(() => void answer.then(() => (startAnswered = true)))
        return answer
      },
    }
    render(
      <ClientProvider client={watched}>
        <App />
      </ClientProvider>,
    )
    const runIds: number[] = []
    events.subscribe((channel, payload) => {
      if (channel === 'sync:progress') runIds.push((payload as SyncProgress).runId)
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
    await screen.findByText('Downloading employees: 500 of 1,200 (1,000 rows/s)')
    // Let sync:start's answer (the run's id) arrive, as it does long before any page in the real app.
    await waitFor(() => expect(startAnswered).toBe(true))
    const runId = runIds[0]!
    const sync = screen.getByRole('region', { name: 'Sync' })

    act(() =>
      events.emit('sync:progress', {
        ...base,
        runId,
        rows: 500,
        rowsTotal: 1_200,
        retry: { reason: 'rate-limited', retryInSeconds: 8, attempt: 1 },
      }),
    )
    expect(within(sync).getByText('Service busy, retrying in 8 s — attempt 2')).toBeTruthy()

    // News of another run (its id is not the one sync:start answered) does not end this one.
    const other: SyncRunSummary = {
      id: 99,
      status: 'failed',
      startedAt: new Date().toISOString(),
      endedAt: new Date().toISOString(),
      totalCount: 0,
      stored: 0,
      pages: 0,
      requests: 1,
      durationMs: 5,
      error: 'Another run failed.',
      errorCode: 'service',
    }
    act(() => events.emit('sync:finished', other))
    expect(within(sync).getByRole('button', { name: 'Cancel sync' })).toBeTruthy()
    expect(within(sync).queryByText('Another run failed.')).toBeNull()

    act(() => events.emit('sync:progress', { ...base, runId, rows: 1_000, rowsTotal: 1_200, etaSeconds: 2 }))
    expect(within(sync).queryByText(/retrying/)).toBeNull()
    expect(
      within(sync).getByText('Downloading employees: 1,000 of 1,200 (413 rows/s), a few seconds left'),
    ).toBeTruthy()

    core.releaseSync()
    expect(await within(sync).findByRole('button', { name: 'Sync' })).toBeTruthy()
    expect(within(sync).queryByRole('progressbar')).toBeNull()
    expect(screen.getByText(/Last synced/).textContent).toBe('Last synced just now')
  })
})
