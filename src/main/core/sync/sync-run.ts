import type { SyncRunSummary } from '../../../shared/domain/sync'
import { EMPLOYEE_LIST, ListClient } from '../api/list-client'
import type { StartedRun } from '../cache/sync-runs'
import type { SnapshotReader } from '../snapshot/snapshot-reader'
import type { SnapshotWriter } from '../snapshot/snapshot-writer'
import type { PageSource } from './walk-types'
import { PageSizeNegotiation, planPageSize, readPageSizeMemory } from './page-size'
import type { PageSizePlan } from './page-size'
import { ProgressMeter } from './progress-meter'
import { RunDeadline } from './run-deadline'
import type { RunPlan, SyncDependencies, SyncRunOptions } from './sync-options'

/** What a run has counted so far, for its summary. */
export interface RunCounters {
  totalCount: number
  stored: number
  pages: number
  /** Fields cut to `maxFieldCharacters` in the rows stored. */
  truncatedFields: number
  /** Of those, fields nested deeper than `MAX_FIELD_DEPTH` (field-limit.ts), for the log. */
  deepFields: number
  /** Numbers beyond a double's range kept as their text in the pages stored (exact-json.ts). */
  numbersTooLarge: number
  numbersTooSmall: number
}

/**
 * One run's context, built once when the run is logged and handed to each step (the main list, the pay-cycle
 * lists, the commit): the dependencies, the checked plan, the run's files, its progress meter and its one list
 * client. Nothing in it is threaded through the steps one by one.
 */
export interface SyncRun {
  readonly deps: SyncDependencies
  readonly plan: RunPlan
  readonly run: StartedRun
  readonly writer: SnapshotWriter
  readonly meter: ProgressMeter
  /** Every list request of the run: the deadline checked, then the list client. */
  readonly source: PageSource
  readonly signal: AbortSignal | undefined
  /** On the injected clock. */
  readonly startedAt: number
  readonly counters: RunCounters
  /** HTTP requests sent so far, retries and refusals included. */
  requests(): number
}

/**
 * Logs the run as started (rejecting when it cannot start: another run is writing the cache) and builds its
 * context: the clock goes to the meter and the deadline, clock and jitter to the list client, once.
 */
export function startRun(deps: SyncDependencies, plan: RunPlan, options: SyncRunOptions): SyncRun {
  const startedAt = deps.clock.now()
  const { run, writer } = deps.cache.runs.beginRun(plan.settings, new Date(startedAt))
  const meter = new ProgressMeter(run.id, deps.clock, plan.trackedPayCycles, (progress) =>
    options.onProgress?.(progress),
  )
  const deadline = new RunDeadline(deps.clock, startedAt, plan.limits.syncDeadlineMinutes * 60_000)
  // The largest answer to one page, held by the side that reads the body (SyncFetch).
  const maxPageBytes = plan.limits.maxPageMegabytes * 1024 * 1024
  const client = new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl: options.baseUrl,
    ...(deps.fetchWithin === undefined
      ? { fetch: deps.fetch, maxResponseBytes: maxPageBytes }
      : { fetch: deps.fetchWithin(maxPageBytes) }),
    tokens: deps.tokens,
    clock: deps.clock,
    random: deps.random,
    ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    timeoutMs: plan.limits.requestTimeoutSeconds * 1000,
    onRetry: (notice) => {
      deadline.checkWait(notice)
      meter.retrying(notice)
    },
  })
  return {
    deps,
    plan,
    run,
    writer,
    meter,
    source: {
      fetchPage: (request, signal) => {
        deadline.check()
        return client.fetchPage(request, signal)
      },
    },
    signal: options.signal,
    startedAt,
    counters: {
      totalCount: 0,
      stored: 0,
      pages: 0,
      truncatedFields: 0,
      deepFields: 0,
      numbersTooLarge: 0,
      numbersTooSmall: 0,
    },
    requests: () => client.requests,
  }
}

/** The page sizes of a run and the source every list of it reads through (page-size.ts). */
export interface RunPages {
  readonly sizes: PageSizePlan
  readonly source: PageSizeNegotiation
}

/** Plans the run's page sizes from what the previous run of the same source learned (`snapshot`; none if other). */
export function planPages(ctx: SyncRun, snapshot: SnapshotReader | null): RunPages {
  const memory = readPageSizeMemory(snapshot)
  const sizes = planPageSize(ctx.plan.pageSize, ctx.plan.pageSizing, memory)
  return { sizes, source: new PageSizeNegotiation(ctx.source, sizes.fallback, memory.refusedLimit) }
}

/** The run's summary as it stands, ended now. */
export function summaryOf(
  ctx: SyncRun,
  status: SyncRunSummary['status'],
  extra: Partial<SyncRunSummary> = {},
): SyncRunSummary {
  const endedAt = ctx.deps.clock.now()
  return {
    id: ctx.run.id,
    status,
    startedAt: ctx.run.startedAt,
    endedAt: new Date(endedAt).toISOString(),
    totalCount: ctx.counters.totalCount,
    stored: ctx.counters.stored,
    pages: ctx.counters.pages,
    requests: ctx.requests(),
    durationMs: Math.max(0, endedAt - ctx.startedAt),
    ...extra,
  }
}
