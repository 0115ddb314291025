import { existsSync, renameSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { SyncRunSummary } from '../../../shared/domain/sync'
import { isRosterDeskError, RosterDeskError } from '../errors'
import { silentLogger, type Logger } from '../log/logger'
import { migrateCatalog } from './catalog-schema'
import { ChangeLogCatalog } from './change-log-catalog'
import { RunLog } from './run-log'
import { changeLogDirectoryOf, snapshotDirectoryOf } from './snapshot-files'
import { removeSnapshotFile } from '../sqlite/run-file-writer'
import { SnapshotReader } from '../snapshot/snapshot-reader'
import type { CheckedFile } from '../snapshot/snapshot-reader'
import { quickCheck } from '../snapshot/snapshot-schema'
import { prepared } from '../sqlite/prepared-statements'
import { DAMAGED_CACHE_MESSAGE, damagedCacheError, openSqlite, storageError } from '../sqlite/sqlite-open'
import type { SqliteDatabase } from '../sqlite/sqlite-open'
import type { CacheKey } from '../sqlite/cache-key'
import { SyncRuns } from './sync-runs'

export interface OpenCacheOptions {
  /**
   * The key every file of this cache is encrypted with (cache-key.ts): the catalog, its snapshots and change logs.
   * A file it does not open (another key, a plain file) is damaged to this cache: set aside, never read in clear.
   */
  readonly key: CacheKey
  /** Refuse a missing or never-synced file instead of creating one (the search and status commands). */
  readonly mustExist?: boolean
  /**
   * Refuse a catalog that does not open (damaged, or not with `key`) instead of setting it aside: the CLI's
   * `--profile`, whose key may not be the app's, never touches the app's cache.
   */
  readonly keepDamaged?: boolean
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

/** Opens (creating and migrating when allowed) the employee cache at `path`, encrypted with `options.key`. */
export function openCacheDatabase(path: string, options: OpenCacheOptions): CacheDatabase {
  const mustExist = options.mustExist ?? false
  if (mustExist && !existsSync(path)) {
    throw new RosterDeskError(
      'storage',
      `There is no employee cache at ${path}. Run a sync first, or check the path.`,
    )
  }
  const logger = options.logger ?? silentLogger
  const key = options.key
  try {
    return openCatalog(path, key, mustExist, logger)
  } catch (error) {
    if (!isDamagedCache(error)) throw error
    // The read-only commands leave the file the user named as it is; the app and `sync` set it aside and start
    // an empty catalog, which the next sync fills.
    if (mustExist || options.keepDamaged === true)
      throw new RosterDeskError('damaged-cache', damageMessage(error), {
        detail: `${path}: ${describeDetail(error)}`,
        cause: error,
      })
    const aside = setAsideDamaged(path, new Date())
    logger.warn(`Cache: the catalog ${path} is damaged; kept it as ${basename(aside)}, starting empty`, error)
    const cache = openCatalog(path, key, false, logger)
    cache.runs.log.recordDamage(new Date().toISOString(), basename(aside), damageMessage(error))
    return cache
  }
}

function openCatalog(path: string, key: CacheKey, mustExist: boolean, logger: Logger): CacheDatabase {
  const db = openSqlite(path, { fileMustExist: mustExist, key })
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
  const cache = new CacheDatabase(path, db, key, logger)
  cache.runs.sweep()
  return cache
}

function isDamagedCache(error: unknown): boolean {
  return isRosterDeskError(error) && error.code === 'damaged-cache'
}

/** What the run log tells the clerk of a set-aside file: the damage's own words (a lost key's or a damaged file's). */
function damageMessage(error: unknown): string {
  return isDamagedCache(error) && isRosterDeskError(error) ? error.message : DAMAGED_CACHE_MESSAGE
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
 * The employee cache, as its catalog says: which snapshot file is current (the pointer), reading it, and which
 * complete run has which change log. What changes the pointer is a sync run's: `runs` (sync-runs.ts) begins,
 * stages, commits or ends runs and keeps the run log, and its commit is one catalog transaction.
 */
export class CacheDatabase {
  /** The run lifecycle: begin, stage, commit or end a sync run; the run log; the sweep of dead runs' files. */
  readonly runs: SyncRuns
  /** Which complete run has which change log (the change history; see core/changes). */
  readonly changeLogs: ChangeLogCatalog
  private readonly runLog: RunLog
  private reader: SnapshotReader | null = null
  private closed = false
  /** The snapshot file a sync of this process sealed, as it was then (recordSealed, adoptSealedSnapshot). */
  private sealed: SealedSnapshot | null = null

  constructor(
    readonly path: string,
    readonly db: SqliteDatabase,
    /** The key of every file of this cache: its snapshots and change logs are opened and written with it. */
    readonly key: CacheKey,
    private readonly logger: Logger = silentLogger,
  ) {
    this.runLog = new RunLog(db)
    this.changeLogs = new ChangeLogCatalog(db)
    this.runs = new SyncRuns(path, db, this.runLog, this, logger, {
      sealed: (runId) => this.recordSealed(runId),
      // A run that failed may have failed on its unchecked base: the next one checks it again.
      failed: () => {
        this.sealed = null
      },
    })
  }

  get snapshotDirectory(): string {
    return snapshotDirectoryOf(this.path)
  }

  get changeLogDirectory(): string {
    return changeLogDirectoryOf(this.path)
  }

  get isOpen(): boolean {
    return !this.closed
  }

  currentSnapshotInfo(): CurrentSnapshotInfo | null {
    const row = prepared<{ run_id: number; file: string; employee_count: number; committed_at: string }>(
      this.db,
      'SELECT run_id, file, employee_count, committed_at FROM current_snapshot WHERE id = 1',
    ).get()
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

  /** The run whose snapshot the cache holds. */
  lastCompleteRun(): SyncRunSummary | undefined {
    const info = this.currentSnapshotInfo()
    return info === null ? undefined : this.runLog.get(info.runId)
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
        this.key,
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
          prepared(this.db, 'DELETE FROM current_snapshot WHERE id = 1 AND run_id = ?').run(info.runId)
          this.runLog.recordDamage(new Date().toISOString(), basename(info.path), damageMessage(error))
        })
        .immediate()
    } catch (catalogError) {
      throw storageError(catalogError, this.path)
    }
  }

  /**
   * Checks every page of the snapshot a run builds on; a damaged one is set aside so the run starts afresh. Not
   * the snapshot a sync of this process sealed, while the file is as it was sealed (`sealedSnapshot`): the
   * check reads the whole file before the run's first request, 0.3 s for a million employees when the file is in
   * the system's cache and 8 s when it is not, before every sync after the first of a session.
   */
  verifyCurrentSnapshot(): void {
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

  /** Where a complete run's change log is, or undefined when it has none (a first sync, or let go). */
  changeLogPath(runId: number): string | undefined {
    this.assertOpen()
    const file = this.changeLogs.fileOf(runId)
    return file === undefined ? undefined : join(this.changeLogDirectory, file)
  }

  /** The commit's step in the catalog, inside its transaction (SyncRuns.completeRun): `file` is current now. */
  pointTo(runId: number, file: string, employeeCount: number, committedAt: string): void {
    prepared(
      this.db,
      `INSERT INTO current_snapshot (id, run_id, file, employee_count, committed_at) VALUES (1, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, file = excluded.file,
           employee_count = excluded.employee_count, committed_at = excluded.committed_at`,
    ).run(runId, file, employeeCount, committedAt)
  }

  /**
   * After a commit, the snapshot that was current before it: deleted now, or, while this connection's reader
   * still has it open, once that reader closes (onReaderClosed).
   */
  letGoOf(previous: Pick<CurrentSnapshotInfo, 'runId' | 'path'>): void {
    if (this.reader?.runId === previous.runId) this.replaceReader(null)
    else removeSnapshotFile(previous.path)
  }

  /** Whether this connection's reader has the snapshot file at `path` open (the sweep leaves it). */
  isReading(path: string): boolean {
    return this.reader !== null && this.reader.isOpen && this.reader.path === path
  }

  /**
   * The record of the snapshot a sync of this process sealed (fsynced), as it was then: plain data, so it can
   * travel to another connection of this process (`adoptSealedSnapshot`). Null when there is none.
   */
  get sealedSnapshot(): SealedSnapshot | null {
    return this.sealed
  }

  /**
   * Takes the record another connection of this process holds of the snapshot a sync sealed, in place of this
   * one's: the core worker's, as its sync job's input (the main thread's record) and as its result (the record
   * the worker's connection ended the run with, which the main thread adopts in this one step: a new snapshot's
   * after a commit, none after a failure, the same as before after a cancel). Kept only while it names this
   * cache's current snapshot; anything else (null, another file) leaves none, so the file is checked as if
   * another process had sealed it.
   */
  adoptSealedSnapshot(sealed: SealedSnapshot | null): void {
    // A cache closed meanwhile (a profile switched during the sync) has nothing to open.
    if (this.closed) return
    this.sealed = sealed !== null && this.currentSnapshotInfo()?.path === sealed.path ? sealed : null
  }

  /**
   * After run `runId` committed on this connection (`runs.completeRun`): records its snapshot as sealed here, so
   * the next open skips the quick_check while the file keeps its size and modification time (at 100,000–365,000
   * employees that check reads the whole file on the thread that answers IPC, 25–90 ms, right after every sync),
   * and the next run skips the whole-file check of its base (verifyCurrentSnapshot). A snapshot another process
   * committed (a `cli sync`), and every snapshot after a restart, is checked as before. Nothing is recorded when
   * `runId` is not the current snapshot's.
   */
  private recordSealed(runId: number): void {
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

  close(): void {
    if (this.closed) return
    this.replaceReader(null)
    this.runs.close()
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

  assertOpen(): void {
    if (this.closed) throw new RosterDeskError('internal', 'The employee cache was used after it was closed.')
  }
}
