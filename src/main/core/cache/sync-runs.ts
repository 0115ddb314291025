import { existsSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { SyncRunSummary } from '../../../shared/domain/sync'
import { isRosterDeskError, RosterDeskError } from '../errors'
import { mkdirOwnerOnly } from '../owner-only'
import type { Logger } from '../log/logger'
import type { ChangeLogCatalog } from './change-log-catalog'
import { ChangeLogWriter } from './change-log-file'
import { changeLogsToRelease } from './change-retention'
import type { RunLog, RunSettings } from './run-log'
import {
  isSnapshotBeingWritten,
  listChangeLogFiles,
  listSnapshotFiles,
  newChangeLogFileName,
  newSnapshotFileName,
} from './snapshot-files'
import { removeSnapshotFile } from '../sqlite/run-file-writer'
import { SnapshotWriter } from '../snapshot/snapshot-writer'
import { storageError } from '../sqlite/sqlite-open'
import type { SqliteDatabase } from '../sqlite/sqlite-open'
import type { CacheKey } from '../sqlite/cache-key'
import { WriterLock } from './writer-lock'

/** A run that has been logged as started and may write its snapshot file. */
export interface StartedRun {
  readonly id: number
  readonly startedAt: string
  readonly snapshotPath: string
  /** The snapshot current when the run began; the commit refuses to replace any other. */
  readonly previousRunId: number | null
}

/** The snapshot the catalog names now, as far as a run needs to know it. */
interface CurrentSnapshot {
  readonly runId: number
  readonly path: string
}

/**
 * What a run needs of the catalog it commits to (CacheDatabase, cache-database.ts): where the files go, which
 * snapshot is current, and the catalog's own steps of a commit (naming the new snapshot, letting go of the old).
 */
export interface RunCatalog {
  /** The key the run's files are written with (the catalog's own). */
  readonly key: CacheKey
  readonly snapshotDirectory: string
  readonly changeLogDirectory: string
  readonly changeLogs: ChangeLogCatalog
  readonly isOpen: boolean
  assertOpen(): void
  currentSnapshotInfo(): CurrentSnapshot | null
  /** Checks the snapshot a run builds on; a damaged one is set aside. */
  verifyCurrentSnapshot(): void
  /** Inside the commit's transaction: names `file` as the current snapshot. */
  pointTo(runId: number, file: string, employeeCount: number, committedAt: string): void
  /** After a commit: the snapshot current before it is let go (its file deleted once no reader holds it). */
  letGoOf(previous: CurrentSnapshot): void
  /** Whether this connection's reader has `path` open. */
  isReading(path: string): boolean
}

/** What a run tells its catalog's record of the snapshot this process sealed (CacheDatabase's `sealedSnapshot`). */
export interface RunSeals {
  /** After a commit on this connection: run `runId`'s snapshot was sealed here, and needs no second check here. */
  readonly sealed: (runId: number) => void
  /** After a failed run: the record goes, so the next run checks its base again (it may be what failed). */
  readonly failed: () => void
}

/**
 * The run lifecycle of one cache: a sync run begins (the writer lock, its snapshot file, its entry in the run
 * log), stages its change log, and either commits (one catalog transaction that names its snapshot) or ends
 * failed or cancelled. Also the run log itself, and the sweep of what dead runs left behind. What the cache holds
 * now, and reading it, is the catalog's (CacheDatabase).
 */
export class SyncRuns {
  /** Held from `beginRun` until the run ends (`completeRun`, `endRun`) or the cache closes. */
  private writerLock: WriterLock | null = null

  constructor(
    /** The catalog file's path. */
    private readonly path: string,
    private readonly db: SqliteDatabase,
    /** Every run: started, how it ended, with which settings. */
    readonly log: RunLog,
    private readonly catalog: RunCatalog,
    private readonly logger: Logger,
    private readonly seals: RunSeals,
  ) {}

  /**
   * Starts a run: creates its snapshot file (already locked, so other processes see it is alive), then logs the
   * run as running. Refuses when another live run is writing to this cache.
   */
  beginRun(settings: RunSettings, startedAt: Date): { run: StartedRun; writer: SnapshotWriter } {
    this.catalog.assertOpen()
    const lock = this.acquireWriterLock(startedAt)
    try {
      this.sweep()
      // The lock file is this version's guard; a run logged as running (by a release before the lock) still
      // holds its snapshot file's SQLite lock, which the sweep just tested.
      if (this.log.running().length > 0) {
        throw new RosterDeskError(
          'busy',
          'A sync of this employee cache is already running. Wait for it to finish.',
        )
      }
      this.catalog.verifyCurrentSnapshot()
      const directory = this.catalog.snapshotDirectory
      mkdirOwnerOnly(directory)
      const file = newSnapshotFileName(startedAt.getTime())
      const snapshotPath = join(directory, file)
      const writer = SnapshotWriter.create(snapshotPath, this.catalog.key)
      try {
        const startedAtText = startedAt.toISOString()
        const id = this.log.insertRunning(startedAtText, file, settings)
        const previousRunId = this.catalog.currentSnapshotInfo()?.runId ?? null
        this.writerLock = lock
        return { run: { id, startedAt: startedAtText, snapshotPath, previousRunId }, writer }
      } catch (error) {
        writer.discard()
        throw storageError(error, this.path)
      }
    } catch (error) {
      lock.release()
      throw error
    }
  }

  private acquireWriterLock(startedAt: Date): WriterLock {
    try {
      return WriterLock.acquire(this.path, startedAt)
    } catch (error) {
      if (isRosterDeskError(error)) throw error
      throw storageError(error, this.path)
    }
  }

  private releaseWriterLock(): void {
    const lock = this.writerLock
    this.writerLock = null
    try {
      lock?.release()
    } catch (error) {
      // A lock file that cannot be removed reads as stale once this process is gone.
      this.logger.warn('Cache: could not remove the sync lock file', error)
    }
  }

  /**
   * Creates a change log file for a run, private to the run until `completeRun` names it (a run that fails
   * discards it; a killed one leaves debris the next sweep deletes).
   */
  createChangeLog(now: Date): ChangeLogWriter {
    this.catalog.assertOpen()
    const directory = this.catalog.changeLogDirectory
    mkdirOwnerOnly(directory)
    return ChangeLogWriter.create(join(directory, newChangeLogFileName(now.getTime())), this.catalog.key)
  }

  /**
   * The swap: in one transaction, the run is logged complete and the catalog names its (already durable)
   * snapshot file and change log, and lets go of change logs beyond the history's bounds (change-retention.ts),
   * whose files are deleted after the commit. Fails, changing nothing, if another run committed since this one
   * began.
   */
  completeRun(run: StartedRun, summary: SyncRunSummary, employeeCount: number, changeLogPath?: string): void {
    this.catalog.assertOpen()
    const previous = this.catalog.currentSnapshotInfo()
    let released: string[] = []
    try {
      this.db
        .transaction(() => {
          const current = this.catalog.currentSnapshotInfo()
          if ((current?.runId ?? null) !== run.previousRunId) {
            throw new RosterDeskError(
              'busy',
              'Another sync finished while this one was running, and its result was kept. Sync again to pick up newer changes.',
            )
          }
          this.log.finish(summary)
          if (changeLogPath !== undefined) this.catalog.changeLogs.name(run.id, basename(changeLogPath))
          this.catalog.pointTo(run.id, basename(run.snapshotPath), employeeCount, summary.endedAt)
          released = this.releaseChangeLogs()
        })
        .immediate()
    } catch (error) {
      throw storageError(error, this.path)
    }
    this.releaseWriterLock()
    for (const file of released) removeSnapshotFile(join(this.catalog.changeLogDirectory, file))
    if (previous !== null) this.catalog.letGoOf(previous)
    this.seals.sealed(run.id)
  }

  /** Forgets the change logs the history no longer keeps; returns their file names. Inside a transaction. */
  private releaseChangeLogs(): string[] {
    const changeLogs = this.catalog.changeLogs
    const directory = this.catalog.changeLogDirectory
    const runs = changeLogs.completeRuns()
    const release = new Set(
      changeLogsToRelease(
        runs.map((run) =>
          run.changesFile === null
            ? { runId: run.id }
            : { runId: run.id, changeLogBytes: fileSize(join(directory, run.changesFile)) },
        ),
      ),
    )
    changeLogs.forget([...release])
    return runs.flatMap((run) => (release.has(run.id) && run.changesFile !== null ? [run.changesFile] : []))
  }

  /** Logs a failed or cancelled run. The current snapshot is not touched. */
  endRun(summary: SyncRunSummary): void {
    this.catalog.assertOpen()
    // A run that failed may have failed on its unchecked base (damaged since it was sealed, its size and mtime
    // unchanged): the next run checks it again, and sets it aside if so, rather than failing the same way.
    if (summary.status === 'failed') this.seals.failed()
    try {
      this.log.finish(summary)
    } catch (error) {
      throw storageError(error, this.path)
    } finally {
      this.releaseWriterLock()
    }
  }

  lastRun(): SyncRunSummary | undefined {
    return this.log.last()
  }

  /**
   * Clears what dead runs left behind: runs still logged as running whose process is gone are marked interrupted,
   * snapshot files the catalog does not name (and no live writer holds) are deleted, and so are change logs no
   * run names (those of failed or killed runs, and those a commit let go but could not delete).
   */
  sweep(): void {
    if (!this.catalog.isOpen) return
    const snapshots = this.catalog.snapshotDirectory
    for (const run of this.log.running()) {
      const path = join(snapshots, run.snapshotFile)
      // Files are created before runs are logged: no file, or a file no process holds, means the run died.
      if (!existsSync(path) || !isSnapshotBeingWritten(path, this.catalog.key)) {
        this.log.markInterrupted(run.id, new Date().toISOString())
      }
    }
    const current = this.catalog.currentSnapshotInfo()
    for (const name of listSnapshotFiles(snapshots)) {
      const path = join(snapshots, name)
      if (current !== null && path === current.path) continue
      if (this.catalog.isReading(path)) continue
      if (this.log.statusOfFile(name) === 'running') continue
      // A file no run names yet may belong to a run starting in another process this very moment.
      if (isSnapshotBeingWritten(path, this.catalog.key)) continue
      removeSnapshotFile(path)
    }
    // Change logs: those of failed or killed runs, and those a commit let go but could not delete (open elsewhere).
    const changeLogs = this.catalog.changeLogDirectory
    const named = this.catalog.changeLogs.namedFiles()
    for (const name of listChangeLogFiles(changeLogs)) {
      if (named.has(name)) continue
      const path = join(changeLogs, name)
      if (isSnapshotBeingWritten(path, this.catalog.key)) continue
      removeSnapshotFile(path)
    }
  }

  /** Lets go of a run's writer lock as the cache closes. */
  close(): void {
    this.releaseWriterLock()
  }
}

/** A file's size in bytes; 0 when it is gone (a change log deleted behind RosterDesk's back weighs nothing). */
function fileSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}
