import { RosterDeskError } from '../errors'
import type { SqliteDatabase } from '../sqlite/sqlite-open'

/**
 * The catalog is the file the user names (`--db`, the app's cache path). It holds the sync-run log and the
 * pointer to the current snapshot file; the employees themselves live in immutable snapshot files beside it
 * (see snapshot-schema.ts), so swapping a snapshot is one small transaction here.
 */

/** "RDC1": marks a file as a RosterDesk catalog, so a stray SQLite file is refused rather than altered. */
export const CATALOG_APPLICATION_ID = 0x52444331

/** Each entry migrates from user_version = its index to index + 1. Never edit a shipped entry; append. */
const MIGRATIONS: ReadonlyArray<string> = [
  `
  CREATE TABLE sync_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'failed', 'cancelled')),
    total_count INTEGER NOT NULL DEFAULT 0,
    stored INTEGER NOT NULL DEFAULT 0,
    pages INTEGER NOT NULL DEFAULT 0,
    requests INTEGER NOT NULL DEFAULT 0,
    duration_ms REAL NOT NULL DEFAULT 0,
    error TEXT,
    change_report TEXT,
    snapshot_file TEXT NOT NULL,
    settings TEXT NOT NULL
  );
  CREATE INDEX sync_runs_status ON sync_runs (status, id);
  CREATE TABLE current_snapshot (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    run_id INTEGER NOT NULL REFERENCES sync_runs (id),
    file TEXT NOT NULL,
    employee_count INTEGER NOT NULL,
    committed_at TEXT NOT NULL
  );
  `,
  // 2: the error's code (network, service, …), so the UI can tell "offline" from other failures after a restart.
  `ALTER TABLE sync_runs ADD COLUMN error_code TEXT`,
  // 3: the file holding a complete run's change entries (change-log-file.ts), named once its run is committed and
  // cleared when the history lets it go; NULL for runs before this version and for first syncs.
  `ALTER TABLE sync_runs ADD COLUMN changes_file TEXT`,
  // 4: how many field values a complete run cut to the longest field allowed, so the clerk is told after a restart
  // too; 0 for runs before this version.
  `ALTER TABLE sync_runs ADD COLUMN truncated_fields INTEGER NOT NULL DEFAULT 0`,
  // 5, 6: how many numbers beyond a double's range a complete run kept as their text (decision 052), so the clerk
  // is told after a restart too; 0 for runs before this version.
  `ALTER TABLE sync_runs ADD COLUMN numbers_too_large INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE sync_runs ADD COLUMN numbers_too_small INTEGER NOT NULL DEFAULT 0`,
]

export const CATALOG_VERSION = MIGRATIONS.length

/**
 * Brings a catalog to CATALOG_VERSION inside one transaction per step. A file that belongs to something else,
 * or to a newer RosterDesk, is refused untouched.
 */
export function migrateCatalog(db: SqliteDatabase, path: string, writable: boolean): void {
  const applicationId = Number(db.pragma('application_id', { simple: true }))
  const version = Number(db.pragma('user_version', { simple: true }))
  if (applicationId !== CATALOG_APPLICATION_ID) {
    const tables = Number(db.prepare('SELECT count(*) FROM sqlite_master').pluck().get())
    if (applicationId !== 0 || tables > 0) {
      throw new RosterDeskError(
        'storage',
        `${path} is not a RosterDesk employee cache. Choose another file, or move this one aside.`,
        { detail: `application_id=${applicationId} tables=${tables}` },
      )
    }
  }
  if (version > CATALOG_VERSION) {
    throw new RosterDeskError(
      'storage',
      'The employee cache was written by a newer version of RosterDesk. Update RosterDesk to use it.',
      { detail: `user_version=${version} supported=${CATALOG_VERSION}` },
    )
  }
  if (version === CATALOG_VERSION) return
  if (!writable) {
    throw new RosterDeskError('storage', `${path} has no synced employees yet. Run a sync first.`, {
      detail: `user_version=${version}`,
    })
  }
  for (let step = version; step < CATALOG_VERSION; step++) {
    const sql = MIGRATIONS[step]
    if (sql === undefined) break
    db.transaction(() => {
      db.exec(sql)
      db.pragma(`application_id = ${CATALOG_APPLICATION_ID}`)
      db.pragma(`user_version = ${step + 1}`)
    }).immediate()
  }
}
