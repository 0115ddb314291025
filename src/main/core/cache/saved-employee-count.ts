import { existsSync } from 'node:fs'
import type { SyncRunSummary } from '../../../shared/domain/sync'
import type { CacheKey } from '../sqlite/cache-key'
import { openSqlite, type SqliteDatabase } from '../sqlite/sqlite-open'
import { RunLog } from './run-log'

/**
 * How many employees a cache that is not open holds (another profile's), read from its catalog's pointer to the
 * current snapshot without opening the cache as the app does (no sweep, no migration): 0 when it has never been
 * synced, undefined when its catalog cannot be read (or not with `key`).
 */
export function savedEmployeeCount(catalogPath: string, key: CacheKey): number | undefined {
  if (!existsSync(catalogPath)) return 0
  let db: SqliteDatabase | undefined
  try {
    db = openSqlite(catalogPath, { readonly: true, fileMustExist: true, key })
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
export function hasCurrentSnapshot(catalogPath: string, key: CacheKey): boolean {
  if (!existsSync(catalogPath)) return false
  let db: SqliteDatabase | undefined
  try {
    db = openSqlite(catalogPath, { readonly: true, fileMustExist: true, key })
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
 * catalog cannot be read (or no `key` is at hand: the CLI before it ever made one).
 */
export function recentSyncRuns(
  catalogPath: string,
  key: CacheKey | undefined,
  limit: number,
): SyncRunSummary[] | undefined {
  if (!existsSync(catalogPath)) return []
  if (key === undefined) return undefined
  let db: SqliteDatabase | undefined
  try {
    db = openSqlite(catalogPath, { readonly: true, fileMustExist: true, key })
    return new RunLog(db).recent(limit)
  } catch {
    return undefined
  } finally {
    db?.close()
  }
}
