import Database from 'better-sqlite3'
import { RosterDeskError } from '../errors'

export type SqliteDatabase = Database.Database

export interface SqliteOpenOptions {
  readonly readonly?: boolean
  readonly fileMustExist?: boolean
  /** Milliseconds to wait for a lock; 0 fails at once (used to probe whether a writer is alive). */
  readonly timeout?: number
}

/** Opens one SQLite connection; failures become clerk-readable storage errors. */
export function openSqlite(path: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  try {
    return new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.fileMustExist ?? false,
      timeout: options.timeout ?? 5000,
    })
  } catch (error) {
    throw storageError(error, path)
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
  if (error instanceof RosterDeskError) return error
  const code = sqliteCode(error) ?? (error instanceof Error ? error.message : 'unknown')
  const detail = `${code} (${path})`
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new RosterDeskError(
      'storage',
      `The employee cache file ${path} is damaged or is not a RosterDesk cache. Move it aside and sync again.`,
      { detail, cause: error },
    )
  }
  if (code === 'SQLITE_CANTOPEN' || /directory does not exist|unable to open/i.test(code)) {
    return new RosterDeskError('storage', `RosterDesk could not open the employee cache file ${path}.`, {
      detail,
      cause: error,
    })
  }
  if (code.startsWith('SQLITE_FULL')) {
    return new RosterDeskError('storage', 'The disk is full, so the employee cache could not be written.', {
      detail,
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
