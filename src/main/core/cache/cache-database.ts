import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { SyncRunSummary } from '../../../shared/domain'
import { isRosterDeskError, RosterDeskError } from '../errors'
import { silentLogger, type Logger } from '../log/logger'
import { migrateCatalog } from './catalog-schema'
import { ChangeLogCatalog } from './change-log-catalog'
import { ChangeLogWriter } from './change-log-file'
import { changeLogsToRelease } from './change-retention'
import { RunLog } from './run-log'
import type { RunSettings } from './run-log'
import {
  changeLogDirectoryOf,
  isSnapshotBeingWritten,
  listChangeLogFiles,
  listSnapshotFiles,
  newChangeLogFileName,
  newSnapshotFileName,
  snapshotDirectoryOf,
} from './snapshot-files'
import { SnapshotReader } from '../snapshot/snapshot-reader'
import type { CheckedFile } from '../snapshot/snapshot-reader'
import { SnapshotWriter } from '../snapshot/snapshot-writer'
import { quickCheck } from '../snapshot/snapshot-schema'
import { DAMAGED_CACHE_MESSAGE, damagedCacheError, openSqlite, storageError } from '../sqlite/sqlite-open'
import type { SqliteDatabase } from '../sqlite/sqlite-open'
import { removeSnapshotFile } from '../sqlite/run-file-writer'
import { WriterLock } from './writer-lock'

export interface OpenCacheOptions {
  /** Refuse a missing or never-synced file instead of creating one (the search and status commands). */
  readonly mustExist?: boolean
  /** Where setting a damaged file aside is logged. */
  readonly logger?: Logger
}

/** What the catalog says the cache holds now. */
export interface CurrentSnapshotInfo {
  readonly runId: number
  readonly path: string
  readonly employeeCount: number
  readonly committedAt: string
}

/** A run that has been logged as started and may write its snapshot file. */
export interface StartedRun {
  readonly id: number
  readonly startedAt: string
  readonly snapshotPath: string
  /** The snapshot current when the run began; the commit refuses to replace any other. */
  readonly previousRunId: number | null
}

/** Opens (creating and migrating when allowed) the employee cache at `path`. */
export function openCacheDatabase(path: string, options: OpenCacheOptions = {}): CacheDatabase {
  const mustExist = options.mustExist ?? false
  if (mustExist && !existsSync(path)) {
    throw new RosterDeskError(
      'storage',
      `There is no employee cache at ${path}. Run a sync first, or check the path.`,
    )
  }
  const logger = options.logger ?? silentLogger
  try {
    return openCatalog(path, mustExist, logger)
  } catch (error) {
    if (!isDamagedCache(error)) throw error
    // The read-only commands leave the file the user named as it is; the app and `sync` set it aside and start
    // an empty catalog, which the next sync fills.
    if (mustExist) throw damagedCacheError(`${path}: ${describeDetail(error)}`, error)
    const aside = setAsideDamaged(path, new Date())
    logger.warn(`Cache: the catalog ${path} is damaged; kept it as ${basename(aside)}, starting empty`, error)
    const cache = openCatalog(path, false, logger)
    cache.runLog.recordDamage(new Date().toISOString(), basename(aside), DAMAGED_CACHE_MESSAGE)
    return cache
  }
}

function openCatalog(path: string, mustExist: boolean, logger: Logger): CacheDatabase {
  const db = openSqlite(path, { fileMustExist: mustExist })
  try {
    migrateCatalog(db, path, !mustExist)
    db.pragma('journal_mode = WAL')
    // The catalog changes once per run; FULL makes each commit (the snapshot swap) durable when it returns.
    db.pragma('synchronous = FULL')
    db.pragma('foreign_keys = ON')
    // The catalog is a few hundred KB at most (the run log), so every page is checked at every open.
    quickCheck(db, path)
  } catch (error) {
    db.close()
    throw storageError(error, path)
  }
  const cache = new CacheDatabase(path, db, logger)
  cache.sweep()
  return cache
}

function isDamagedCache(error: unknown): boolean {
  return isRosterDeskError(error) && error.code === 'damaged-cache'
}

function describeDetail(error: unknown): string {
  return isRosterDeskError(error) ? (error.detail ?? error.message) : String(error)
}

/**
 * Renames a damaged file (and the journal files SQLite keeps beside it) to `<name>.damaged-<time>`, so nothing
 * reads it again and support can still look at it. Returns the new path.
 */
export function setAsideDamaged(path: string, now: Date): string {
  const aside = `${path}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix)
  }
  return aside
}

/** A snapshot file a sync of this process sealed, as it was just after the seal. */
export interface SealedSnapshot {
  readonly path: string
  readonly checked: CheckedFile
}

/**
 * The employee cache: a catalog (run log + pointer to the current snapshot) and the snapshot files it points
 * to. Everything that changes what readers see goes through `completeRun`, one catalog transaction.
 */
export class CacheDatabase {
  readonly runLog: RunLog
  /** Which complete run has which change log (the change history; see core/changes). */
  readonly changeLogs: ChangeLogCatalog
  private reader: SnapshotReader | null = null
  private closed = false
  /** Held from `beginRun` until the run ends (`completeRun`, `endRun`) or the cache closes. */
  private writerLock: WriterLock | null = null
  /** The snapshot file a sync of this process sealed, as it was then (trustSealedSnapshot). */
  private sealed: SealedSnapshot | null = null

  constructor(
    readonly path: string,
    readonly db: SqliteDatabase,
    private readonly logger: Logger = silentLogger,
  ) {
    this.runLog = new RunLog(db)
    this.changeLogs = new ChangeLogCatalog(db)
  }

  get snapshotDirectory(): string {
    return snapshotDirectoryOf(this.path)
  }

  get changeLogDirectory(): string {
    return changeLogDirectoryOf(this.path)
  }

  currentSnapshotInfo(): CurrentSnapshotInfo | null {
    const row = this.db
      .prepare<{ run_id: number; file: string; employee_count: number; committed_at: string }>(
        'SELECT run_id, file, employee_count, committed_at FROM current_snapshot WHERE id = 1',
      )
      .get()
    if (row === undefined) return null
    return {
      runId: row.run_id,
      path: join(this.snapshotDirectory, row.file),
      employeeCount: row.employee_count,
      committedAt: row.committed_at,
    }
  }

  employeeCount(): number {
    return this.currentSnapshotInfo()?.employeeCount ?? 0
  }

  /**
   * A reader of the snapshot the catalog names now, or null before the first complete sync. Cheap to call
   * before every query: it reopens only when another run (or another process) committed a newer snapshot.
   */
  currentSnapshot(): SnapshotReader | null {
    this.assertOpen()
    const info = this.currentSnapshotInfo()
    if (info === null) {
      this.replaceReader(null)
      return null
    }
    if (this.reader !== null && this.reader.isOpen && this.reader.runId === info.runId) return this.reader
    let reader: SnapshotReader
    const sealed = this.sealed?.path === info.path ? this.sealed.checked : undefined
    try {
      reader = SnapshotReader.open(
        info.path,
        info.runId,
        (closed) => this.onReaderClosed(closed),
        sealed === undefined ? {} : { alreadyChecked: sealed },
      )
    } catch (error) {
      const damage = existsSync(info.path) ? error : damagedCacheError(`${info.path}: missing`, error)
      if (!isDamagedCache(damage)) throw error
      this.setAsideSnapshot(info, damage)
      return null
    }
    this.replaceReader(reader)
    return reader
  }

  /**
   * A damaged snapshot is renamed aside and the catalog forgets it, in that order (a pointer to a missing file
   * is itself treated as damage, so a failure between the two ends in the same place): the cache then reads as
   * never synced, with a failed 'damaged-cache' entry in the run log that the app shows until a sync rebuilds it.
   */
  private setAsideSnapshot(info: CurrentSnapshotInfo, error: unknown): void {
    this.replaceReader(null)
    let kept = 'nothing (it was missing)'
    if (existsSync(info.path)) {
      try {
        kept = basename(setAsideDamaged(info.path, new Date()))
      } catch (renameError) {
        this.logger.warn(`Cache: could not rename the damaged snapshot ${info.path}`, renameError)
      }
    }
    this.logger.warn(`Cache: the current snapshot is damaged; kept it as ${kept}, starting empty`, error)
    try {
      this.db
        .transaction(() => {
          this.db.prepare('DELETE FROM current_snapshot WHERE id = 1 AND run_id = ?').run(info.runId)
          this.runLog.recordDamage(new Date().toISOString(), basename(info.path), DAMAGED_CACHE_MESSAGE)
        })
        .immediate()
    } catch (catalogError) {
      throw storageError(catalogError, this.path)
    }
  }

  /**
   * Checks every page of the snapshot a run builds on; a damaged one is set aside so the run starts afresh. Not
   * the snapshot a sync of this process sealed, while the file is as it was sealed (`trustSealedSnapshot`): the
   * check reads the whole file before the run's first request, 0.3 s for a million employees when the file is in
   * the system's cache and 8 s when it is not, before every sync after the first of a session.
   */
  private verifyCurrentSnapshot(): void {
    const reader = this.currentSnapshot()
    const info = this.currentSnapshotInfo()
    if (reader === null || info === null) return
    if (this.isSealedAsItWas(info.path)) return
    try {
      reader.verify()
    } catch (error) {
      if (!isDamagedCache(error)) throw error
      this.setAsideSnapshot(info, error)
    }
  }

  /**
   * Starts a run: creates its snapshot file (already locked, so other processes see it is alive), then logs the
   * run as running. Refuses when another live run is writing to this cache.
   */
  beginRun(settings: RunSettings, startedAt: Date): { run: StartedRun; writer: SnapshotWriter } {
    this.assertOpen()
    const lock = this.acquireWriterLock(startedAt)
    try {
      this.sweep()
      // The lock file is this version's guard; a run logged as running (by a release before the lock) still
      // holds its snapshot file's SQLite lock, which the sweep just tested.
      if (this.runLog.running().length > 0) {
        throw new RosterDeskError(
          'busy',
          'A sync of this employee cache is already running. Wait for it to finish.',
        )
      }
      this.verifyCurrentSnapshot()
      mkdirSync(this.snapshotDirectory, { recursive: true })
      const file = newSnapshotFileName(startedAt.getTime())
      const snapshotPath = join(this.snapshotDirectory, file)
      const writer = SnapshotWriter.create(snapshotPath)
      try {
        const startedAtText = startedAt.toISOString()
        const id = this.runLog.insertRunning(startedAtText, file, settings)
        const previousRunId = this.currentSnapshotInfo()?.runId ?? null
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
    this.assertOpen()
    mkdirSync(this.changeLogDirectory, { recursive: true })
    return ChangeLogWriter.create(join(this.changeLogDirectory, newChangeLogFileName(now.getTime())))
  }

  /** Where a complete run's change log is, or undefined when it has none (a first sync, or let go). */
  changeLogPath(runId: number): string | undefined {
    this.assertOpen()
    const file = this.changeLogs.fileOf(runId)
    return file === undefined ? undefined : join(this.changeLogDirectory, file)
  }

  /**
   * The swap: in one transaction, the run is logged complete and the catalog names its (already durable)
   * snapshot file and change log, and lets go of change logs beyond the history's bounds (change-retention.ts),
   * whose files are deleted after the commit. Fails, changing nothing, if another run committed since this one
   * began.
   */
  completeRun(run: StartedRun, summary: SyncRunSummary, employeeCount: number, changeLogPath?: string): void {
    this.assertOpen()
    const previous = this.currentSnapshotInfo()
    let released: string[] = []
    try {
      this.db
        .transaction(() => {
          const current = this.currentSnapshotInfo()
          if ((current?.runId ?? null) !== run.previousRunId) {
            throw new RosterDeskError(
              'busy',
              'Another sync finished while this one was running, and its result was kept. Sync again to pick up newer changes.',
            )
          }
          this.runLog.finish(summary)
          if (changeLogPath !== undefined) this.changeLogs.name(run.id, basename(changeLogPath))
          this.db
            .prepare(
              `INSERT INTO current_snapshot (id, run_id, file, employee_count, committed_at) VALUES (1, ?, ?, ?, ?)
               ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, file = excluded.file,
                 employee_count = excluded.employee_count, committed_at = excluded.committed_at`,
            )
            .run(run.id, basename(run.snapshotPath), employeeCount, summary.endedAt)
          released = this.releaseChangeLogs()
        })
        .immediate()
    } catch (error) {
      throw storageError(error, this.path)
    }
    this.releaseWriterLock()
    for (const file of released) removeSnapshotFile(join(this.changeLogDirectory, file))
    if (previous !== null) {
      if (this.reader?.runId === previous.runId) this.replaceReader(null)
      else removeSnapshotFile(previous.path)
    }
    this.trustSealedSnapshot(run.id)
  }

  /**
   * Records that the current snapshot, run `runId`'s, is a file a sync of this process has just written and
   * sealed (fsynced), so the next open here skips the quick_check while the file keeps its size and modification
   * time: at 100,000–365,000 employees that check reads the whole file on the thread that answers IPC (25–90 ms)
   * right after every sync; and the next run here skips the whole-file check of its base (verifyCurrentSnapshot).
   * `completeRun` calls it for a run on this connection; the app's sync runner for a run its core worker
   * committed, and hands the record to the worker's next sync (`sealedSnapshot`, `adoptSealedSnapshot`). A
   * snapshot another process committed (a `cli sync`), and every snapshot after a restart, is checked as before.
   * Nothing is recorded when `runId` is not the current snapshot's.
   */
  trustSealedSnapshot(runId: number): void {
    // A cache closed meanwhile (a profile switched during the sync) has nothing to open.
    if (this.closed) return
    const info = this.currentSnapshotInfo()
    if (info === null || info.runId !== runId) return
    try {
      const stats = statSync(info.path)
      this.sealed = { path: info.path, checked: { size: stats.size, mtimeMs: stats.mtimeMs } }
    } catch {
      this.sealed = null
    }
  }

  /** The record `trustSealedSnapshot` keeps, for another connection of this process (the core worker's sync). */
  get sealedSnapshot(): SealedSnapshot | null {
    return this.sealed
  }

  /**
   * Takes the record another connection of this process keeps of the snapshot its sync sealed (the app's main
   * thread, for a sync on the core worker), if it is of this cache's current snapshot.
   */
  adoptSealedSnapshot(sealed: SealedSnapshot): void {
    if (this.closed) return
    if (this.currentSnapshotInfo()?.path === sealed.path) this.sealed = sealed
  }

  /** Checks the current snapshot again at the next open and the next run, as if another process had sealed it. */
  forgetSealedSnapshot(): void {
    this.sealed = null
  }

  /** Whether `path` is the snapshot this process sealed, with the size and modification time it had then. */
  private isSealedAsItWas(path: string): boolean {
    const sealed = this.sealed
    if (sealed === null || sealed.path !== path) return false
    try {
      const stats = statSync(path)
      return stats.size === sealed.checked.size && stats.mtimeMs === sealed.checked.mtimeMs
    } catch {
      return false
    }
  }

  /** Forgets the change logs the history no longer keeps; returns their file names. Inside a transaction. */
  private releaseChangeLogs(): string[] {
    const runs = this.changeLogs.completeRuns()
    const release = new Set(
      changeLogsToRelease(
        runs.map((run) =>
          run.changesFile === null
            ? { runId: run.id }
            : { runId: run.id, changeLogBytes: fileSize(join(this.changeLogDirectory, run.changesFile)) },
        ),
      ),
    )
    this.changeLogs.forget([...release])
    return runs.flatMap((run) => (release.has(run.id) && run.changesFile !== null ? [run.changesFile] : []))
  }

  /** Logs a failed or cancelled run. The current snapshot is not touched. */
  endRun(summary: SyncRunSummary): void {
    this.assertOpen()
    // A run that failed may have failed on its unchecked base (damaged since it was sealed, its size and mtime
    // unchanged): the next run checks it again, and sets it aside if so, rather than failing the same way.
    if (summary.status === 'failed') this.forgetSealedSnapshot()
    try {
      this.runLog.finish(summary)
    } catch (error) {
      throw storageError(error, this.path)
    } finally {
      this.releaseWriterLock()
    }
  }

  lastRun(): SyncRunSummary | undefined {
    return this.runLog.last()
  }

  /** The run whose snapshot the cache holds. */
  lastCompleteRun(): SyncRunSummary | undefined {
    const info = this.currentSnapshotInfo()
    return info === null ? undefined : this.runLog.get(info.runId)
  }

  /**
   * Clears what dead runs left behind: runs still logged as running whose process is gone are marked failed,
   * and snapshot files the catalog does not name (and no live writer holds) are deleted.
   */
  sweep(): void {
    if (this.closed) return
    for (const run of this.runLog.running()) {
      const path = join(this.snapshotDirectory, run.snapshotFile)
      // Files are created before runs are logged: no file, or a file no process holds, means the run died.
      if (!existsSync(path) || !isSnapshotBeingWritten(path)) {
        this.runLog.markInterrupted(run.id, new Date().toISOString())
      }
    }
    const current = this.currentSnapshotInfo()
    for (const name of listSnapshotFiles(this.snapshotDirectory)) {
      const path = join(this.snapshotDirectory, name)
      if (current !== null && path === current.path) continue
      if (this.reader !== null && this.reader.isOpen && this.reader.path === path) continue
      if (this.runLog.statusOfFile(name) === 'running') continue
      // A file no run names yet may belong to a run starting in another process this very moment.
      if (isSnapshotBeingWritten(path)) continue
      removeSnapshotFile(path)
    }
    // Change logs: those of failed or killed runs, and those a commit let go but could not delete (open elsewhere).
    const named = this.changeLogs.namedFiles()
    for (const name of listChangeLogFiles(this.changeLogDirectory)) {
      if (named.has(name)) continue
      const path = join(this.changeLogDirectory, name)
      if (isSnapshotBeingWritten(path)) continue
      removeSnapshotFile(path)
    }
  }

  close(): void {
    if (this.closed) return
    this.replaceReader(null)
    this.releaseWriterLock()
    this.closed = true
    this.db.close()
  }

  private replaceReader(next: SnapshotReader | null): void {
    const previous = this.reader
    this.reader = next
    if (previous !== null && previous !== next) previous.markStale()
  }

  private onReaderClosed(reader: SnapshotReader): void {
    if (this.closed) return
    const current = this.currentSnapshotInfo()
    if (current === null || current.path !== reader.path) removeSnapshotFile(reader.path)
  }

  private assertOpen(): void {
    if (this.closed) throw new RosterDeskError('internal', 'The employee cache was used after it was closed.')
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
