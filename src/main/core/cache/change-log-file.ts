import type {
  ChangeEntry,
  ChangeKind,
  ChangeListOptions,
  ChangeSortColumn,
  FieldChange,
} from '../../../shared/domain/changes'
import type { EmployeeRow } from '../../../shared/domain/rows'
import { RosterDeskError } from '../errors'
import type Database from 'better-sqlite3-multiple-ciphers'
import { createRunFileWriter, RunFileWriter } from '../sqlite/run-file-writer'
import type { CacheKey } from '../sqlite/cache-key'
import { foldText } from '../text/text-fold'
import { damagedCacheError, openSqlite, storageError } from '../sqlite/sqlite-open'
import type { SqliteDatabase } from '../sqlite/sqlite-open'

/**
 * A change log: the employees one complete sync added, removed or changed, kept after its snapshot is replaced so
 * the clerk can reconcile any of the last syncs (the catalog's `sync_runs.changes_file` names it). Like a snapshot
 * it is written once, before the catalog swap, and never changed afterwards; letting a run go is deleting a file.
 *
 * Bounded by design: an entry holds the employee's identity and a few facts (number, name, status, pay cycle),
 * a changed employee only the fields that changed (before → after), and only a removed employee its whole last
 * row, which nothing else keeps. This module owns every statement run on these files.
 */

/** "RDH1": marks a file as a RosterDesk change log. */
export const CHANGE_LOG_APPLICATION_ID = 0x52444831
/** Bumped when the layout below changes; a reader refuses formats it does not know. */
export const CHANGE_LOG_FORMAT = 1

const TABLES = `
  CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('added', 'removed', 'changed')),
    uuid TEXT NOT NULL,
    name TEXT NOT NULL,
    sort_key TEXT NOT NULL,
    employee_number TEXT,
    status TEXT,
    pay_cycle_id TEXT,
    changes TEXT,
    row_json TEXT,
    first_name TEXT,
    last_name TEXT
  );
  CREATE TABLE info (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
`
/** Lists read in name order a window at a time; built once, after every entry is in. */
const ORDER_INDEX = 'CREATE INDEX entries_order ON entries (kind, sort_key, uuid)'

/** One entry as written: the shared ChangeEntry facts, plus how the list orders it and its JSON parts as text. */
export interface ChangeLogRecord {
  readonly kind: ChangeKind
  readonly uuid: string
  readonly name: string
  /** The parts `name` joins, kept apart so the report can isolate each (a log written before has no columns). */
  readonly firstName?: string
  readonly lastName?: string
  /** Orders each list: folded last name, then first name (the UUID breaks ties). */
  readonly sortKey: string
  readonly employeeNumber?: string
  readonly status?: string
  readonly payCycleId?: string
  /** Changed: FieldChange[] as JSON. */
  readonly changesJson?: string
  /** Removed: the last row the cache held, as JSON. */
  readonly rowJson?: string
}

export type ChangeCounts = Readonly<Record<ChangeKind, number>>

/** Writes one run's change log; private to the run (see createRunFile) until the catalog names it. */
export class ChangeLogWriter extends RunFileWriter {
  private readonly insert: Database.Statement

  private constructor(path: string, db: SqliteDatabase) {
    super(path, db)
    this.insert = db.prepare(
      `INSERT INTO entries
         (kind, uuid, name, sort_key, employee_number, status, pay_cycle_id, changes, row_json, first_name, last_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
  }

  static create(path: string, key: CacheKey): ChangeLogWriter {
    return createRunFileWriter(path, key, (db) => {
      db.exec(TABLES)
      return new ChangeLogWriter(path, db)
    })
  }

  /** Appends a batch of entries in one transaction. */
  write(records: readonly ChangeLogRecord[]): void {
    this.guard(() =>
      this.db.transaction(() => {
        for (const r of records) {
          this.insert.run(
            r.kind,
            r.uuid,
            r.name,
            r.sortKey,
            r.employeeNumber ?? null,
            r.status ?? null,
            r.payCycleId ?? null,
            r.changesJson ?? null,
            r.rowJson ?? null,
            r.firstName ?? null,
            r.lastName ?? null,
          )
        }
      })(),
    )
  }

  /** Records what the run knows about its entries, builds the order index, marks the file complete and syncs it. */
  async seal(info: Readonly<Record<string, string>>): Promise<void> {
    this.guard(() =>
      this.db.transaction(() => {
        const put = this.db.prepare('INSERT OR REPLACE INTO info (key, value) VALUES (?, ?)')
        for (const [key, value] of Object.entries(info)) put.run(key, value)
      })(),
    )
    this.guard(() => this.db.exec(ORDER_INDEX))
    this.guard(() => {
      this.db.pragma(`application_id = ${CHANGE_LOG_APPLICATION_ID}`)
      this.db.pragma(`user_version = ${CHANGE_LOG_FORMAT}`)
    })
    await this.syncToDisk()
  }
}

interface EntryRow {
  id: number
  uuid: string
  name: string
  sort_key: string
  employee_number: string | null
  status: string | null
  pay_cycle_id: string | null
  changes: string | null
  row_json: string | null
  first_name: string | null
  last_name: string | null
}

/**
 * The columns an entry is read from. The name parts came later without a new format (older readers name their
 * columns, so they read a newer log as before): a log written before them reads them as NULL.
 */
function selectEntry(db: SqliteDatabase): string {
  const info = db.pragma('table_info(entries)') as ReadonlyArray<{ readonly name: string }>
  const columns = new Set(info.map((column) => column.name))
  const part = (column: string): string => (columns.has(column) ? column : `NULL AS ${column}`)
  return `SELECT id, uuid, name, sort_key, employee_number, status, pay_cycle_id, changes, row_json,
    ${part('first_name')}, ${part('last_name')} FROM entries`
}

/** A read-only view of one sealed change log; open it per request (or per export) and close it after. */
export class ChangeLogReader {
  private readonly selectEntry: string

  private constructor(
    readonly path: string,
    private readonly db: SqliteDatabase,
  ) {
    this.selectEntry = selectEntry(db)
  }

  static open(path: string, key: CacheKey): ChangeLogReader {
    const db = openSqlite(path, { readonly: true, fileMustExist: true, key })
    try {
      const applicationId = Number(db.pragma('application_id', { simple: true }))
      const version = Number(db.pragma('user_version', { simple: true }))
      if (applicationId !== CHANGE_LOG_APPLICATION_ID || version === 0 || version > CHANGE_LOG_FORMAT) {
        throw new RosterDeskError(
          'storage',
          'The saved report of that sync cannot be read by this version of RosterDesk.',
          { detail: `${path}: application_id=${applicationId} user_version=${version}` },
        )
      }
    } catch (error) {
      db.close()
      throw storageError(error, path)
    }
    return new ChangeLogReader(path, db)
  }

  counts(): ChangeCounts {
    const counts = { added: 0, removed: 0, changed: 0 }
    const rows = this.guard(() =>
      this.db
        .prepare<{ kind: ChangeKind; n: number }>('SELECT kind, count(*) AS n FROM entries GROUP BY kind')
        .all(),
    )
    for (const row of rows) counts[row.kind] = row.n
    return counts
  }

  /** A value the run recorded (see `seal`), e.g. which column held the employee number. */
  info(key: string): string | undefined {
    const value: unknown = this.guard(() =>
      this.db.prepare('SELECT value FROM info WHERE key = ?').pluck().get(key),
    )
    return typeof value === 'string' ? value : undefined
  }

  /** One window of a kind's entries, in name order, or searched and sorted as `options` says (`changeListSql`). */
  page(kind: ChangeKind, offset: number, limit: number, options: ChangeListOptions = {}): ChangeEntry[] {
    const { where, params, orderBy } = changeListSql(options)
    return this.guard(() =>
      this.db
        .prepare<EntryRow>(`${this.selectEntry} WHERE kind = ?${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
        .all(kind, ...params, limit, offset)
        .map((row) => toEntry(row, this.path)),
    )
  }

  /** How many entries of a kind `search` finds (`changeListSql`); all of them for an empty search. */
  count(kind: ChangeKind, search: string | undefined): number {
    const { where, params } = changeListSql(search === undefined ? {} : { search })
    const value: unknown = this.guard(() =>
      this.db
        .prepare(`SELECT count(*) FROM entries WHERE kind = ?${where}`)
        .pluck()
        .get(kind, ...params),
    )
    return typeof value === 'number' ? value : 0
  }

  /** Every entry of a kind in name order, `batchSize` at a time (each batch starts where the last ended). */
  *batches(kind: ChangeKind, batchSize: number): Generator<ChangeEntry[], void, undefined> {
    const first = this.db.prepare<EntryRow>(
      `${this.selectEntry} WHERE kind = ? ORDER BY sort_key, uuid LIMIT ?`,
    )
    const next = this.db.prepare<EntryRow>(
      `${this.selectEntry} WHERE kind = ? AND (sort_key, uuid) > (?, ?) ORDER BY sort_key, uuid LIMIT ?`,
    )
    let rows = this.guard(() => first.all(kind, batchSize))
    while (rows.length > 0) {
      yield rows.map((row) => toEntry(row, this.path))
      const last = rows.at(-1)
      if (last === undefined || rows.length < batchSize) return
      rows = this.guard(() => next.all(kind, last.sort_key, last.uuid, batchSize))
    }
  }

  close(): void {
    if (this.db.open) this.db.close()
  }

  private guard<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw storageError(error, this.path)
    }
  }
}

/** The order of each sortable column: its value (entries without one last), then the name order, then the UUID. */
const SORT_SQL: Readonly<Record<ChangeSortColumn, string>> = {
  name: 'sort_key',
  number: 'employee_number',
  status: 'status',
  payCycle: 'pay_cycle_id',
}

/** `%`, `_` and the escape itself, taken literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`)
}

/**
 * The SQL of a searched and sorted change list. Search as the grid's: each word of the folded text (accents and
 * case ignored, any order) must start a word of the folded name (`sort_key`: last name, U+0001, first name), or
 * start the employee number or the UUID. Sort: the chosen column (numbers compared as text, as the service sends
 * them), entries without a value last, ties by name then UUID.
 */
export function changeListSql(options: ChangeListOptions): {
  readonly where: string
  readonly params: string[]
  readonly orderBy: string
} {
  const words = foldText(options.search ?? '')
    .split(/\s+/)
    .filter((word) => word !== '')
  const params: string[] = []
  const clauses = words.map((word) => {
    const literal = likeLiteral(word)
    params.push(
      `${literal}%`,
      `% ${literal}%`,
      `%\u0001${literal}%`,
      `%-${literal}%`,
      `${literal}%`,
      `${literal}%`,
    )
    return `(sort_key LIKE ? ESCAPE '\\' OR sort_key LIKE ? ESCAPE '\\' OR sort_key LIKE ? ESCAPE '\\'
      OR sort_key LIKE ? ESCAPE '\\' OR lower(employee_number) LIKE ? ESCAPE '\\' OR lower(uuid) LIKE ? ESCAPE '\\')`
  })
  const where = clauses.map((clause) => ` AND ${clause}`).join('')
  const sort = options.sort ?? { column: 'name', order: 'asc' }
  const direction = sort.order === 'desc' ? 'DESC' : 'ASC'
  const column = SORT_SQL[sort.column]
  const orderBy =
    sort.column === 'name'
      ? `sort_key ${direction}, uuid ${direction}`
      : `${column} IS NULL, ${column} ${direction}, sort_key, uuid`
  return { where, params, orderBy }
}

/** An entry as stored; text that is not the JSON the log wrote is a damaged file, said as SQLite's damage is. */
function toEntry(row: EntryRow, path: string): ChangeEntry {
  const parsed = <T>(text: string, column: string): T => {
    try {
      return JSON.parse(text) as T
    } catch (error) {
      throw damagedCacheError(`${path}: entry ${row.uuid}: ${column} is not JSON`, error)
    }
  }
  const changes = row.changes === null ? undefined : parsed<FieldChange[]>(row.changes, 'changes')
  return {
    UUID: row.uuid,
    name: row.name,
    ...(row.first_name === null ? {} : { firstName: row.first_name }),
    ...(row.last_name === null ? {} : { lastName: row.last_name }),
    ...(row.employee_number === null ? {} : { employeeNumber: row.employee_number }),
    ...(row.status === null ? {} : { status: row.status }),
    ...(row.pay_cycle_id === null ? {} : { payCycleId: row.pay_cycle_id }),
    ...(changes === undefined ? {} : { fields: changes.map((change) => change.field), changes }),
    ...(row.row_json === null ? {} : { row: parsed<EmployeeRow>(row.row_json, 'row_json') }),
  }
}
