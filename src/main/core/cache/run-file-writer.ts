import { dirname } from 'node:path'
import { fsyncDirectory, fsyncFileAsync } from '../durable-fs'
import { createRunFile, removeSnapshotFile } from './snapshot-files'
import { storageError } from './sqlite-open'
import type { SqliteDatabase } from './sqlite-open'

/**
 * Creates a file one sync run writes once (a snapshot, a change log), private to the run until the catalog names
 * it (see createRunFile), and builds its writer over it. If anything fails on the way, nothing is left behind.
 */
export function createRunFileWriter<T>(path: string, build: (db: SqliteDatabase) => T): T {
  let db: SqliteDatabase
  try {
    db = createRunFile(path)
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
