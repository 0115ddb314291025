import type { SyncProgress, SyncRunSummary } from '../../../shared/domain/sync'
import type { FetchLike } from '../../core/api/fetch-like'
import { BodyTooLargeError } from '../../core/api/http-json'
import type { AccessTokenSource } from '../../core/api/access-token-source'
import { openCacheDatabase } from '../../core/cache/cache-database'
import type { CacheKey } from '../../core/sqlite/cache-key'
import type { SealedSnapshot } from '../../core/cache/cache-database'
import { systemClock } from '../../core/clock'
import { RosterDeskError } from '../../core/errors'
import type { Logger } from '../../core/log/logger'
import { runSync } from '../../core/sync/sync-engine'
import type { SyncStartOptions } from '../../core/sync/sync-service'
import type { JobContext } from './serve-jobs'
import type { CallSpec } from './worker-protocol'

/** A request the worker's sync makes; the host sends it with its own fetch and reads the answer's body. */
export interface ProxiedRequest {
  readonly url: string
  readonly method: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body?: string
  /** The largest body the run takes of one answer (its page limit): the host refuses a larger one as it reads. */
  readonly maxBodyBytes: number
}

export interface ProxiedResponse {
  readonly status: number
  readonly statusText: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  /** The whole body; null when it was larger than `maxBodyBytes`, and the host stopped reading it. */
  readonly body: ArrayBuffer | null
}

/** What the sync job asks of the host: only it has the injected fetch, and the tokens (with the secret store). */
export type SyncCalls = {
  readonly fetch: CallSpec<ProxiedRequest, ProxiedResponse>
  readonly 'access-token': CallSpec<null, string>
  readonly 'refresh-token': CallSpec<string, string>
}

export interface SyncJobInput {
  readonly catalogPath: string
  readonly options: SyncStartOptions
  /** The snapshot a sync of this process sealed, as the main thread's cache records it (`sealedSnapshot`). */
  readonly sealed?: SealedSnapshot
}

/** How the run ended, and the record its connection then holds of the snapshot this process sealed. */
export interface SyncJobResult {
  readonly summary: SyncRunSummary
  /**
   * The worker's `sealedSnapshot` once the run ended: the snapshot it committed, none after a failure (its base
   * may be what failed), the input's after a cancel. Plain data; the main thread adopts it in one step.
   */
  readonly sealed: SealedSnapshot | null
}

/** What the job reports on the way: the run's id once logged, its progress, and what it logs. */
export type SyncJobEvent =
  | { readonly kind: 'started'; readonly runId: number }
  | { readonly kind: 'progress'; readonly progress: SyncProgress }
  | {
      readonly kind: 'log'
      readonly level: 'info' | 'warn' | 'error'
      readonly message: string
      readonly detail?: string
    }

type SyncContext = JobContext<SyncJobEvent, SyncCalls>

/**
 * One sync run on the core worker: the same `runSync` over a writer connection of the worker's own to the cache
 * (as a `cli sync` beside the app has), so parsing pages, writing them and indexing never hold the thread that
 * answers IPC. The main thread sees the commit through the catalog, as it sees a CLI's.
 *
 * Every request goes to the host, which sends it and reads the answer's body: the one fetch path, because the
 * app's fetch (Electron's `net.fetch`) lives on the host's main thread and not in a worker. The host, reading the
 * bytes, holds each answer to the run's largest page; the run relies on it (`fetchWithin`) and does not count the
 * bytes again, and a refusal reaches the list client as the `BodyTooLargeError` it words with the page and the
 * setting (decision 036).
 */
export async function runSyncJob(
  input: SyncJobInput,
  context: SyncContext,
  key: CacheKey,
): Promise<SyncJobResult> {
  const logger = workerLogger(context)
  const cache = openCacheDatabase(input.catalogPath, { key, logger })
  if (input.sealed !== undefined) cache.adoptSealedSnapshot(input.sealed)
  try {
    const summary = await runSync(
      {
        cache,
        fetchWithin: (maxBodyBytes) => proxiedFetch(context, maxBodyBytes),
        tokens: proxiedTokens(context),
        clock: systemClock,
        random: Math.random,
        logger,
      },
      {
        ...input.options,
        signal: context.signal,
        onStart: (runId) => context.progress({ kind: 'started', runId }),
        onProgress: (progress) => context.progress({ kind: 'progress', progress }),
      },
    )
    return { summary, sealed: cache.sealedSnapshot }
  } finally {
    cache.close()
  }
}

function proxiedFetch(context: SyncContext, maxBodyBytes: number): FetchLike {
  return async (url, init = {}) => {
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
      throw new TypeError('The sync worker sends only text bodies')
    }
    let answer: ProxiedResponse
    try {
      answer = await context.call(
        'fetch',
        {
          url,
          method: init.method ?? 'GET',
          headers: [...new Headers(init.headers).entries()],
          ...(typeof init.body === 'string' ? { body: init.body } : {}),
          maxBodyBytes,
        },
        init.signal ?? undefined,
      )
    } catch (error) {
      if (init.signal?.aborted === true) throw error
      // A failure the host's fetch already named (offline, a proxy's sign-in, a certificate, a name that does
      // not resolve: electron-net-fetch.ts) keeps its code, message and retryability.
      if (error instanceof RosterDeskError && error.code !== 'internal') throw error
      // The host's fetch failed as a fetch fails (no connection): the client's own rules classify and retry it.
      throw new TypeError('fetch failed', {
        cause: { code: error instanceof RosterDeskError ? error.detail : 'proxy' },
      })
    }
    // A redirect comes back as the 3xx it is, its Location among the headers: requestJson (redirects.ts) decides.
    // Over the limit, as the host found while reading it: the list client says which page and what to change.
    if (answer.body === null) throw new BodyTooLargeError(maxBodyBytes, answer.status, 'the payroll service')
    const empty = answer.status === 204 || answer.status === 205 || answer.status === 304
    return new Response(empty ? null : answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers.map(([name, value]): [string, string] => [name, value]),
    })
  }
}

function proxiedTokens(context: SyncContext): AccessTokenSource {
  return {
    getAccessToken: (signal) => context.call('access-token', null, signal),
    handleUnauthorized: (rejected, signal) => context.call('refresh-token', rejected, signal),
  }
}

function workerLogger(context: SyncContext): Logger {
  const at =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, error?: unknown): void => {
      const detail = error === undefined ? undefined : describe(error)
      context.progress({ kind: 'log', level, message, ...(detail === undefined ? {} : { detail }) })
    }
  return { info: at('info'), warn: at('warn'), error: at('error') }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const detail = error instanceof RosterDeskError && error.detail !== undefined ? `\n${error.detail}` : ''
  return `${error.stack ?? error.message}${detail}`
}
