import { useCallback, useEffect, useRef, useState } from 'react'
import type { SyncProgress, SyncRunSummary, SyncStatus } from '../../../shared/domain'
import type { IpcError } from '../../../shared/ipc-contract'
import { ClientError, errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export interface SyncProblem {
  readonly code: IpcError['code']
  readonly message: string
}

export interface SyncController {
  /** Undefined until main has answered `sync:get-status`. */
  readonly status: SyncStatus | undefined
  readonly running: boolean
  readonly progress: SyncProgress | undefined
  /** Why the last sync of this session failed; cleared by the next attempt. */
  readonly problem: SyncProblem | undefined
  /** Set when the clerk cancelled the last sync. */
  readonly cancelled: boolean
  /** Changes whenever the cache holds a different snapshot, so views refetch. */
  readonly dataVersion: string
  start(): void
  cancel(): void
  refresh(): void
}

const ERROR_CODES: readonly string[] = [
  'validation',
  'not-signed-in',
  'auth',
  'network',
  'service',
  'busy',
  'cancelled',
  'storage',
  'not-found',
  'config',
  'internal',
] satisfies readonly IpcError['code'][]

function isErrorCode(value: string | undefined): value is IpcError['code'] {
  return value !== undefined && ERROR_CODES.includes(value)
}

/** The status as it will read once main has recorded `summary`. */
function withRun(status: SyncStatus, summary: SyncRunSummary): SyncStatus {
  if (summary.status !== 'complete') return { ...status, running: false, lastRun: summary }
  return { ...status, running: false, lastRun: summary, lastComplete: summary, employeeCount: summary.stored }
}

/**
 * Sync state: the stored status from `sync:get-status`, live progress from `sync:progress`, and the outcome from
 * `sync:start` (which resolves when the run ends) or from `sync:finished` (for a run started elsewhere).
 */
export function useSync(): SyncController {
  const client = useClient()
  const [status, setStatus] = useState<SyncStatus>()
  const [progress, setProgress] = useState<SyncProgress>()
  const [starting, setStarting] = useState(false)
  const [problem, setProblem] = useState<SyncProblem>()
  const [cancelled, setCancelled] = useState(false)
  // While this window's own sync:start is pending, its answer (with the error code) decides the outcome; the
  // sync:finished event, which carries only the error text, decides for runs started elsewhere.
  const ownRun = useRef(false)

  const refresh = useCallback(() => {
    client
      .call('sync:get-status')
      .then(setStatus, (error: unknown) =>
        setProblem({ code: errorCode(error), message: errorMessage(error) }),
      )
  }, [client])

  const settle = useCallback(
    (summary: SyncRunSummary, fromEvent: boolean) => {
      setProgress(undefined)
      if (fromEvent && ownRun.current) {
        refresh()
        return
      }
      ownRun.current = false
      setStarting(false)
      // Show the outcome at once; the refresh below then brings the stored status (counts, progress) exactly.
      setStatus((current) => current && withRun(current, summary))
      setCancelled(summary.status === 'cancelled')
      setProblem(
        summary.status === 'failed'
          ? {
              code: isErrorCode(summary.errorCode) ? summary.errorCode : 'service',
              message: summary.error ?? 'The sync did not finish. Try again.',
            }
          : undefined,
      )
      refresh()
    },
    [refresh],
  )

  useEffect(() => {
    const offProgress = client.on('sync:progress', setProgress)
    const offFinished = client.on('sync:finished', (summary) => settle(summary, true))
    refresh()
    return () => {
      offProgress()
      offFinished()
    }
  }, [client, refresh, settle])

  const start = useCallback(() => {
    ownRun.current = true
    setStarting(true)
    setProblem(undefined)
    setCancelled(false)
    client.call('sync:start').then(
      (summary) => settle(summary, false),
      (error: unknown) => {
        ownRun.current = false
        setProgress(undefined)
        setStarting(false)
        if (error instanceof ClientError && error.code === 'cancelled') setCancelled(true)
        else setProblem({ code: errorCode(error), message: errorMessage(error) })
        refresh()
      },
    )
  }, [client, refresh, settle])

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
