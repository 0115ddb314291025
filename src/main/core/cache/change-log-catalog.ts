import { prepared, preparedValue } from '../sqlite/prepared-statements'
import type { SqliteDatabase } from '../sqlite/sqlite-open'

/** A complete run as the change history lists it (the report and settings as stored, parsed by RunLog). */
export interface CompleteRunRow {
  readonly id: number
  readonly startedAt: string
  readonly endedAt: string
  readonly stored: number
  /** The change log file's name in the change log folder (`<catalog>.changes/`); null when the run has none (any more). */
  readonly changesFile: string | null
}

interface Row {
  id: number
  started_at: string
  ended_at: string | null
  stored: number
  changes_file: string | null
}

/**
 * The catalog's side of the change history: which complete run has which change log (`sync_runs.changes_file`,
 * catalog migration 3). It owns the statements on that column; the rest of sync_runs is RunLog's.
 */
export class ChangeLogCatalog {
  constructor(private readonly db: SqliteDatabase) {}

  /** Names a run's change log. Called inside the transaction that makes the run complete. */
  name(runId: number, file: string): void {
    prepared(this.db, 'UPDATE sync_runs SET changes_file = ? WHERE id = ?').run(file, runId)
  }

  /** Forgets the change logs of these runs (their files are deleted once the transaction commits). */
  forget(runIds: readonly number[]): void {
    const clear = prepared(this.db, 'UPDATE sync_runs SET changes_file = NULL WHERE id = ?')
    for (const id of runIds) clear.run(id)
  }

  /** Complete runs, newest first: all of them, or the newest `limit`. */
  completeRuns(limit = -1): CompleteRunRow[] {
    return prepared<Row>(
      this.db,

      `SELECT id, started_at, ended_at, stored, changes_file FROM sync_runs
         WHERE status = 'complete' ORDER BY id DESC LIMIT ?`,
    )
      .all(limit)
      .map((row) => ({
        id: row.id,
        startedAt: row.started_at,
        endedAt: row.ended_at ?? row.started_at,
        stored: row.stored,
        changesFile: row.changes_file,
      }))
  }

  /** The change log of a complete run, or undefined when it has none. */
  fileOf(runId: number): string | undefined {
    const value: unknown = preparedValue(
      this.db,
      `SELECT changes_file FROM sync_runs WHERE id = ? AND status = 'complete'`,
    ).get(runId)
    return typeof value === 'string' ? value : undefined
  }

  /** Every change log the catalog names, so a sweep can tell them from debris. */
  namedFiles(): Set<string> {
    return new Set(
      preparedValue(this.db, 'SELECT changes_file FROM sync_runs WHERE changes_file IS NOT NULL')
        .all()
        .filter((value): value is string => typeof value === 'string'),
    )
  }
}
