import { statSync } from 'node:fs'
import { checkSnapshotFormat, QUICK_CHECK_AT_OPEN_MAX_BYTES, quickCheck } from './snapshot-schema'
import { openSqlite, storageError } from './sqlite-open'
import type { SqliteDatabase } from './sqlite-open'

/** A snapshot file as it was when its open-time check passed: the same path, size and mtime is the same file. */
export interface CheckedFile {
  readonly size: number
  readonly mtimeMs: number
}

export interface SnapshotOpenOptions {
  /**
   * The file as another open in this session found it sound (a reader's `checkedAs`, sent with a worker's job):
   * when it is unchanged the quick_check is not run again. Anything else is checked as usual.
   */
  readonly alreadyChecked?: CheckedFile
}

/**
 * A read-only connection to one committed snapshot. The file never changes, so everything derived from it
 * (the query engine's in-memory index) stays valid for the reader's whole life, keyed by `runId`.
 *
 * When a newer snapshot is committed, the cache marks this reader stale; it closes once the last lease (an
 * export streaming rows, say) is released, and the cache can then delete the file.
 */
export class SnapshotReader {
  readonly db: SqliteDatabase
  private leases = 0
  private stale = false
  private closed = false
  private readonly onClosed: (reader: SnapshotReader) => void

  private constructor(
    readonly runId: number,
    readonly path: string,
    /** The file as this open checked it (or trusted an earlier check of it). */
    readonly checkedAs: CheckedFile,
    db: SqliteDatabase,
    onClosed: (reader: SnapshotReader) => void,
  ) {
    this.db = db
    this.onClosed = onClosed
  }

  /** Opens and checks a committed snapshot file (quick_check up to QUICK_CHECK_AT_OPEN_MAX_BYTES). */
  static open(
    path: string,
    runId: number,
    onClosed: (reader: SnapshotReader) => void = () => undefined,
    options: SnapshotOpenOptions = {},
  ): SnapshotReader {
    const db = openSqlite(path, { readonly: true, fileMustExist: true })
    let checkedAs: CheckedFile
    try {
      checkSnapshotFormat(db, path)
      const stats = statSync(path)
      checkedAs = { size: stats.size, mtimeMs: stats.mtimeMs }
      const trusted =
        options.alreadyChecked !== undefined &&
        options.alreadyChecked.size === checkedAs.size &&
        options.alreadyChecked.mtimeMs === checkedAs.mtimeMs
      if (!trusted && checkedAs.size <= QUICK_CHECK_AT_OPEN_MAX_BYTES) quickCheck(db, path)
    } catch (error) {
      db.close()
      throw storageError(error, path)
    }
    return new SnapshotReader(runId, path, checkedAs, db, onClosed)
  }

  get isOpen(): boolean {
    return !this.closed
  }

  /** Keeps the connection open until the returned function is called, even if a newer snapshot arrives. */
  retain(): () => void {
    this.leases++
    let released = false
    return () => {
      if (released) return
      released = true
      this.leases--
      if (this.stale && this.leases === 0) this.close()
    }
  }

  /** A newer snapshot replaced this one: close now, or when the last lease ends. */
  markStale(): void {
    this.stale = true
    if (this.leases === 0) this.close()
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.db.close()
    this.onClosed(this)
  }

  /**
   * The whole-file check, whatever the size: a sync runs it before it trusts this snapshot as its base. Through
   * a connection of its own, so pages this reader already cached cannot hide what is on the disk now.
   */
  verify(): void {
    const db = openSqlite(this.path, { readonly: true, fileMustExist: true })
    try {
      quickCheck(db, this.path)
    } catch (error) {
      throw storageError(error, this.path)
    } finally {
      db.close()
    }
  }

  /** A value written by the run that built this snapshot (run id, counts, tracked pay cycles). */
  info(key: string): string | undefined {
    const value = this.db.prepare('SELECT value FROM snapshot_info WHERE key = ?').pluck().get(key)
    return typeof value === 'string' ? value : undefined
  }
}
