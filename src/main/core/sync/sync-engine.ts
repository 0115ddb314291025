import type { SyncRunSummary } from '../../../shared/domain/sync'
import { isAbortError, toIpcError } from '../errors'
import { logFailure } from '../log/log-failure'
import { commitSnapshot } from './commit-snapshot'
import { MAX_FIELD_DEPTH } from './field-limit'
import { throwIfCancelled } from './list-walker'
import type { WalkResult } from './list-walker'
import { syncMainList } from './main-list'
import type { MainList } from './main-list'
import { refusedPageInfo } from './page-size'
import { syncPayCycleLists } from './pay-cycle-lists'
import { comparableSnapshot } from './same-source'
import { SnapshotBuilder, loadPreviousSnapshot } from './snapshot-builder'
import type { PreviousSnapshot } from './snapshot-builder'
import { planRun } from './sync-options'
import type { SyncDependencies, SyncRunOptions } from './sync-options'
import { planPages, startRun, summaryOf } from './sync-run'
import type { RunPages, SyncRun } from './sync-run'

export type { SyncDependencies, SyncLimits, SyncRunOptions } from './sync-options'

/**
 * One sync run: lists every employee, proves the list complete, writes a new snapshot as pages arrive, and
 * swaps it in with one catalog transaction. Three steps over one context (sync-run.ts): the main list
 * (main-list.ts), the pay-cycle lists (pay-cycle-lists.ts) and the commit (commit-snapshot.ts). Resolves with the
 * run's summary whatever the outcome; a failed or cancelled run leaves the previous snapshot exactly as it was.
 * Rejects only when the run cannot start (another run is writing the cache, or the options are unusable).
 */
export async function runSync(deps: SyncDependencies, options: SyncRunOptions): Promise<SyncRunSummary> {
  const plan = planRun(options)
  const ctx = startRun(deps, plan, options)
  deps.checkpoint?.('run-logged')
  let previous: PreviousSnapshot | null = null
  let loading: Promise<SnapshotBuilder> | undefined
  try {
    options.onStart?.(ctx.run.id)
    // Compared with the previous snapshot only when that run read the same source (same-source.ts); so is what
    // it learned of the page sizes the service serves.
    const comparable = comparableSnapshot(deps.cache, plan.settings)
    const pages = planPages(ctx, comparable)
    // Loaded while the list's first requests are out (main-list.ts); awaited before any page is staged.
    loading = loadPreviousSnapshot(comparable).then((loaded) => {
      previous = loaded
      return new SnapshotBuilder(ctx.writer, loaded)
    })
    const listed = await syncMainList(ctx, pages, loading)
    const builder = listed.builder
    await syncPayCycleLists(ctx, pages, builder, listed.main)
    throwIfCancelled(ctx.signal)
    deps.checkpoint?.('lists-walked')
    ctx.meter.committing()
    const summary = await commitSnapshot({
      cache: deps.cache,
      run: ctx.run,
      writer: ctx.writer,
      builder,
      built: listed.built,
      previous,
      info: snapshotInfo(ctx, listed, pages),
      now: new Date(deps.clock.now()),
      summarize: () => completeSummary(ctx, listed),
      ...(deps.logger === undefined ? {} : { logger: deps.logger }),
      ...(deps.checkpoint === undefined ? {} : { checkpoint: deps.checkpoint }),
    })
    logKeptValues(ctx)
    return summary
  } catch (error) {
    // A walk can fail while the previous snapshot is still loading: let the load end, so its file is let go.
    await loading?.catch(() => undefined)
    return failedRun(ctx, error, previous)
  }
}

/** Warns in the log of the values the run kept other than as sent: cut, too deep, numbers kept as text. */
function logKeptValues({ counters, deps, plan }: SyncRun): void {
  const { truncatedFields: cut, deepFields: deep, numbersTooLarge, numbersTooSmall } = counters
  if (cut > deep) {
    deps.logger?.warn(
      `Sync: ${cut - deep} field value(s) longer than ${plan.limits.maxFieldCharacters} characters were cut and end with “…”`,
    )
  }
  if (deep > 0) {
    deps.logger?.warn(
      `Sync: ${deep} field value(s) nested deeper than ${MAX_FIELD_DEPTH} levels were kept as the start of their text, ending with “…”`,
    )
  }
  if (numbersTooLarge + numbersTooSmall > 0) {
    deps.logger?.warn(
      `Sync: ${numbersTooLarge} number(s) too large and ${numbersTooSmall} too small for a double were kept as their text`,
    )
  }
}

/** The summary of a run whose snapshot is sealed; a cancel that came meanwhile still wins here. */
function completeSummary(ctx: SyncRun, listed: MainList): SyncRunSummary {
  throwIfCancelled(ctx.signal)
  const { truncatedFields: cut, numbersTooLarge: tooLarge, numbersTooSmall: tooSmall } = ctx.counters
  return summaryOf(ctx, 'complete', {
    changes: listed.built.changes,
    ...(cut === 0 ? {} : { truncatedFields: cut }),
    ...(tooLarge === 0 ? {} : { numbersTooLarge: tooLarge }),
    ...(tooSmall === 0 ? {} : { numbersTooSmall: tooSmall }),
  })
}

/** Discards the run's files, keeps the previous snapshot, and records and returns how the run ended. */
function failedRun(ctx: SyncRun, error: unknown, previous: PreviousSnapshot | null): SyncRunSummary {
  const { deps } = ctx
  ctx.writer.discard()
  previous?.release()
  const cancelled = ctx.signal?.aborted === true || isAbortError(error)
  const reason = toIpcError(error)
  const summary = summaryOf(
    ctx,
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
    deps.cache.runs.endRun(summary)
  } catch (endError) {
    // The outcome is still reported to the caller; the run log gains it on the next sweep (as interrupted).
    deps.logger?.warn('Sync: could not record the end of the run in the cache', endError)
  }
  return summary
}

function snapshotInfo(ctx: SyncRun, { main }: { main: WalkResult }, pages: RunPages): Record<string, string> {
  const { run, plan } = ctx
  return {
    run_id: String(run.id),
    previous_run_id: run.previousRunId === null ? '' : String(run.previousRunId),
    total_count: String(main.totalCount),
    page_limit: String(main.limit),
    ...refusedPageInfo(pages.source.refusedLimit),
    passes: String(main.pass),
    tracked_pay_cycles: JSON.stringify(plan.trackedPayCycles),
    started_at: new Date(ctx.startedAt).toISOString(),
    truncated_fields: String(ctx.counters.truncatedFields),
  }
}
