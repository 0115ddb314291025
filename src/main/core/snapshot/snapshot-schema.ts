import { statSync } from 'node:fs'
import { RosterDeskError } from '../errors'
import { damagedCacheError } from '../sqlite/sqlite-open'
import type { SqliteDatabase } from '../sqlite/sqlite-open'

/**
 * A snapshot file holds one complete copy of the service's employees. It is written once by a sync run, made
 * durable, and only then named by the catalog; after that nothing writes to it again. Readers therefore never
 * see a half-written snapshot, and a failed run leaves the previous snapshot's file untouched, byte for byte.
 *
 * Query speed comes from the in-memory search index (core/query): the sync builds it while writing and stores
 * it in `search_index` (dictionaries and typed arrays as blobs), so opening a snapshot reads a few blobs. The
 * whole row is kept as the service sent it in row_json; names, status and pay cycle also have columns.
 */

/** "RDS1": marks a file as a RosterDesk snapshot. */
export const SNAPSHOT_APPLICATION_ID = 0x52445331
/** Bumped when the layout below changes; a reader refuses formats it does not know. */
export const SNAPSHOT_FORMAT = 1

/**
 * Tables created before any rows are written. Indexes come at the end (SNAPSHOT_INDEXES): one sorted build over
 * all rows costs about a third of keeping a UUID index up to date through 100,000 random-order inserts.
 */
export const SNAPSHOT_TABLES = `
  CREATE TABLE employees (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL,
    uuid_key TEXT NOT NULL,
    first_name TEXT,
    last_name TEXT,
    employee_status TEXT,
    pay_cycle_id TEXT,
    row_json TEXT NOT NULL,
    row_hash INTEGER NOT NULL,
    change TEXT CHECK (change IN ('added', 'changed')),
    changed_fields TEXT
  );
  CREATE TABLE pay_cycle_members (
    pay_cycle_id TEXT NOT NULL,
    employee_id INTEGER NOT NULL,
    employee_uuid TEXT NOT NULL,
    PRIMARY KEY (pay_cycle_id, employee_id)
  ) WITHOUT ROWID;
  CREATE TABLE columns (
    position INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('text', 'number', 'date', 'boolean', 'mixed')),
    known INTEGER NOT NULL,
    present INTEGER NOT NULL
  );
  CREATE TABLE removed_employees (
    uuid TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    row_json TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE search_index (
    part TEXT PRIMARY KEY,
    data BLOB NOT NULL
  );
  CREATE TABLE snapshot_info (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE VIEW employee_pay_cycles (employee_id, employee_uuid, pay_cycle_id, source) AS
    SELECT id, uuid, pay_cycle_id, 'row' FROM employees WHERE pay_cycle_id IS NOT NULL
    UNION
    SELECT employee_id, employee_uuid, pay_cycle_id, 'list' FROM pay_cycle_members;
`

/** One statement per index, so a sync can let the event loop run between them. */
export const SNAPSHOT_INDEXES: readonly string[] = [
  'CREATE INDEX employees_uuid ON employees (uuid_key)',
  'CREATE INDEX pay_cycle_members_employee ON pay_cycle_members (employee_id)',
]

/** Marks a freshly written file as a complete snapshot of this format. */
export function stampSnapshot(db: SqliteDatabase): void {
  db.pragma(`application_id = ${SNAPSHOT_APPLICATION_ID}`)
  db.pragma(`user_version = ${SNAPSHOT_FORMAT}`)
}

/** Refuses a file that is not a finished snapshot of a format this version reads. */
export function checkSnapshotFormat(db: SqliteDatabase, path: string): void {
  const applicationId = Number(db.pragma('application_id', { simple: true }))
  const version = Number(db.pragma('user_version', { simple: true }))
  if (applicationId !== SNAPSHOT_APPLICATION_ID || version === 0) {
    throw damagedCacheError(`${path}: application_id=${applicationId} user_version=${version}`)
  }
  // A sealed snapshot has no journal, so its header's page count times the page size is exactly its length:
  // anything else is a truncated file, or one that gained bytes after it was sealed.
  const expected =
    Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }))
  const actual = statSync(path).size
  if (expected !== actual) {
    throw damagedCacheError(`${path}: ${actual} bytes, header says ${expected}`)
  }
  if (version > SNAPSHOT_FORMAT) {
    throw new RosterDeskError(
      'storage',
      'The employee cache was written by a newer version of RosterDesk. Update RosterDesk to use it.',
      { detail: `${path}: user_version=${version} supported=${SNAPSHOT_FORMAT}` },
    )
  }
}

/**
 * Snapshots up to this size get SQLite's quick_check when opened. The header checks catch a truncated file without
 * reading it; a whole-file check of a larger snapshot would take seconds on a cold disk at every start, and a sync
 * checks its base whatever the size (docs/decisions/016-damaged-files-set-aside.md).
 */
export const QUICK_CHECK_AT_OPEN_MAX_BYTES = 256 * 1024 * 1024

/**
 * SQLite's quick_check (every page read, b-trees and record formats checked, no index-to-table cross-check): the
 * proof that a bit flip anywhere in the file is found before a clerk's query or a sync's comparison trips on it.
 */
export function quickCheck(db: SqliteDatabase, path: string): void {
  const rows = db.pragma('quick_check(5)') as Array<{ quick_check: string }>
  const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok')
  if (problems.length > 0) throw damagedCacheError(`${path}: quick_check: ${problems.join('; ')}`)
}
