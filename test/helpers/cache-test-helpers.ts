import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import type { CacheKey } from '../../src/main/core/sqlite/cache-key'
import { rawDatabase, TEST_CACHE_KEY } from './test-cache-key'

/** A fresh directory under the OS temp dir; `cleanup` removes it. */
export function makeTempDir(prefix = 'rosterdesk-cache-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Every row of every table (and the schema) of one SQLite file, hashed in a stable order: a file encrypted with
 * `key` (the tests' by default), or a plain one (`'plain'`: a cache written before issue 34).
 */
export function logicalHash(
  path: string,
  skipTables: readonly string[] = [],
  key: CacheKey | 'plain' = TEST_CACHE_KEY,
): string {
  const db =
    key === 'plain'
      ? new Database(path, { readonly: true, fileMustExist: true })
      : rawDatabase(path, { readonly: true, fileMustExist: true }, key)
  try {
    const hash = createHash('sha256')
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index', 'view') ORDER BY name")
      .all() as Array<{ name: string; sql: string | null }>
    for (const table of tables) {
      hash.update(`${table.name}\n${table.sql ?? ''}\n`)
    }
    const dataTables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[]
    for (const name of dataTables) {
      if (skipTables.includes(name)) continue
      const rows = db.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).raw().all()
      hash.update(`${name}:${JSON.stringify(rows)}\n`)
    }
    return hash.digest('hex')
  } finally {
    db.close()
  }
}

export function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** The current snapshot file a catalog names, read straight from the catalog (no RosterDesk code involved). */
export function currentSnapshotPath(catalogPath: string): string | null {
  const db = rawDatabase(catalogPath, { fileMustExist: true })
  try {
    const file = db.prepare('SELECT file FROM current_snapshot WHERE id = 1').pluck().get()
    return typeof file === 'string' ? join(`${catalogPath}.snapshots`, file) : null
  } finally {
    db.close()
  }
}

export interface CacheFingerprint {
  /** Catalog content other than the run log (the pointer to the current snapshot). */
  readonly catalog: string
  /** The run log rows that already existed (a failed run may only add its own row). */
  readonly runs: ReadonlyArray<unknown[]>
  readonly snapshotPath: string | null
  readonly snapshotLogical: string | null
  readonly snapshotBytes: string | null
}

/** Everything a failed run must leave untouched, taken after the catalog's WAL is checkpointed. */
export function fingerprintCache(catalogPath: string): CacheFingerprint {
  const checkpoint = rawDatabase(catalogPath, { fileMustExist: true })
  checkpoint.pragma('wal_checkpoint(TRUNCATE)')
  const runs = checkpoint.prepare('SELECT * FROM sync_runs ORDER BY id').raw().all()
  checkpoint.close()
  const snapshotPath = currentSnapshotPath(catalogPath)
  const present = snapshotPath !== null && existsSync(snapshotPath)
  return {
    catalog: logicalHash(catalogPath, ['sync_runs', 'sqlite_sequence']),
    runs,
    snapshotPath,
    snapshotLogical: present ? logicalHash(snapshotPath) : null,
    snapshotBytes: present ? fileHash(snapshotPath) : null,
  }
}

/** A run's summary as `endRun` and `completeRun` take it: complete, nothing counted, ended now. */
export function summaryFor(id: number, startedAt: string) {
  return {
    id,
    status: 'complete' as const,
    startedAt,
    endedAt: new Date().toISOString(),
    totalCount: 0,
    stored: 0,
    pages: 0,
    requests: 0,
    durationMs: 0,
  }
}
