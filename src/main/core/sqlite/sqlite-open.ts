import Database from 'better-sqlite3-multiple-ciphers'
import { readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { diskFullError, isDiskFull } from '../disk-full'
import { RosterDeskError } from '../errors'
import { createOwnerOnlyFile } from '../owner-only'
import { cipherPragmas, type CacheKey } from './cache-key'

/**
 * core/sqlite is the SQLite plumbing both stores stand on, the catalog and change logs (core/cache) and the
 * snapshots (core/snapshot): opening a connection and turning its failures into clerk-readable errors (here), and
 * the files a sync run writes once (run-file-writer.ts). It imports neither store, so that between the two
 * imports go one way: core/cache (the catalog, which opens, creates and checks snapshots) imports core/snapshot,
 * never the other way.
 */

export type SqliteDatabase = Database.Database

export interface SqliteOpenOptions {
  readonly readonly?: boolean
  readonly fileMustExist?: boolean
  /** Milliseconds to wait for a lock; 0 fails at once (used to probe whether a writer is alive). */
  readonly timeout?: number
  /**
   * The key the file is encrypted with (cache-key.ts). Absent: a plain SQLite file (the tests' raw readers and the
   * migration's source only). A wrong key, or a plain file opened with one, fails here as a damaged cache.
   */
  readonly key?: CacheKey
}

/**
 * Opens one SQLite connection; failures become clerk-readable storage errors. A database it may create is created
 * 0600 first (owner-only.ts; SQLite would make it 0644), and SQLite gives its -journal, -wal and -shm files the
 * database file's mode.
 */
export function openSqlite(path: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  try {
    if (options.readonly !== true && options.fileMustExist !== true) createFirst(path)
    const db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.fileMustExist ?? false,
      timeout: options.timeout ?? 5000,
    })
    if (options.key !== undefined) unlock(db, options.key)
    return db
  } catch (error) {
    throw storageError(error, path)
  }
}

/**
 * Gives a new connection its key and proves it on the first page: a wrong key (a lost or new keychain, a copied
 * profile) is SQLITE_NOTADB here, not later, and fails as a damaged cache in the words of LOCKED_CACHE_MESSAGE.
 */
function unlock(db: SqliteDatabase, key: CacheKey): void {
  try {
    for (const pragma of cipherPragmas(key)) db.pragma(pragma)
    db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get()
  } catch (error) {
    db.close()
    if (sqliteCode(error) === 'SQLITE_NOTADB')
      throw new RosterDeskError('damaged-cache', LOCKED_CACHE_MESSAGE, {
        detail: 'SQLITE_NOTADB',
        cause: error,
      })
    throw error
  }
}

/** Creates the database file 0600 before SQLite opens it; a failure (a missing folder) is SQLite's to report. */
function createFirst(path: string): void {
  try {
    createOwnerOnlyFile(path)
  } catch {
    // SQLite tries the same path next and says what is wrong in its own words (SQLITE_CANTOPEN…).
  }
}

/** The SQLite result code of an error (SQLITE_BUSY, SQLITE_NOTADB...), or undefined for other errors. */
export function sqliteCode(error: unknown): string | undefined {
  if (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('SQLITE')
  ) {
    return error.code
  }
  return undefined
}

/** Translates a SQLite failure into what a clerk can do about it. Already-translated errors pass through. */
export function storageError(error: unknown, path: string): RosterDeskError {
  if (error instanceof RosterDeskError) {
    if (error.code !== 'damaged-cache' || error.detail === undefined || error.detail.includes(path))
      return error
    return new RosterDeskError('damaged-cache', error.message, {
      detail: `${error.detail} (${path})`,
      cause: error.cause,
    })
  }
  const code = sqliteCode(error) ?? (error instanceof Error ? error.message : 'unknown')
  const detail = `${code} (${path})`
  if (isDamage(code)) return damagedCacheError(detail, error)
  if (code === 'SQLITE_CANTOPEN' || /directory does not exist|unable to open/i.test(code)) {
    return new RosterDeskError('storage', `RosterDesk could not open the employee cache file ${path}.`, {
      detail,
      cause: error,
    })
  }
  if (isDiskFull(error)) {
    return diskFullError({
      what: 'Saving the employees',
      folder: dirname(path),
      neededBytes: largestFileBeside(path),
      kept: 'The employees saved before are kept.',
      cause: error,
    })
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM')) {
    return new RosterDeskError('storage', `RosterDesk may not write the employee cache file ${path}.`, {
      detail,
      cause: error,
    })
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new RosterDeskError(
      'busy',
      'Another RosterDesk window or command is using the employee cache. Try again in a moment.',
      { detail, cause: error },
    )
  }
  return new RosterDeskError('storage', `The employee cache could not be read or written (${code}).`, {
    detail,
    cause: error,
  })
}

/** What a clerk reads when a cache file is damaged; the detail (the file, SQLite's code) goes to the log. */
export const DAMAGED_CACHE_MESSAGE = 'The saved employees are damaged; sync to rebuild them.'

/**
 * What a clerk reads when a cache file does not open with this computer's key (or its first page is damaged): the
 * file is set aside like a damaged one and nothing else is lost.
 */
export const LOCKED_CACHE_MESSAGE =
  'The saved employees could not be unlocked with this computer’s key; a full sync is needed to rebuild them.'

/** SQLite's codes for a file that is not (or no longer) a valid database. */
export function isDamage(code: string | undefined): boolean {
  return code !== undefined && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
}

export function damagedCacheError(detail: string, cause?: unknown): RosterDeskError {
  return new RosterDeskError('damaged-cache', DAMAGED_CACHE_MESSAGE, {
    detail,
    ...(cause === undefined ? {} : { cause }),
  })
}

/**
 * The space a new file in this folder needs, estimated from the largest file already there: a new snapshot is
 * about the size of the last one (and of the run file that just filled the disk).
 */
function largestFileBeside(path: string): number {
  const folder = dirname(path)
  let largest = 0
  try {
    for (const name of readdirSync(folder)) {
      try {
        largest = Math.max(largest, statSync(join(folder, name)).size)
      } catch {
        // Deleted meanwhile: it weighs nothing.
      }
    }
  } catch {
    // The folder is unreadable: no estimate beyond the minimum.
  }
  return largest
}
