import { employeeNumberColumn } from '../../../shared/change-rules'
import type { SyncProgress, SyncRunSummary } from '../../../shared/domain'
import { checkValue, serviceAddressSchema, settingsSchema } from '../../../shared/settings-schema'
import type { SyncScope } from '../../../shared/settings-rules'
import { EMPLOYEE_LIST, ListClient } from '../api/list-client'
import { ACTIVE_STATUS_FILTER } from '../api/list-request'
import type { FetchLike } from '../api/fetch-like'
import type { RetryPolicy } from '../api/retry-policy'
import type { AccessTokenSource } from '../auth/access-token-source'
import type { CacheDatabase, StartedRun } from '../cache/cache-database'
import type { ChangeLogWriter } from '../cache/change-log-file'
import { yieldToEventLoop } from '../cache/snapshot-writer'
import type { Clock } from '../clock'
import { RosterDeskError, isAbortError, toIpcError } from '../errors'
import { logFailure } from '../log/log-failure'
import type { Logger } from '../log/logger'
import { DEFAULT_SETTINGS } from '../settings/settings-defaults'
import { throwIfCancelled, walkList } from './list-walker'
import type { WalkResult } from './list-walker'
import { ProgressMeter } from './progress-meter'
import { SnapshotBuilder, loadPreviousSnapshot } from './snapshot-builder'
import type { PreviousSnapshot } from './snapshot-builder'
import { writeChangeLog } from './change-log-build'

export const DEFAULT_CONCURRENCY = DEFAULT_SETTINGS.concurrency
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
  /** The environment `baseUrl` belongs to ('demo', 'staging', …), recorded in the run log for the change history. */
  readonly environment?: string
  readonly tenantId?: string
  /** Rows asked for per page; the service may serve fewer. */
  readonly pageSize: number
  /** Page requests in flight at once (setting; default 4). */
  readonly concurrency?: number
  /** Pay cycles whose filtered lists are synced into membership, so rosters work offline. */
  readonly trackedPayCycles?: readonly string[]
  /** 'active': every list of the run is asked for active employees only (statusFilter=1). Default 'all'. */
  readonly scope?: SyncScope
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
  const statusFilter = options.scope === 'active' ? ACTIVE_STATUS_FILTER : undefined
  const startedAt = deps.clock.now()
  const { run, writer } = deps.cache.beginRun(
    {
      pageSize: options.pageSize,
      concurrency,
      trackedPayCycles,
      ...(statusFilter === undefined ? {} : { statusFilter }),
      ...(options.tenantId ? { tenantId: options.tenantId } : {}),
      baseUrl: serviceAddress(options.baseUrl),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
    },
    new Date(startedAt),
  )
  const meter = new ProgressMeter(run.id, deps.clock, trackedPayCycles, (progress) =>
    options.onProgress?.(progress),
  )
  const client = new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl: options.baseUrl,
    fetch: deps.fetch,
    tokens: deps.tokens,
    clock: deps.clock,
    random: deps.random,
    ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
    onRetry: (notice) => meter.retrying(notice),
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
  let changeLog: ChangeLogWriter | null = null
  let committed = false
  try {
    options.onStart?.(run.id)
    previous = await loadPreviousSnapshot(deps.cache.currentSnapshot())
    const builder = new SnapshotBuilder(writer, previous)
    const maxPasses = options.maxPasses ?? DEFAULT_MAX_PASSES
    // Commit work started while the last request is out; awaited before the seal, which reports its failure.
    let preparing: Promise<void> = Promise.resolve()

    const main = await walkList(client, {
      pageSize: options.pageSize,
      concurrency,
      maxPasses,
      ...(statusFilter === undefined ? {} : { statusFilter }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onPassStart: (start) => {
        counters.totalCount = start.totalCount
        meter.passStarted(undefined, start.pass, start.totalCount)
      },
      onPage: (page) => {
        builder.addPage(page)
        meter.pageArrived(undefined, page.rows, builder.staged)
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
      const list = { payCycleId, statusFilter }
      const cycle = await syncPayCycle(client, list, options, concurrency, maxPasses, meter)
      writer.addPayCycleMembers(payCycleId, builder.membersOf(payCycleId, cycle.uuids))
    }

    throwIfCancelled(options.signal)
    meter.committing()
    await yieldToEventLoop()
    const searchIndex = builder.searchIndex().serialize()
    await yieldToEventLoop()
    // Who was added, removed or changed, kept for the change history after this snapshot is replaced.
    changeLog = await writeChangeLog({
      cache: deps.cache,
      writer,
      built,
      runId: run.id,
      numberColumn: employeeNumberColumn(builder.searchIndex().identifiers),
      now: new Date(deps.clock.now()),
    })
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
    deps.cache.completeRun(run, summary, built.stored, changeLog?.path)
    committed = true
    try {
      writer.close()
      changeLog?.close()
    } catch (closeError) {
      // The run is complete and swapped in; a handle that would not close must not turn it into a rejection
      // that no caller of a started run expects (the app learns outcomes only from the summary).
      deps.logger?.warn('Sync: could not close the new snapshot file', closeError)
    }
    return summary
  } catch (error) {
    if (committed) throw error
    writer.discard()
    changeLog?.discard()
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
  client: ListClient,
  /** The run's scope applies to pay-cycle lists too: membership is recorded only for employees the run keeps. */
  { payCycleId, statusFilter }: { readonly payCycleId: string; readonly statusFilter: string | undefined },
  options: SyncRunOptions,
  concurrency: number,
  maxPasses: number,
  meter: ProgressMeter,
): Promise<WalkResult> {
  meter.startPayCycle()
  return walkList(client, {
    pageSize: options.pageSize,
    concurrency,
    maxPasses,
    payCycleId,
    ...(statusFilter === undefined ? {} : { statusFilter }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onPassStart: (start) => meter.passStarted(payCycleId, start.pass, start.totalCount),
    onPage: (page) => meter.pageArrived(payCycleId, page.rows),
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
  // The settings' own rules and words: the app and the CLI checked these values with the same schema already.
  for (const checked of [
    checkValue(settingsSchema.shape.pageSize, options.pageSize),
    checkValue(settingsSchema.shape.concurrency, concurrency),
    checkValue(settingsSchema.shape.syncScope, options.scope ?? DEFAULT_SETTINGS.syncScope),
  ]) {
    if (!checked.ok) throw new RosterDeskError('validation', checked.problem)
  }
  if (
    options.maxPasses !== undefined &&
    (!Number.isSafeInteger(options.maxPasses) || options.maxPasses < 1)
  ) {
    throw new RosterDeskError('validation', 'The number of passes must be a whole number of at least 1.')
  }
  const address = checkValue(serviceAddressSchema, options.baseUrl)
  if (!address.ok) throw new RosterDeskError('config', `${address.problem} Check it in Settings.`)
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
