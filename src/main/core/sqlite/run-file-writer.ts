import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { fsyncDirectory, fsyncFileAsync } from '../durable-fs'
import { openSqlite, storageError } from './sqlite-open'
import type { SqliteDatabase } from './sqlite-open'
import type { CacheKey } from './cache-key'

/**
 * The files a sync run writes once, snapshots (core/snapshot) and change logs (core/cache) alike: here, below both
 * stores, with the SQLite connection (sqlite-open.ts), so that core/snapshot imports nothing of core/cache.
 */

const SIDE_FILES = ['-journal', '-wal', '-shm'] as const

/**
 * Creates a file a run writes before the catalog names it (its snapshot, its change log), replacing debris of the
 * same name: an exclusive lock held until it is closed (so sweeps in other processes see it is alive), no
 * rollback journal and no fsync per write (a crash leaves only debris the next sweep deletes, never a file anyone
 * reads). The run forces it to disk once, when it seals it.
 */
export function createRunFile(path: string, key: CacheKey): SqliteDatabase {
  removeSnapshotFile(path)
  const db = openSqlite(path, { key })
  try {
    db.pragma('locking_mode = EXCLUSIVE')
    // better-sqlite3's defensive mode refuses journal_mode = OFF, so it is lifted for this one pragma only.
    db.unsafeMode(true)
    const journal = db.pragma('journal_mode = OFF', { simple: true })
    db.unsafeMode(false)
    if (journal !== 'off') throw new Error(`journal_mode stayed ${String(journal)}`)
    db.pragma('synchronous = OFF')
    return db
  } catch (error) {
    db.close()
    removeSnapshotFile(path)
    throw error
  }
}

/** Deletes a snapshot and any journal SQLite left beside it. False when the OS refused (a reader has it open). */
export function removeSnapshotFile(path: string): boolean {
  try {
    rmSync(path, { force: true })
    for (const suffix of SIDE_FILES) rmSync(path + suffix, { force: true })
    return true
  } catch {
    return false
  }
}

/**
 * Creates a file one sync run writes once (a snapshot, a change log), private to the run until the catalog names
 * it (see createRunFile), encrypted with `key`, and builds its writer over it. If anything fails on the way, nothing is left behind.
 */
export function createRunFileWriter<T>(path: string, key: CacheKey, build: (db: SqliteDatabase) => T): T {
  let db: SqliteDatabase
  try {
    db = createRunFile(path, key)
  } catch (error) {
    throw storageError(error, path)
  }
  try {
    return build(db)
  } catch (error) {
    db.close()
    removeSnapshotFile(path)
    throw storageError(error, path)
  }
}

/**
 * The life every run file shares after it exists: its statements' failures become storage errors that name it,
 * sealing forces it and its folder entry to disk, `close` lets it go once the catalog named it, and `discard`
 * deletes an abandoned one. Subclasses own their tables' SQL.
 */
export abstract class RunFileWriter {
  private finished = false

  protected constructor(
    readonly path: string,
    protected readonly db: SqliteDatabase,
  ) {}

  /** Releases the file once the catalog named it (or before `discard`). */
  close(): void {
    if (this.finished) return
    this.finished = true
    this.db.close()
  }

  /** Abandons the file: closes and deletes it. Safe to call more than once. */
  discard(): void {
    try {
      this.close()
    } finally {
      removeSnapshotFile(this.path)
    }
  }

  /** Forces the file's content, then its entry in the folder, to disk: the last step of sealing. */
  protected async syncToDisk(): Promise<void> {
    await this.guardAsync(() => fsyncFileAsync(this.path))
    fsyncDirectory(dirname(this.path))
  }

  protected guard<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw storageError(error, this.path)
    }
  }

  protected async guardAsync<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw storageError(error, this.path)
    }
  }
}
