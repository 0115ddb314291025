import { changeReportSchema } from '../../../shared/domain/changes'
import type { ChangeReport } from '../../../shared/domain/changes'
import type { SyncOutcome, SyncRunSummary } from '../../../shared/domain/sync'
import { prepared, preparedValue } from '../sqlite/prepared-statements'
import type { SqliteDatabase } from '../sqlite/sqlite-open'

/** The settings a run used, kept in the log so a clerk (or support) can see how a past sync was made. */
export interface RunSettings {
  readonly pageSize: number
  readonly concurrency: number
  readonly trackedPayCycles: readonly string[]
  readonly tenantId?: string
  /** The service address synced from (no user info); absent in runs logged before it was recorded. */
  readonly baseUrl?: string
  /** The environment that address belonged to ('demo', 'staging', …), when the caller said; for the history. */
  readonly environment?: string
  /** The `statusFilter` every list of the run was read with ('1': active employees only); absent: everyone. */
  readonly statusFilter?: string
}

interface RunRow {
  id: number
  started_at: string
  ended_at: string | null
  status: string
  total_count: number
  stored: number
  pages: number
  requests: number
  duration_ms: number
  error: string | null
  error_code: string | null
  change_report: string | null
  snapshot_file: string
  truncated_fields: number
  numbers_too_large: number
  numbers_too_small: number
}

const SELECT_RUN = `SELECT id, started_at, ended_at, status, total_count, stored, pages, requests, duration_ms,
  error, error_code, change_report, snapshot_file, truncated_fields, numbers_too_large, numbers_too_small
  FROM sync_runs`

/** Reads and writes the sync_runs table of the catalog. */
export class RunLog {
  constructor(private readonly db: SqliteDatabase) {}

  /** Logs a run as started, writing into `snapshotFile`, and returns its id. */
  insertRunning(startedAt: string, snapshotFile: string, settings: RunSettings): number {
    const result = prepared(
      this.db,
      `INSERT INTO sync_runs (started_at, status, snapshot_file, settings) VALUES (?, 'running', ?, ?)`,
    ).run(startedAt, snapshotFile, JSON.stringify(settings))
    return Number(result.lastInsertRowid)
  }

  /** Records how a run ended. Called inside the commit transaction for complete runs. */
  finish(summary: SyncRunSummary): void {
    prepared(
      this.db,
      `UPDATE sync_runs SET ended_at = ?, status = ?, total_count = ?, stored = ?, pages = ?, requests = ?,
           duration_ms = ?, error = ?, error_code = ?, change_report = ?, truncated_fields = ?,
           numbers_too_large = ?, numbers_too_small = ? WHERE id = ?`,
    ).run(
      summary.endedAt,
      summary.status,
      summary.totalCount,
      summary.stored,
      summary.pages,
      summary.requests,
      summary.durationMs,
      summary.error ?? null,
      summary.errorCode ?? null,
      summary.changes === undefined ? null : JSON.stringify(summary.changes),
      summary.truncatedFields ?? 0,
      summary.numbersTooLarge ?? 0,
      summary.numbersTooSmall ?? 0,
      summary.id,
    )
  }

  /** The settings a run was started with; undefined when the run is unknown or its record unreadable. */
  settingsOf(id: number): RunSettings | undefined {
    const text = preparedValue(this.db, 'SELECT settings FROM sync_runs WHERE id = ?').get(id)
    if (typeof text !== 'string') return undefined
    try {
      const value: unknown = JSON.parse(text)
      if (typeof value !== 'object' || value === null) return undefined
      const record = value as Record<string, unknown>
      const optionalText = (key: string): string | undefined =>
        typeof record[key] === 'string' ? record[key] : undefined
      const tenantId = optionalText('tenantId')
      const baseUrl = optionalText('baseUrl')
      const environment = optionalText('environment')
      const statusFilter = optionalText('statusFilter')
      return {
        pageSize: Number(record['pageSize']),
        concurrency: Number(record['concurrency']),
        trackedPayCycles: Array.isArray(record['trackedPayCycles'])
          ? record['trackedPayCycles'].filter((id): id is string => typeof id === 'string')
          : [],
        ...(tenantId === undefined ? {} : { tenantId }),
        ...(baseUrl === undefined ? {} : { baseUrl }),
        ...(environment === undefined ? {} : { environment }),
        ...(statusFilter === undefined ? {} : { statusFilter }),
      }
    } catch {
      return undefined
    }
  }

  /** Marks a run whose process died (no one holds its snapshot file any more) as failed. */
  markInterrupted(id: number, endedAt: string): void {
    prepared(
      this.db,
      `UPDATE sync_runs SET status = 'failed', ended_at = ?, error = ? WHERE id = ? AND status = 'running'`,
    ).run(
      endedAt,
      'The sync stopped unexpectedly (RosterDesk was closed or crashed). Nothing was changed.',
      id,
    )
  }

  /**
   * Notes in the run log that the saved employees were found damaged and set aside, as a failed run with the
   * 'damaged-cache' code: the app's status shows it like any failed sync (after a restart too) until a sync
   * rebuilds the cache. `file` names what was set aside.
   */
  recordDamage(at: string, file: string, message: string): void {
    prepared(
      this.db,
      `INSERT INTO sync_runs (started_at, ended_at, status, error, error_code, snapshot_file, settings)
         VALUES (?, ?, 'failed', ?, 'damaged-cache', ?, '{}')`,
    ).run(at, at, message, file)
  }

  /** The status of the run that wrote (or is writing) a snapshot file; undefined when no run names it. */
  statusOfFile(snapshotFile: string): string | undefined {
    const value = preparedValue(
      this.db,
      'SELECT status FROM sync_runs WHERE snapshot_file = ? ORDER BY id DESC LIMIT 1',
    ).get(snapshotFile)
    return typeof value === 'string' ? value : undefined
  }

  running(): Array<{ id: number; startedAt: string; snapshotFile: string }> {
    return prepared<RunRow>(this.db, `${SELECT_RUN} WHERE status = 'running' ORDER BY id`)
      .all()
      .map((row) => ({ id: row.id, startedAt: row.started_at, snapshotFile: row.snapshot_file }))
  }

  get(id: number): SyncRunSummary | undefined {
    const row = prepared<RunRow>(this.db, `${SELECT_RUN} WHERE id = ?`).get(id)
    return row === undefined ? undefined : toSummary(row)
  }

  /** The latest finished run, whatever its outcome. */
  last(): SyncRunSummary | undefined {
    const row = prepared<RunRow>(
      this.db,
      `${SELECT_RUN} WHERE status != 'running' ORDER BY id DESC LIMIT 1`,
    ).get()
    return row === undefined ? undefined : toSummary(row)
  }

  /** The latest finished runs, newest first. */
  recent(limit: number): SyncRunSummary[] {
    return prepared<RunRow>(this.db, `${SELECT_RUN} WHERE status != 'running' ORDER BY id DESC LIMIT ?`)
      .all(limit)
      .map(toSummary)
  }
}

function toSummary(row: RunRow): SyncRunSummary {
  const status: SyncOutcome =
    row.status === 'complete' || row.status === 'cancelled' || row.status === 'failed' ? row.status : 'failed'
  const summary: SyncRunSummary = {
    id: row.id,
    status,
    startedAt: row.started_at,
    endedAt: row.ended_at ?? row.started_at,
    totalCount: row.total_count,
    stored: row.stored,
    pages: row.pages,
    requests: row.requests,
    durationMs: row.duration_ms,
  }
  if (row.error !== null) summary.error = row.error
  if (row.error_code !== null) summary.errorCode = row.error_code
  const changes = parseChanges(row.change_report)
  if (changes !== undefined) summary.changes = changes
  if (row.truncated_fields > 0) summary.truncatedFields = row.truncated_fields
  if (row.numbers_too_large > 0) summary.numbersTooLarge = row.numbers_too_large
  if (row.numbers_too_small > 0) summary.numbersTooSmall = row.numbers_too_small
  return summary
}

/** The last change report read, by its stored text: the window asks for the status often, the report rarely changes. */
let lastParsed: { readonly text: string; readonly report: ChangeReport | undefined } | undefined

/** A run's stored change report checked against its schema; undefined when absent or not a report. */
function parseChanges(text: string | null): ChangeReport | undefined {
  if (text === null) return undefined
  if (lastParsed?.text === text) return lastParsed.report
  let report: ChangeReport | undefined
  try {
    const parsed = changeReportSchema.safeParse(JSON.parse(text))
    report = parsed.success ? parsed.data : undefined
  } catch {
    report = undefined
  }
  lastParsed = { text, report }
  return report
}
