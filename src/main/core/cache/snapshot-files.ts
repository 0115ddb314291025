import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import type { CacheKey } from '../sqlite/cache-key'
import { openSqlite, sqliteCode } from '../sqlite/sqlite-open'

/**
 * Where snapshot files live and how to tell a live one from debris. Snapshots sit in `<catalog>.snapshots/`
 * so a sweep can list them without touching anything else in the folder; the change logs of complete runs
 * (change-log-file.ts) likewise in `<catalog>.changes/`.
 */

const SNAPSHOT_NAME = /^snapshot-[0-9a-z]+-[0-9a-f]+\.sqlite$/
const CHANGE_LOG_NAME = /^changes-[0-9a-z]+-[0-9a-f]+\.sqlite$/

export function snapshotDirectoryOf(catalogPath: string): string {
  return `${catalogPath}.snapshots`
}

export function changeLogDirectoryOf(catalogPath: string): string {
  return `${catalogPath}.changes`
}

/**
 * A fresh, unique name for a run's snapshot. Not derived from the run id: the file is created (and locked)
 * before the run is logged, so a run logged as running always has a file whose lock tells whether it is alive.
 */
export function newSnapshotFileName(now: number): string {
  return `snapshot-${now.toString(36)}-${randomBytes(6).toString('hex')}.sqlite`
}

export function isSnapshotFileName(name: string): boolean {
  return SNAPSHOT_NAME.test(name)
}

/** A fresh, unique name for a run's change log; like snapshots', never derived from the run id. */
export function newChangeLogFileName(now: number): string {
  return `changes-${now.toString(36)}-${randomBytes(6).toString('hex')}.sqlite`
}

/** Change logs in the directory (side files excluded); empty when the directory does not exist. */
export function listChangeLogFiles(directory: string): string[] {
  try {
    return readdirSync(directory).filter((name) => CHANGE_LOG_NAME.test(name))
  } catch {
    return []
  }
}

/** Snapshot files in the directory (side files excluded); empty when the directory does not exist. */
export function listSnapshotFiles(directory: string): string[] {
  try {
    return readdirSync(directory).filter(isSnapshotFileName)
  } catch {
    return []
  }
}

/**
 * True while a sync run is writing the file: writers hold SQLite's exclusive lock for their whole life, and the
 * OS drops it when the process dies, so a killed run's file reads as free.
 */
export function isSnapshotBeingWritten(path: string, key: CacheKey): boolean {
  let db
  try {
    db = openSqlite(path, { fileMustExist: true, timeout: 0, key })
    db.prepare('SELECT count(*) FROM sqlite_master').get()
    return false
  } catch (error) {
    const code = sqliteCode(error) ?? sqliteCode(error instanceof Error ? error.cause : undefined)
    return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
  } finally {
    db?.close()
  }
}
