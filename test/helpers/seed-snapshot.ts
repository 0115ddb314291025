import type { EmployeeRow } from '../../src/shared/domain/rows'
import type { SyncRunSummary } from '../../src/shared/domain/sync'
import type { CacheDatabase } from '../../src/main/core/cache/cache-database'
import { commitSnapshot } from '../../src/main/core/sync/commit-snapshot'
import { SnapshotBuilder, loadPreviousSnapshot } from '../../src/main/core/sync/snapshot-builder'

/**
 * Commits `rows` as a new snapshot through the same writer, builder and commit (change log, seal, swap) a sync
 * uses, without the network: for cache and query tests that need a snapshot with exact contents.
 */
export async function seedSnapshot(
  cache: CacheDatabase,
  rows: readonly EmployeeRow[],
  payCycleMembers: Readonly<Record<string, readonly string[]>> = {},
): Promise<SyncRunSummary> {
  const started = new Date()
  const { run, writer } = cache.runs.beginRun(
    { pageSize: Math.max(1, rows.length), concurrency: 1, trackedPayCycles: Object.keys(payCycleMembers) },
    started,
  )
  const previous = await loadPreviousSnapshot(cache.currentSnapshot())
  try {
    const builder = new SnapshotBuilder(writer, previous)
    builder.addPage({ pass: 1, page: 1, position: 0, rows })
    const built = builder.finish({
      pass: 1,
      totalCount: rows.length,
      limit: Math.max(1, rows.length),
      pages: 1,
      uuids: new Set(rows.map((row) => String(row['UUID']))),
    })
    for (const [payCycleId, uuids] of Object.entries(payCycleMembers)) {
      writer.addPayCycleMembers(payCycleId, builder.membersOf(payCycleId, new Set(uuids)))
    }
    return await commitSnapshot({
      cache,
      run,
      writer,
      builder,
      built,
      previous,
      info: { run_id: String(run.id) },
      now: started,
      summarize: () => ({
        id: run.id,
        status: 'complete',
        startedAt: run.startedAt,
        endedAt: new Date().toISOString(),
        totalCount: rows.length,
        stored: built.stored,
        pages: 1,
        requests: 1,
        durationMs: 1,
        changes: built.changes,
      }),
    })
  } catch (error) {
    // Staging failed before the commit (which cleans up after itself): nothing of this run may stay behind.
    previous?.release()
    writer.discard()
    throw error
  }
}
/** A row with the four known fields and any extras. */
export function employee(
  uuid: string,
  firstName: string,
  lastName: string,
  status: string,
  extra: EmployeeRow = {},
): EmployeeRow {
  return { UUID: uuid, firstName, lastName, employeeStatus: status, ...extra }
}
