import { statSync } from 'node:fs'
import type { CacheKey } from '../sqlite/cache-key'
import { openSqlite, type SqliteDatabase } from '../sqlite/sqlite-open'
import { processIsAlive, readOwner, writerLockPathOf } from './writer-lock'

/**
 * When a cache that is not open last received a complete sync (its catalog's current snapshot was committed), in
 * ms since the epoch, read without opening the cache as the app does; a cache with no complete sync, or whose
 * catalog cannot be read (or not with `key`), is as old as its catalog file. Undefined when there is no catalog.
 */
export function lastSavedAt(catalogPath: string, key: CacheKey): number | undefined {
  let fileTime: number
  try {
    fileTime = statSync(catalogPath).mtimeMs
  } catch {
    return undefined
  }
  let db: SqliteDatabase | undefined
  try {
    db = openSqlite(catalogPath, { readonly: true, fileMustExist: true, key })
    const committed: unknown = db
      .prepare('SELECT committed_at FROM current_snapshot WHERE id = 1')
      .pluck()
      .get()
    const at = typeof committed === 'string' ? Date.parse(committed) : Number.NaN
    return Number.isFinite(at) ? at : fileTime
  } catch {
    return fileTime
  } finally {
    db?.close()
  }
}

/** Whether a live process holds the cache's writer lock (a CLI sync writing it now). */
export function writerIsActive(catalogPath: string): boolean {
  const owner = readOwner(writerLockPathOf(catalogPath))
  return owner !== undefined && processIsAlive(owner.pid)
}
