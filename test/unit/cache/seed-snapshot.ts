import type { EmployeeRow, SyncRunSummary } from '../../../src/shared/domain'
import type { CacheDatabase } from '../../../src/main/core/cache/cache-database'
import { employeeNumberColumn } from '../../../src/shared/change-rules'
import type { ChangeLogWriter } from '../../../src/main/core/cache/change-log-file'
import { writeChangeLog } from '../../../src/main/core/sync/change-log-build'
import { SnapshotBuilder, loadPreviousSnapshot } from '../../../src/main/core/sync/snapshot-builder'

/**
 * Commits `rows` as a new snapshot through the same writer, builder, change log and swap a sync uses, without the
 * network: for cache and query tests that need a snapshot with exact contents.
 */
export async function seedSnapshot(
  cache: CacheDatabase,
  rows: readonly EmployeeRow[],
  payCycleMembers: Readonly<Record<string, readonly string[]>> = {},
): Promise<SyncRunSummary> {
  const started = new Date()
  const { run, writer } = cache.beginRun(
    { pageSize: Math.max(1, rows.length), concurrency: 1, trackedPayCycles: Object.keys(payCycleMembers) },
    started,
  )
  const previous = await loadPreviousSnapshot(cache.currentSnapshot())
  let changeLog: ChangeLogWriter | null = null
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
    changeLog = await writeChangeLog({
      cache,
      writer,
      built,
      runId: run.id,
      numberColumn: employeeNumberColumn(builder.searchIndex().identifiers),
      now: started,
    })
    await writer.seal({
      columns: built.columns,
      removed: built.removed,
      info: { run_id: String(run.id) },
      searchIndex: builder.searchIndex().serialize(),
    })
    previous?.release()
    const summary: SyncRunSummary = {
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
    }
    cache.completeRun(run, summary, built.stored, changeLog?.path)
    writer.close()
    changeLog?.close()
    return summary
  } catch (error) {
    previous?.release()
    writer.discard()
    changeLog?.discard()
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
