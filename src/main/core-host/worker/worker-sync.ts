import type { SyncRunSummary } from '../../../shared/domain/sync'
import type { FetchLike } from '../../core/api/fetch-like'
import { classifyNetworkFailure } from '../../core/net/network-failure'
import { BodyTooLargeError, readBodyWithin } from '../../core/api/http-json'
import type { AccessTokenSource } from '../../core/api/access-token-source'
import type { CacheDatabase } from '../../core/cache/cache-database'
import type { SyncRuns } from '../../core/cache/sync-runs'
import { toIpcError } from '../../core/errors'
import type { Logger } from '../../core/log/logger'
import type { SyncRunner } from '../../core/sync/sync-service'
import type { CoreJobs } from './core-jobs'
import type { ProxiedRequest, ProxiedResponse } from './sync-job'
import type { CallHandlers } from './worker-host'
import type { WorkerHost } from './worker-host'

export interface WorkerSyncDeps {
  /**
   * The app's open cache: its path for the worker, its run log if the worker dies mid-run, and its record of the
   * snapshot this process sealed, handed to each run and replaced by the one the run ends with.
   */
  readonly cache: Pick<CacheDatabase, 'path' | 'sealedSnapshot' | 'adoptSealedSnapshot'> & {
    readonly runs: Pick<SyncRuns, 'sweep' | 'lastRun'>
  }
  /** The app's fetch, which only this thread has: every request of the worker's run is sent with it. */
  readonly fetch: FetchLike
  readonly tokens: AccessTokenSource
  readonly logger: Logger
}

/** A run winds down (discards its file, logs its end) before it answers a cancel; give it time before ending it. */
const SYNC_CANCEL_GRACE_MS = 60_000

/**
 * Runs each sync on the core worker (sync-job.ts), with this thread's fetch and tokens answering its calls. The
 * worker asks this thread to fetch, and this thread reads each body and holds it to the run's page limit: the
 * one path of the sync's requests, because the app's fetch (Electron's `net.fetch`) exists on this thread and
 * not in a worker (decision 036).
 * Keeps `runSync`'s promise: resolves with the summary whatever the outcome once the run is logged; rejects only
 * when it cannot start. A worker that dies mid-run leaves its run to the cache's sweep, which records it as
 * interrupted, and that record is the summary.
 */
export function workerSyncRunner(host: WorkerHost<CoreJobs>, deps: WorkerSyncDeps): SyncRunner {
  return async (options) => {
    const { signal, onProgress, onStart, ...plain } = options
    let runId: number | undefined
    const calls: CallHandlers<CoreJobs['sync']['calls']> = {
      fetch: async (request, callSignal) => {
        const answer = await proxyFetch(deps.fetch, request, callSignal)
        return { value: answer, transfer: answer.body === null ? [] : [answer.body] }
      },
      'access-token': async (_, callSignal) => ({ value: await deps.tokens.getAccessToken(callSignal) }),
      'refresh-token': async (rejected, callSignal) => ({
        value: await deps.tokens.handleUnauthorized(rejected, callSignal),
      }),
    }
    try {
      const { summary, sealed } = await host.run(
        'sync',
        {
          catalogPath: deps.cache.path,
          options: plain,
          ...(deps.cache.sealedSnapshot === null ? {} : { sealed: deps.cache.sealedSnapshot }),
        },
        {
          calls,
          cancelGraceMs: SYNC_CANCEL_GRACE_MS,
          ...(signal === undefined ? {} : { signal }),
          onProgress: (event) => {
            if (event.kind === 'started') {
              runId = event.runId
              onStart?.(event.runId)
            } else if (event.kind === 'progress') onProgress?.(event.progress)
            else deps.logger[event.level](event.message, event.detail)
          },
        },
      )
      // In one step, the record the worker's connection ended with: the file it wrote and sealed, which this
      // thread then opens without reading it all again; none after a failure, which may have been on the base it
      // was told to trust, so the next run checks it (SyncRuns.endRun).
      deps.cache.adoptSealedSnapshot(sealed)
      return summary
    } catch (error) {
      if (runId === undefined) throw error
      deps.cache.adoptSealedSnapshot(null)
      return interruptedRun(deps, runId, error)
    }
  }
}

/**
 * The host's side of a proxied request: sent with the app's fetch (never following a redirect: a 3xx is answered
 * as it came, for the worker's `requestJson` to judge), its body read here, where it arrives, and held
 * to the run's page limit (`readBodyWithin`: a declared length over it refused before reading, the stream
 * cancelled at the first chunk past it). A body over the limit is answered as none: the worker's run relies on
 * this check and has its list client word the refusal.
 */
async function proxyFetch(
  fetch: FetchLike,
  request: ProxiedRequest,
  signal: AbortSignal,
): Promise<ProxiedResponse> {
  let response: Response
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers.map(([name, value]): [string, string] => [name, value]),
      ...(request.body === undefined ? {} : { body: request.body }),
      // Never followed here: the 3xx goes back whole (status, Location) to the worker's requestJson, which
      // follows it only within the service's origin (redirects.ts), the one place that rule lives.
      redirect: 'manual',
      signal,
    })
  } catch (error) {
    if (signal.aborted) throw error
    // Named here, where the failure still has its cause (undici's ECONNREFUSED, Electron's net::ERR_…, the
    // adapter's NetworkFailureError with a certificate's issuer): only a RosterDeskError's code, message and
    // retryability cross to the worker, which retries it by those (list-client.ts) as it would its own.
    throw classifyNetworkFailure(error, { what: 'the payroll service', url: request.url })
  }
  const answer = {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers.entries()],
  }
  try {
    const body = await readBodyWithin(response, request.maxBodyBytes)
    return { ...answer, body: body.buffer as ArrayBuffer }
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { ...answer, body: null }
    throw error
  }
}

/** The run the worker could not finish, as the cache's sweep records it once the worker let go of its file. */
function interruptedRun(deps: WorkerSyncDeps, runId: number, error: unknown): SyncRunSummary {
  deps.logger.error(`Sync ${runId}: the core worker stopped during the run`, error)
  deps.cache.runs.sweep()
  const logged = deps.cache.runs.lastRun()
  if (logged !== undefined && logged.id === runId) return logged
  const now = new Date().toISOString()
  const ipc = toIpcError(error)
  return {
    id: runId,
    status: 'failed',
    startedAt: logged?.startedAt ?? now,
    endedAt: now,
    totalCount: 0,
    stored: 0,
    pages: 0,
    requests: 0,
    durationMs: 0,
    error: ipc.message,
    errorCode: ipc.code,
  }
}
