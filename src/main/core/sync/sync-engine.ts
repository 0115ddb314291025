import type { SyncProgress, SyncRunSummary } from '../../../shared/domain'
import { EmployeesClient } from '../api/employees-client'
import type { FetchLike } from '../api/fetch-like'
import type { RetryPolicy } from '../api/retry-policy'
import type { AccessTokenSource } from '../auth/access-token-source'
import type { CacheDatabase, StartedRun } from '../cache/cache-database'
import { yieldToEventLoop } from '../cache/snapshot-writer'
import type { Clock } from '../clock'
import { RosterDeskError, isAbortError, toIpcError } from '../errors'
import { logFailure } from '../log/log-failure'
import type { Logger } from '../log/logger'
import { throwIfCancelled, walkList } from './list-walker'
import type { WalkResult } from './list-walker'
import { ProgressMeter } from './progress-meter'
import { SnapshotBuilder, loadPreviousSnapshot } from './snapshot-builder'
import type { PreviousSnapshot } from './snapshot-builder'

export const DEFAULT_CONCURRENCY = 4
export const DEFAULT_MAX_PASSES = 3

/** Everything a run talks to, passed in so tests can fake any of it. */
export interface SyncDependencies {
  readonly cache: CacheDatabase
  readonly fetch: FetchLike
  readonly tokens: AccessTokenSource
  readonly clock: Clock
  /** [0, 1) for backoff jitter. */
  readonly random: () => number
  /** Where a failed run's error (its detail, causes and stack) goes; the summary keeps only the clerk's message. */
  readonly logger?: Logger
}

export interface SyncRunOptions {
  readonly baseUrl: string
  readonly tenantId?: string
  /** Rows asked for per page; the service may serve fewer. */
  readonly pageSize: number
  /** Page requests in flight at once (setting; default 4). */
  readonly concurrency?: number
  /** Pay cycles whose filtered lists are synced into membership, so rosters work offline. */
  readonly trackedPayCycles?: readonly string[]
  /** Full passes over a list that keeps changing before the run gives up. */
  readonly maxPasses?: number
  readonly retry?: Partial<RetryPolicy>
  readonly requestTimeoutMs?: number
  readonly signal?: AbortSignal
  readonly onProgress?: (progress: SyncProgress) => void
  /** Told the run id as soon as the run is logged (before any request). */
  readonly onStart?: (runId: number) => void
}

interface RunCounters {
  totalCount: number
  stored: number
  pages: number
}

/**
 * One sync run: lists every employee, proves the list complete, writes a new snapshot as pages arrive, and
 * swaps it in with one catalog transaction. Resolves with the run's summary whatever the outcome; a failed or
 * cancelled run leaves the previous snapshot exactly as it was. Rejects only when the run cannot start (another
 * run is writing the cache, or the options are unusable).
 */
export async function runSync(deps: SyncDependencies, options: SyncRunOptions): Promise<SyncRunSummary> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY
  checkOptions(options, concurrency)
  const trackedPayCycles = [...new Set(options.trackedPayCycles ?? [])]
  const startedAt = deps.clock.now()
  const { run, writer } = deps.cache.beginRun(
    {
      pageSize: options.pageSize,
      concurrency,
      trackedPayCycles,
      ...(options.tenantId ? { tenantId: options.tenantId } : {}),
      baseUrl: serviceAddress(options.baseUrl),
    },
    new Date(startedAt),
  )
  const client = new EmployeesClient({
    baseUrl: options.baseUrl,
    fetch: deps.fetch,
    tokens: deps.tokens,
    clock: deps.clock,
    random: deps.random,
    ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
  })
  const counters: RunCounters = { totalCount: 0, stored: 0, pages: 0 }
  const summaryOf = (
    status: SyncRunSummary['status'],
    extra: Partial<SyncRunSummary> = {},
  ): SyncRunSummary => {
    const endedAt = deps.clock.now()
    return {
      id: run.id,
      status,
      startedAt: run.startedAt,
      endedAt: new Date(endedAt).toISOString(),
      totalCount: counters.totalCount,
      stored: counters.stored,
      pages: counters.pages,
      requests: client.requests,
      durationMs: Math.max(0, endedAt - startedAt),
      ...extra,
    }
  }

  let previous: PreviousSnapshot | null = null
  let committed = false
  try {
    options.onStart?.(run.id)
    previous = await loadPreviousSnapshot(deps.cache.currentSnapshot())
    const meter = new ProgressMeter(run.id, deps.clock, (progress) => options.onProgress?.(progress))
    const builder = new SnapshotBuilder(writer, previous)
    const maxPasses = options.maxPasses ?? DEFAULT_MAX_PASSES
    // Commit work started while the last request is out; awaited before the seal, which reports its failure.
    let preparing: Promise<void> = Promise.resolve()

    const main = await walkList(client, {
      pageSize: options.pageSize,
      concurrency,
      maxPasses,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onPassStart: (start) => {
        counters.totalCount = start.totalCount
        meter.begin(start.pass === 1 ? 'listing' : 'reconciling', start.pages)
      },
      onPage: (page) => {
        builder.addPage(page)
        meter.pageDone(builder.staged)
      },
      onPagesIn: () => {
        preparing = preparing.then(() => builder.prepareCommit())
        // Handled at the await below; a walk that fails first must not leave it unhandled.
        preparing.catch(() => undefined)
      },
    })
    counters.totalCount = main.totalCount
    counters.pages = main.pages

    await preparing
    await yieldToEventLoop()
    const built = builder.finish(main)
    counters.stored = built.stored
    if (built.stored !== main.totalCount) {
      throw new RosterDeskError(
        'internal',
        'RosterDesk could not store every employee it received. Sync again.',
        {
          detail: `stored ${built.stored} of ${main.totalCount}`,
        },
      )
    }

    for (const payCycleId of trackedPayCycles) {
      const cycle = await syncPayCycle(
        client,
        payCycleId,
        options,
        concurrency,
        maxPasses,
        meter,
        builder.staged,
      )
      writer.addPayCycleMembers(payCycleId, builder.membersOf(payCycleId, cycle.uuids))
    }

    throwIfCancelled(options.signal)
    meter.begin('committing', 0)
    await yieldToEventLoop()
    const searchIndex = builder.searchIndex().serialize()
    await yieldToEventLoop()
    await writer.seal({
      columns: built.columns,
      removed: built.removed,
      info: snapshotInfo(run, main, trackedPayCycles, startedAt),
      searchIndex,
    })
    // The last moment a cancel can still win: after this the swap happens.
    throwIfCancelled(options.signal)
    const summary = summaryOf('complete', { changes: built.changes })
    previous?.release()
    previous = null
    deps.cache.completeRun(run, summary, built.stored)
    committed = true
    writer.close()
    return summary
  } catch (error) {
    if (committed) throw error
    writer.discard()
    previous?.release()
    const cancelled = options.signal?.aborted === true || isAbortError(error)
    const reason = toIpcError(error)
    const summary = summaryOf(
      cancelled ? 'cancelled' : 'failed',
      cancelled
        ? {
            error: 'The sync was cancelled. The cache still holds the previous employees.',
            errorCode: 'cancelled',
          }
        : { error: reason.message, errorCode: reason.code },
    )
    if (!cancelled && deps.logger) logFailure(deps.logger, 'Sync failed', error)
    try {
      deps.cache.endRun(summary)
    } catch (endError) {
      // The outcome is still reported to the caller; the run log gains it on the next sweep (as interrupted).
      deps.logger?.warn('Sync: could not record the end of the run in the cache', endError)
    }
    return summary
  }
}

async function syncPayCycle(
  client: EmployeesClient,
  payCycleId: string,
  options: SyncRunOptions,
  concurrency: number,
  maxPasses: number,
  meter: ProgressMeter,
  rows: number,
): Promise<WalkResult> {
  return walkList(client, {
    pageSize: options.pageSize,
    concurrency,
    maxPasses,
    payCycleId,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onPassStart: (start) => meter.begin('pay-cycles', start.pages),
    onPage: () => meter.pageDone(rows),
  })
}

function snapshotInfo(
  run: StartedRun,
  main: WalkResult,
  trackedPayCycles: readonly string[],
  startedAt: number,
): Record<string, string> {
  return {
    run_id: String(run.id),
    previous_run_id: run.previousRunId === null ? '' : String(run.previousRunId),
    total_count: String(main.totalCount),
    page_limit: String(main.limit),
    passes: String(main.pass),
    tracked_pay_cycles: JSON.stringify(trackedPayCycles),
    started_at: new Date(startedAt).toISOString(),
  }
}

function checkOptions(options: SyncRunOptions, concurrency: number): void {
  if (!Number.isSafeInteger(options.pageSize) || options.pageSize < 1 || options.pageSize > 10_000) {
    throw new RosterDeskError('validation', 'The page size must be a whole number from 1 to 10,000.')
  }
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    throw new RosterDeskError(
      'validation',
      'The number of parallel requests must be a whole number from 1 to 16.',
    )
  }
  if (
    options.maxPasses !== undefined &&
    (!Number.isSafeInteger(options.maxPasses) || options.maxPasses < 1)
  ) {
    throw new RosterDeskError('validation', 'The number of passes must be a whole number of at least 1.')
  }
  let url: URL | undefined
  try {
    url = new URL(options.baseUrl)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new RosterDeskError(
      'config',
      'The payroll service address is not a web address. Check it in Settings.',
    )
  }
}

/** The base URL as the run log keeps it: never user info, which could carry a password. */
function serviceAddress(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    url.username = ''
    url.password = ''
    return url.toString().replace(/\/$/, '')
  } catch {
    return ''
  }
}
