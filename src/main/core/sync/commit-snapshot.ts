import { employeeNumberColumn } from '../../../shared/change-rules'
import type { SyncRunSummary } from '../../../shared/domain/sync'
import type { CacheDatabase } from '../cache/cache-database'
import type { StartedRun } from '../cache/sync-runs'
import type { ChangeLogWriter } from '../cache/change-log-file'
import type { SnapshotWriter } from '../snapshot/snapshot-writer'
import { yieldToEventLoop } from '../event-loop'
import type { Logger } from '../log/logger'
import { writeChangeLog } from './change-log-build'
import type { BuiltSnapshot, PreviousSnapshot, SnapshotBuilder } from './snapshot-builder'
import type { SyncCheckpoint } from './sync-options'

/** A run's staged snapshot, finished (`SnapshotBuilder.finish`) and ready to become the one readers use. */
export interface SnapshotToCommit {
  readonly cache: CacheDatabase
  readonly run: StartedRun
  readonly writer: SnapshotWriter
  readonly builder: SnapshotBuilder
  readonly built: BuiltSnapshot
  /** The snapshot the builder compared with; let go before the swap so the catalog can drop it. */
  readonly previous: PreviousSnapshot | null
  /** Written to the snapshot's `snapshot_info`. */
  readonly info: Readonly<Record<string, string>>
  /** The time the change log records. */
  readonly now: Date
  /**
   * Called once the snapshot is sealed, just before the swap: the summary the run log records. Throwing (a
   * cancel) is the last moment to keep the previous snapshot.
   */
  readonly summarize: () => SyncRunSummary
  /** Where a handle that will not close after the swap is reported. */
  readonly logger?: Logger
  /** Told 'change-log-written', 'sealed' and 'committed' as each is done (SyncDependencies.checkpoint). */
  readonly checkpoint?: (step: SyncCheckpoint) => void
}

/**
 * The one way a snapshot becomes current, for the sync, the benchmark's seeding and the tests: the search index,
 * the change log (none for a first sync), the seal (stamp, fsync), then one catalog transaction
 * (`completeRun`) that swaps `current_snapshot` and names the change log. The event loop runs between the steps.
 * If anything fails before the swap, the new files are discarded, the previous snapshot is let go and the error
 * is thrown: the cache is as it was. After the swap nothing throws.
 */
export async function commitSnapshot(commit: SnapshotToCommit): Promise<SyncRunSummary> {
  const { cache, run, writer, builder, built } = commit
  let changeLog: ChangeLogWriter | null = null
  try {
    await yieldToEventLoop()
    const searchIndex = builder.searchIndex().serialize()
    await yieldToEventLoop()
    // Who was added, removed or changed, kept for the change history after this snapshot is replaced.
    changeLog = await writeChangeLog({
      cache,
      writer,
      built,
      runId: run.id,
      numberColumn: employeeNumberColumn(builder.searchIndex().identifiers),
      now: commit.now,
    })
    commit.checkpoint?.('change-log-written')
    await writer.seal({ columns: built.columns, removed: built.removed, info: commit.info, searchIndex })
    commit.checkpoint?.('sealed')
    const summary = commit.summarize()
    commit.previous?.release()
    cache.runs.completeRun(run, summary, built.stored, changeLog?.path)
    commit.checkpoint?.('committed')
    closeAfterSwap(writer, changeLog, commit.logger)
    return summary
  } catch (error) {
    changeLog?.discard()
    writer.discard()
    commit.previous?.release()
    throw error
  }
}

function closeAfterSwap(writer: SnapshotWriter, changeLog: ChangeLogWriter | null, logger?: Logger): void {
  try {
    writer.close()
    changeLog?.close()
  } catch (closeError) {
    // The snapshot is swapped in; a handle that would not close must not turn it into a rejection that no caller
    // of a started run expects (the app learns outcomes only from the summary).
    logger?.warn('Sync: could not close the new snapshot file', closeError)
  }
}
