import { useCallback, useEffect, useRef, useState } from 'react'
import type { SyncProgress, SyncRunSummary, SyncStatus } from '../../../shared/domain/sync'
import type { IpcError } from '../../../shared/ipc-contract'
import { isIpcErrorCode } from '../../../shared/ipc-error-codes'
import { ClientError, errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { isResolvedBy, type Recovery } from './resolved-problems'

export interface SyncProblem {
  readonly code: IpcError['code']
  readonly message: string
}

export interface SyncController {
  /** Undefined until main has answered `sync:get-status`. */
  readonly status: SyncStatus | undefined
  readonly running: boolean
  readonly progress: SyncProgress | undefined
  /** Why the last sync of this session failed; cleared by the next attempt, or once its cause is gone. */
  readonly problem: SyncProblem | undefined
  /** Set when the clerk cancelled the last sync. */
  readonly cancelled: boolean
  /** Changes whenever the cache holds a different snapshot, so views refetch. */
  readonly dataVersion: string
  start(): void
  cancel(): void
  refresh(): void
}

/** The status as it will read once main has recorded `summary`. */
function withRun(status: SyncStatus, summary: SyncRunSummary): SyncStatus {
  if (summary.status !== 'complete') return { ...status, running: false, lastRun: summary }
  // The rows now are the run's, from the profile's settings; their recorded source arrives with the next status.
  const { source: _previousSource, ...rest } = status
  return { ...rest, running: false, lastRun: summary, lastComplete: summary, employeeCount: summary.stored }
}

/**
 * Sync state: the stored status from `sync:get-status`, live progress from `sync:progress`, and every run's
 * outcome from `sync:finished` alone. `sync:start` answers at once with the run's id, which is how this window
 * tells its own run's summary from news of another.
 */
export function useSync(): SyncController {
  const client = useClient()
  const [status, setStatus] = useState<SyncStatus>()
  const [progress, setProgress] = useState<SyncProgress>()
  const [starting, setStarting] = useState(false)
  const [problem, setProblem] = useState<SyncProblem>()
  const [cancelled, setCancelled] = useState(false)
  // The run this window started and waits for; 'asked' until `sync:start` has answered with its id.
  const awaited = useRef<number | 'asked' | undefined>(undefined)
  // Runs whose summary has come: their late progress, or a start answer after the outcome, changes nothing.
  const finished = useRef(new Set<number>())

  const refresh = useCallback(() => {
    client
      .call('sync:get-status')
      .then(setStatus, (error: unknown) =>
        setProblem({ code: errorCode(error), message: errorMessage(error) }),
      )
  }, [client])

  const settle = useCallback(
    (summary: SyncRunSummary) => {
      finished.current.add(summary.id)
      const waiting = awaited.current
      // Only one run goes at a time, so this is an earlier run's news while ours is under way: just re-read.
      if (typeof waiting === 'number' && waiting !== summary.id) {
        refresh()
        return
      }
      awaited.current = undefined
      setProgress(undefined)
      setStarting(false)
      // Show the outcome at once; the refresh below then brings the stored status (counts, progress) exactly.
      setStatus((current) => current && withRun(current, summary))
      setCancelled(summary.status === 'cancelled')
      setProblem(
        summary.status === 'failed'
          ? {
              code: isIpcErrorCode(summary.errorCode) ? summary.errorCode : 'service',
              message: summary.error ?? 'The sync did not finish. Try again.',
            }
          : undefined,
      )
      refresh()
    },
    [refresh],
  )

  // A problem whose cause is gone leaves the screen without waiting for the next sync: a sign-in problem once the
  // clerk is signed in again, a lost connection once the computer is back online.
  useEffect(() => {
    const clearIfResolvedBy = (recovery: Recovery): void =>
      setProblem((current) => (current && isResolvedBy(current.code, recovery) ? undefined : current))
    const offAuth = client.on('auth:changed', (state) => {
      if (state.status === 'signed-in') clearIfResolvedBy('signed-in')
    })
    const onOnline = (): void => clearIfResolvedBy('back-online')
    window.addEventListener('online', onOnline)
    return () => {
      offAuth()
      window.removeEventListener('online', onOnline)
    }
  }, [client])

  useEffect(() => {
    const offProgress = client.on('sync:progress', (next) => {
      if (!finished.current.has(next.runId)) setProgress(next)
    })
    const offFinished = client.on('sync:finished', settle)
    refresh()
    return () => {
      offProgress()
      offFinished()
    }
  }, [client, refresh, settle])

  const start = useCallback(() => {
    awaited.current = 'asked'
    setStarting(true)
    setProblem(undefined)
    setCancelled(false)
    client.call('sync:start').then(
      ({ runId }) => {
        // A run can end before its start is answered; its summary has then settled everything already.
        if (!finished.current.has(runId)) awaited.current = runId
      },
      (error: unknown) => {
        awaited.current = undefined
        setProgress(undefined)
        setStarting(false)
        if (error instanceof ClientError && error.code === 'cancelled') setCancelled(true)
        else setProblem({ code: errorCode(error), message: errorMessage(error) })
        refresh()
      },
    )
  }, [client, refresh])

  const cancel = useCallback(() => {
    client.call('sync:cancel').catch(() => undefined)
  }, [client])

  const running = starting || progress !== undefined || status?.running === true
  const dataVersion = `${status?.lastComplete?.id ?? 0}:${status?.employeeCount ?? 0}`
  return {
    status,
    running,
    progress: progress ?? status?.progress,
    problem,
    cancelled,
    dataVersion,
    start,
    cancel,
    refresh,
  }
}
