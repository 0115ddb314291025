import { walkList } from './list-walker'
import type { WalkResult } from './list-walker'
import type { SnapshotBuilder } from './snapshot-builder'
import type { RunPages, SyncRun } from './sync-run'

/**
 * Walks each tracked pay cycle's filtered list (`payCycleId`, and the run's scope: membership is recorded only for
 * employees the run keeps) with the same proof as the main list, and records its members in the snapshot. When
 * the run looks for the largest page, these lists ask for the size the main list was served at.
 */
export async function syncPayCycleLists(
  ctx: SyncRun,
  pages: RunPages,
  builder: SnapshotBuilder,
  main: WalkResult,
): Promise<void> {
  const { plan, meter } = ctx
  // An empty main list may report a limit of 0, which is no size to ask for.
  const pageSize = plan.pageSizing === 'largest-served' && main.limit > 0 ? main.limit : plan.pageSize
  for (const payCycleId of plan.trackedPayCycles) {
    meter.startPayCycle()
    const cycle = await walkList(pages.source, {
      pageSize,
      concurrency: plan.concurrency,
      maxPasses: plan.maxPasses,
      maxTotalCount: plan.limits.maxEmployees,
      payCycleId,
      ...(plan.statusFilter === undefined ? {} : { statusFilter: plan.statusFilter }),
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      onPassStart: (start) => meter.passStarted(payCycleId, start.pass, start.totalCount),
      onPage: (page) => meter.pageArrived(payCycleId, page.rows),
    })
    ctx.writer.addPayCycleMembers(payCycleId, builder.membersOf(payCycleId, cycle.uuids))
  }
}
