import { existsSync } from 'node:fs'
import type { SyncRunSummary } from '../../../shared/domain/sync'
import { openSqlite, type SqliteDatabase } from '../sqlite/sqlite-open'
import { RunLog } from './run-log'

/**
 * How many employees a cache that is not open holds (another profile's), read from its catalog's pointer to the
 * current snapshot without opening the cache as the app does (no sweep, no migration): 0 when it has never been
 * synced, undefined when its catalog cannot be read.
 */
export function savedEmployeeCount(catalogPath: string): number | undefined {
  if (!existsSync(catalogPath)) return 0
  let db: SqliteDatabase | undefined
  try {
    db = openSqlite(catalogPath, { readonly: true, fileMustExist: true })
    const count: unknown = db
      .prepare('SELECT employee_count FROM current_snapshot WHERE id = 1')
      .pluck()
      .get()
    if (count === undefined) return 0
    return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : undefined
  } catch {
    return undefined
  } finally {
    db?.close()
  }
}

/**
 * Whether a cache that is not open holds a complete sync (its catalog points at a snapshot), read as
 * `savedEmployeeCount` reads it; false when it has none or its catalog cannot be read.
 */
export function hasCurrentSnapshot(catalogPath: string): boolean {
  if (!existsSync(catalogPath)) return false
  let db: SqliteDatabase | undefined
  try {
    db = openSqlite(catalogPath, { readonly: true, fileMustExist: true })
    return db.prepare('SELECT 1 FROM current_snapshot WHERE id = 1').pluck().get() !== undefined
  } catch {
    return false
  } finally {
    db?.close()
  }
}

/**
 * The latest `limit` finished sync runs of a cache that is not open, newest first, read from its catalog's run log
 * as `savedEmployeeCount` reads it (diagnostics: every profile's): [] when it was never synced, undefined when its
 * catalog cannot be read.
 */
export function recentSyncRuns(catalogPath: string, limit: number): SyncRunSummary[] | undefined {
  if (!existsSync(catalogPath)) return []
  let db: SqliteDatabase | undefined
  try {
    db = openSqlite(catalogPath, { readonly: true, fileMustExist: true })
    return new RunLog(db).recent(limit)
  } catch {
    return undefined
  } finally {
    db?.close()
  }
}
