import { statSync } from 'node:fs'
import type { ChangeKind } from '../../../shared/domain/changes'
import type { ColumnInfo } from '../../../shared/domain/rows'
import type Database from 'better-sqlite3-multiple-ciphers'
import { SnapshotRowReader } from './row-reader'
import { checkSnapshotFormat, QUICK_CHECK_AT_OPEN_MAX_BYTES, quickCheck } from './snapshot-schema'
import { openSqlite, storageError } from '../sqlite/sqlite-open'
import type { SqliteDatabase } from '../sqlite/sqlite-open'
import type { CacheKey } from '../sqlite/cache-key'

/** A snapshot file as it was when its open-time check passed: the same path, size and mtime is the same file. */
export interface CheckedFile {
  readonly size: number
  readonly mtimeMs: number
}

export interface SnapshotOpenOptions {
  /**
   * The file as another open in this session found it sound (a reader's `checkedAs`, sent with a worker's job):
   * when it is unchanged the quick_check is not run again. Anything else is checked as usual.
   */
  readonly alreadyChecked?: CheckedFile
  /**
   * Checks only the format, never the pages: for a connection that reads one column of a snapshot another open
   * in this process already checked (the core worker's first-use builds), where a quick_check per build would
   * cost more than the build.
   */
  readonly formatOnly?: boolean
}

/** A value of one column as the snapshot holds it; booleans (stored as 0/1) read back as 'true'/'false'. */
export type StoredValue = string | number | bigint | null

/** A column as the sync recorded it (the whitelist of columns a query may name). */
export interface StoredColumn {
  readonly key: string
  readonly label: string
  readonly kind: ColumnInfo['kind']
  readonly known: boolean
}

/** An employee of the snapshot's run that the service no longer listed, with its last row. */
export interface RemovedRecord {
  readonly uuid: string
  readonly name: string
  readonly rowJson: string
}

/** An employee the snapshot's run added or changed. */
export interface ChangedRecord {
  readonly uuid: string
  readonly firstName: string | null
  readonly lastName: string | null
  /** The changed field names as JSON text (a list), or null. */
  readonly changedFields: string | null
  readonly rowJson: string
}

/** Known fields with a column of their own in the snapshot: read without parsing row JSON. */
const DEDICATED_COLUMNS: Readonly<Record<string, string>> = {
  UUID: 'uuid',
  firstName: 'first_name',
  lastName: 'last_name',
  employeeStatus: 'employee_status',
}

/**
 * A read-only connection to one committed snapshot, and every read of a snapshot file: the rest of core gets
 * typed values from these methods and never sees the connection (snapshot-writer.ts holds every write), so the
 * file's SQL lives in this folder alone. Statements are prepared on first use and kept. The file never changes, so everything derived from it
 * (the query engine's in-memory index) stays valid for the reader's whole life, keyed by `runId`.
 *
 * When a newer snapshot is committed, the cache marks this reader stale; it closes once the last lease (an
 * export streaming rows, say) is released, and the cache can then delete the file.
 */
export class SnapshotReader {
  private readonly db: SqliteDatabase
  private readonly statements = new Map<string, Database.Statement<unknown[]>>()
  private rowReader: SnapshotRowReader | undefined
  private leases = 0
  private stale = false
  private closed = false
  private readonly onClosed: (reader: SnapshotReader) => void

  private constructor(
    readonly runId: number,
    readonly path: string,
    /** The file as this open checked it (or trusted an earlier check of it). */
    readonly checkedAs: CheckedFile,
    db: SqliteDatabase,
    onClosed: (reader: SnapshotReader) => void,
    private readonly key: CacheKey,
  ) {
    this.db = db
    this.onClosed = onClosed
  }

  /**
   * Opens and checks a committed snapshot file (quick_check up to QUICK_CHECK_AT_OPEN_MAX_BYTES), encrypted with
   * `key` (a wrong key fails here as a damaged cache).
   */
  static open(
    path: string,
    key: CacheKey,
    runId: number,
    onClosed: (reader: SnapshotReader) => void = () => undefined,
    options: SnapshotOpenOptions = {},
  ): SnapshotReader {
    const db = openSqlite(path, { readonly: true, fileMustExist: true, key })
    let checkedAs: CheckedFile
    try {
      checkSnapshotFormat(db, path)
      const stats = statSync(path)
      checkedAs = { size: stats.size, mtimeMs: stats.mtimeMs }
      const trusted =
        options.formatOnly === true ||
        (options.alreadyChecked !== undefined &&
          options.alreadyChecked.size === checkedAs.size &&
          options.alreadyChecked.mtimeMs === checkedAs.mtimeMs)
      if (!trusted && checkedAs.size <= QUICK_CHECK_AT_OPEN_MAX_BYTES) quickCheck(db, path)
    } catch (error) {
      db.close()
      throw storageError(error, path)
    }
    return new SnapshotReader(runId, path, checkedAs, db, onClosed, key)
  }

  get isOpen(): boolean {
    return !this.closed
  }

  /** Keeps the connection open until the returned function is called, even if a newer snapshot arrives. */
  retain(): () => void {
    this.leases++
    let released = false
    return () => {
      if (released) return
      released = true
      this.leases--
      if (this.stale && this.leases === 0) this.close()
    }
  }

  /** A newer snapshot replaced this one: close now, or when the last lease ends. */
  markStale(): void {
    this.stale = true
    if (this.leases === 0) this.close()
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.db.close()
    this.onClosed(this)
  }

  /**
   * The whole-file check, whatever the size: a sync runs it before it trusts this snapshot as its base. Through
   * a connection of its own, so pages this reader already cached cannot hide what is on the disk now.
   */
  verify(): void {
    const db = openSqlite(this.path, { readonly: true, fileMustExist: true, key: this.key })
    try {
      quickCheck(db, this.path)
    } catch (error) {
      throw storageError(error, this.path)
    } finally {
      db.close()
    }
  }

  /** A value written by the run that built this snapshot (run id, counts, tracked pay cycles). */
  info(key: string): string | undefined {
    const value = this.db.prepare('SELECT value FROM snapshot_info WHERE key = ?').pluck().get(key)
    return typeof value === 'string' ? value : undefined
  }

  /** The columns the run recorded, in their order. */
  columns(): StoredColumn[] {
    return this.statement('SELECT key, label, kind, known FROM columns ORDER BY position')
      .raw()
      .all()
      .map(([key, label, kind, known]) => ({
        key: String(key),
        label: String(label),
        kind: kind as ColumnInfo['kind'],
        known: known === 1,
      }))
  }

  /**
   * One value per slot (id order) of a column the caller has checked against `columns()`: the dedicated column
   * for known fields, json_extract with a bound path for discovered ones (names never reach the SQL text).
   */
  columnValues(column: string, kind: ColumnInfo['kind']): StoredValue[] {
    const dedicated = Object.hasOwn(DEDICATED_COLUMNS, column) ? DEDICATED_COLUMNS[column] : undefined
    const rows =
      dedicated === undefined
        ? this.statement('SELECT json_extract(row_json, ?) FROM employees ORDER BY id')
            .pluck()
            .all(jsonPath(column))
        : this.statement(`SELECT ${dedicated} FROM employees ORDER BY id`).pluck().all()
    return rows.map((value) => storedValue(value, kind))
  }

  /** Rows by id, a batch per statement (row-reader.ts). */
  rows(): SnapshotRowReader {
    this.rowReader ??= new SnapshotRowReader(this.db)
    return this.rowReader
  }

  /** Ids of the employees whose lower-cased UUID starts with `prefix`. */
  *idsWithUuidPrefix(prefix: string): Generator<number> {
    const range = this.statement('SELECT id FROM employees WHERE uuid_key >= ? AND uuid_key < ?').pluck()
    for (const id of range.iterate(prefix, prefix + '\uffff')) yield Number(id)
  }

  /**
   * Every employee's lower-cased UUID in id order, joined by newlines, and how many employees there are: one string
   * built by SQLite ("Search in: UUID" looks for parts of them, query/uuid-parts.ts), several times faster at a
   * million employees than a million rows read one by one.
   */
  uuidKeysJoined(): { count: number; text: string } {
    const row = this.statement(
      'SELECT count(*), group_concat(uuid_key, char(10)) FROM (SELECT uuid_key FROM employees ORDER BY id)',
    )
      .raw()
      .get() as [number | bigint, string | null]
    return { count: Number(row[0]), text: row[1] ?? '' }
  }

  /**
   * Calls `visit` with every employee's id and lower-cased UUID, in UUID order ("Search in: UUID" looks for parts
   * of them, query/uuid-parts.ts): read from the UUID index alone, which holds every key beside its id, so no row
   * is read and nothing is sorted.
   */
  forEachUuidKey(visit: (id: number, key: string) => void): void {
    const scan = this.statement('SELECT id, uuid_key FROM employees INDEXED BY employees_uuid').raw()
    for (const row of scan.iterate()) {
      const [id, key] = row as [number | bigint, string]
      visit(Number(id), key)
    }
  }

  /** Ids of the employees whose lower-cased UUID is `key`. */
  idsWithUuidKey(key: string): number[] {
    return this.statement('SELECT id FROM employees WHERE uuid_key = ?').pluck().all(key).map(Number)
  }

  /** One employee by UUID, exactly as written. */
  employee(uuid: string): { readonly id: number; readonly rowJson: string } | undefined {
    const found = this.statement('SELECT id, row_json FROM employees WHERE uuid_key = ? AND uuid = ?')
      .raw()
      .get(uuid.toLowerCase(), uuid)
    return found === undefined ? undefined : { id: Number(found[0]), rowJson: String(found[1]) }
  }

  /** The pay cycles an employee is a member of, sorted. */
  payCyclesOf(id: number): string[] {
    return this.statement(
      'SELECT DISTINCT pay_cycle_id FROM employee_pay_cycles WHERE employee_id = ? ORDER BY pay_cycle_id',
    )
      .pluck()
      .all(id)
      .filter((value): value is string => typeof value === 'string')
  }

  /** A page of the employees the run removed, by name, with the total. */
  removedPage(offset: number, limit: number): { readonly total: number; readonly rows: RemovedRecord[] } {
    const total = Number(this.statement('SELECT count(*) FROM removed_employees').pluck().get())
    const rows = this.statement(
      'SELECT uuid, name, row_json FROM removed_employees ORDER BY name, uuid LIMIT ? OFFSET ?',
    )
      .raw()
      .all(limit, offset)
      .map(([uuid, name, rowJson]) => ({ uuid: String(uuid), name: String(name), rowJson: String(rowJson) }))
    return { total, rows }
  }

  /** A page of the employees the run added or changed, in list order, with the total. */
  changedPage(
    kind: Exclude<ChangeKind, 'removed'>,
    offset: number,
    limit: number,
  ): { readonly total: number; readonly rows: ChangedRecord[] } {
    const total = Number(this.statement('SELECT count(*) FROM employees WHERE change = ?').pluck().get(kind))
    const rows = this.statement(
      'SELECT uuid, first_name, last_name, changed_fields, row_json FROM employees WHERE change = ? ORDER BY id LIMIT ? OFFSET ?',
    )
      .raw()
      .all(kind, limit, offset)
      .map(([uuid, firstName, lastName, changedFields, rowJson]) => ({
        uuid: String(uuid),
        firstName: textOrNull(firstName),
        lastName: textOrNull(lastName),
        changedFields: textOrNull(changedFields),
        rowJson: String(rowJson),
      }))
    return { total, rows }
  }

  /** The stored search index's parts by name, or null when the snapshot has no search_index table. */
  storedIndexParts(): Map<string, Buffer> | null {
    const hasTable = this.statement(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'search_index'",
    )
      .pluck()
      .get()
    if (Number(hasTable) === 0) return null
    const parts = new Map<string, Buffer>()
    for (const [part, data] of this.statement('SELECT part, data FROM search_index').raw().iterate()) {
      if (typeof part === 'string' && Buffer.isBuffer(data)) parts.set(part, data)
    }
    return parts
  }

  /** Discovered text columns (not the known fields), in order: where identifier columns may be. */
  discoveredTextColumns(): string[] {
    return this.statement("SELECT key FROM columns WHERE known = 0 AND kind = 'text' ORDER BY position")
      .pluck()
      .all()
      .filter((key): key is string => typeof key === 'string')
  }

  /** The first non-empty value of a discovered column, in list order, or undefined. */
  firstValueOf(column: string): unknown {
    return this.statement(
      "SELECT v FROM (SELECT json_extract(row_json, ?) AS v FROM employees) WHERE v IS NOT NULL AND v <> '' LIMIT 1",
    )
      .pluck()
      .get(jsonPath(column))
  }

  /**
   * Every employee in id order as [id, first name, last name, status, pay cycle, ...the `extra` columns' values]:
   * what indexing a snapshot without a stored index reads (SQLite extracts just those fields from each row).
   */
  *indexRows(extra: readonly string[]): Generator<unknown[]> {
    const fields = extra.map(() => ', json_extract(row_json, ?)').join('')
    const scan = this.statement(
      `SELECT id, first_name, last_name, employee_status, pay_cycle_id${fields} FROM employees ORDER BY id`,
    )
    yield* scan.raw().iterate(...extra.map(jsonPath))
  }

  /** Every (employee id, pay cycle id) membership of the pay-cycle lists. */
  *payCycleMemberships(): Generator<readonly [number, unknown]> {
    for (const [employeeId, payCycleId] of this.statement(
      'SELECT employee_id, pay_cycle_id FROM pay_cycle_members',
    )
      .raw()
      .iterate()) {
      yield [Number(employeeId), payCycleId]
    }
  }

  /** Up to `limit` [id, UUID, row hash] after `afterId`, in id order: the fingerprints a sync compares with. */
  fingerprints(afterId: number, limit: number): Array<readonly [number, string, number]> {
    return this.statement('SELECT id, uuid, row_hash FROM employees WHERE id > ? ORDER BY id LIMIT ?')
      .raw()
      .all(afterId, limit)
      .map(([id, uuid, hash]) => [Number(id), String(uuid), Number(hash)] as const)
  }

  /** An employee's stored row (JSON text) by UUID exactly as written, or undefined. */
  rowJsonOf(uuid: string): string | undefined {
    const value = this.statement('SELECT row_json FROM employees WHERE uuid_key = ? AND uuid = ?')
      .pluck()
      .get(uuid.toLowerCase(), uuid)
    return typeof value === 'string' ? value : undefined
  }

  private statement(sql: string): Database.Statement<unknown[]> {
    let statement = this.statements.get(sql)
    if (statement === undefined) {
      statement = this.db.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }
}

/**
 * A JSON path naming one top-level key, any characters (a column's name is the service's field name): quoted, and
 * escaped as JSON escapes a string, which SQLite's path reader undoes (a quote, backslash, NUL or lone surrogate
 * half, as `row_json` holds them escaped). Always bound as a parameter, never part of the SQL text.
 */
export function jsonPath(key: string): string {
  return `$.${JSON.stringify(key)}`
}

function storedValue(value: unknown, kind: ColumnInfo['kind']): StoredValue {
  if (value === null || value === undefined) return null
  if (kind === 'boolean' && typeof value === 'number') return value === 1 ? 'true' : 'false'
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return value
  return String(value)
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}
