import { EMPLOYEE_LIST } from '../api/list-client'
import { yieldToEventLoop } from '../event-loop'
import { RosterDeskError } from '../errors'
import { limitFields } from './field-limit'
import { wellFormedFieldNames } from './field-names'
import { walkList } from './list-walker'
import type { WalkResult } from './list-walker'
import type { ArrivedPage } from './walk-types'
import type { BuiltSnapshot, SnapshotBuilder } from './snapshot-builder'
import type { RunPages, SyncRun } from './sync-run'

/** The main list as proven complete, and the snapshot staged from it. */
export interface MainList {
  readonly main: WalkResult
  readonly built: BuiltSnapshot
  readonly builder: SnapshotBuilder
}

/**
 * Walks the whole employee list into the run's snapshot: each page stored as it arrives (its fields within
 * `maxFieldCharacters`), the commit's indexes prepared while the second look at page 1 is out, then the rows
 * the final pass did not contain dropped. Page 1 asks for the run's first page size; the rest of the list is read
 * at the size the service served (list-walker.ts).
 *
 * `staging` is the builder, ready once the previous snapshot's fingerprints are loaded: the first requests go out
 * meanwhile, and pages that arrive before it wait (list-walker.ts, `stagingReady`). Loading them first held every
 * later sync's first request back by as long as the load took (about 0.1 s per 100,000 employees).
 */
export async function syncMainList(
  ctx: SyncRun,
  pages: RunPages,
  staging: Promise<SnapshotBuilder>,
): Promise<MainList> {
  const { plan, counters, meter } = ctx
  let staged: SnapshotBuilder | undefined
  const ready = staging.then((builder) => {
    staged = builder
  })
  // Reported by the walk when a page waits for it, or at the await below; never left unhandled.
  ready.catch(() => undefined)
  const builderOf = (): SnapshotBuilder => {
    if (staged === undefined) throw new Error('a page was staged before its builder was ready')
    return staged
  }
  // Commit work started while the last request is out; awaited before the finish, which reports its failure.
  let preparing: Promise<void> = Promise.resolve()
  const main = await walkList(pages.source, {
    pageSize: pages.sizes.firstRequest,
    guessSize: pages.sizes.guessSize,
    concurrency: plan.concurrency,
    maxPasses: plan.maxPasses,
    maxTotalCount: plan.limits.maxEmployees,
    ...(plan.statusFilter === undefined ? {} : { statusFilter: plan.statusFilter }),
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    onPassStart: (start) => {
      counters.totalCount = start.totalCount
      meter.passStarted(undefined, start.pass, start.totalCount)
    },
    stagingReady: ready,
    onPage: (arrived) => {
      const page = withinFieldLimit(ctx, arrived)
      const builder = builderOf()
      builder.addPage(page)
      ctx.deps.checkpoint?.('page-staged')
      meter.pageArrived(undefined, page.rows, builder.staged)
    },
    onPagesIn: () => {
      const builder = builderOf()
      preparing = preparing.then(() => builder.prepareCommit())
      // Handled at the await below; a walk that fails first must not leave it unhandled.
      preparing.catch(() => undefined)
    },
  })
  counters.totalCount = main.totalCount
  counters.pages = main.pages

  // An empty list stages no page, so nothing above has waited for the builder.
  await ready
  const builder = builderOf()
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
  return { main, built, builder }
}

const KEEP_WHOLE: ReadonlySet<string> = new Set([EMPLOYEE_LIST.idField ?? 'UUID'])

/**
 * The page as stored: every field within `maxFieldCharacters` and `MAX_FIELD_DEPTH`, the cut ones counted for the
 * summary, and so are its numbers kept as text (exact-json.ts); every field name well-formed text (field-names.ts).
 */
function withinFieldLimit(ctx: SyncRun, page: ArrivedPage): ArrivedPage {
  ctx.counters.numbersTooLarge += page.numbersAsText?.tooLarge ?? 0
  ctx.counters.numbersTooSmall += page.numbersAsText?.tooSmall ?? 0
  let cut = 0
  let deep = 0
  let renamed = false
  const rows = page.rows.map((row) => {
    const named = wellFormedFieldNames(row)
    if (named !== row) renamed = true
    const limited = limitFields(named, ctx.plan.limits.maxFieldCharacters, KEEP_WHOLE)
    cut += limited.truncated
    deep += limited.deep
    return limited.row
  })
  if (cut === 0 && !renamed) return page
  ctx.counters.truncatedFields += cut
  ctx.counters.deepFields += deep
  return { ...page, rows }
}
