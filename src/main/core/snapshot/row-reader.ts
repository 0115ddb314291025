import type { ColumnInfo, EmployeeRow } from '../../../shared/domain/rows'
import type { SqliteDatabase } from '../sqlite/sqlite-open'
import type Database from 'better-sqlite3-multiple-ciphers'

/**
 * Rows one statement looks up: a prepared `id IN (?, …)` of exactly this many parameters, the last batch padded
 * with NULL (which matches no row). One statement per batch rather than per row: a per-row `get` spends most of
 * its time crossing into SQLite and back, and SQLite walks a sorted IN list in page order.
 */
export const ROWS_PER_LOOKUP = 256

/**
 * Known fields the snapshot also keeps in a column of their own. The sync writes the field's value there when it
 * is a string and NULL otherwise (`textField` in the snapshot builder; the UUID always as text), so the column
 * holds the field exactly when every value of it is text: a column whose kind is 'text' or 'date'.
 */
const STORED_TEXT_FIELDS: Readonly<Record<string, string>> = {
  UUID: 'uuid',
  firstName: 'first_name',
  lastName: 'last_name',
  employeeStatus: 'employee_status',
  payCycleId: 'pay_cycle_id',
}

/** The fields a reader can give without parsing `row_json`, with their columns, in the caller's order. */
export interface StoredFields {
  readonly keys: readonly string[]
  readonly sqlColumns: readonly string[]
}

/**
 * The stored columns that give `keys` exactly (see STORED_TEXT_FIELDS), or null when any key needs the row's
 * JSON. `columns` is the snapshot's column list, whose kinds were inferred over every stored value.
 */
export function storedFieldsFor(
  keys: readonly string[],
  columns: readonly Pick<ColumnInfo, 'key' | 'kind'>[],
): StoredFields | null {
  if (keys.length === 0) return null
  const kinds = new Map(columns.map((column) => [column.key, column.kind]))
  const sqlColumns: string[] = []
  for (const key of keys) {
    const column = Object.hasOwn(STORED_TEXT_FIELDS, key) ? STORED_TEXT_FIELDS[key] : undefined
    const kind = kinds.get(key)
    if (column === undefined || (kind !== 'text' && kind !== 'date')) return null
    sqlColumns.push(column)
  }
  return { keys: [...keys], sqlColumns }
}

/**
 * Reads employee rows of one snapshot by id, in the order asked, a batch per statement: whole rows from
 * `row_json`, or only the fields a caller needs from the stored columns when they suffice (no JSON parsing).
 * Ids the snapshot does not hold are skipped; an id asked twice gives its row twice.
 */
export class SnapshotRowReader {
  private readonly byIds: Database.Statement<unknown[]>
  private readonly storedStatements = new Map<string, Database.Statement<unknown[]>>()
  private byUuids: Database.Statement<unknown[]> | undefined
  private readonly params: Array<number | null> = new Array<number | null>(ROWS_PER_LOOKUP).fill(null)

  constructor(private readonly db: SqliteDatabase) {
    this.byIds = db.prepare(`SELECT id, row_json FROM employees WHERE id IN (${placeholders()})`).raw()
  }

  /** The rows of `ids`, in that order; with `fields`, only those fields (see storedFieldsFor). */
  rowsByIds(ids: ArrayLike<number>, fields?: StoredFields | null): EmployeeRow[] {
    const rows: EmployeeRow[] = []
    const statement = fields === undefined || fields === null ? this.byIds : this.storedStatement(fields)
    const keys = fields?.keys
    for (let start = 0; start < ids.length; start += ROWS_PER_LOOKUP) {
      const end = Math.min(ids.length, start + ROWS_PER_LOOKUP)
      const found = this.lookup(statement, ids, start, end)
      for (let index = start; index < end; index++) {
        const record = found.get(ids[index] as number)
        if (record === undefined) continue
        rows.push(
          keys === undefined ? (JSON.parse(record[1] as string) as EmployeeRow) : storedRow(keys, record),
        )
      }
    }
    return rows
  }

  /** Runs one lookup for `ids[start..end)`; the records by id (SQLite returns them in its own order). */
  private lookup(
    statement: Database.Statement<unknown[]>,
    ids: ArrayLike<number>,
    start: number,
    end: number,
  ): Map<number, unknown[]> {
    const params = this.params
    for (let index = 0; index < ROWS_PER_LOOKUP; index++) {
      params[index] = start + index < end ? (ids[start + index] as number) : null
    }
    const found = new Map<number, unknown[]>()
    for (const record of statement.all(...params)) found.set(Number(record[0]), record)
    return found
  }

  /** The ids of the employees with these UUIDs (exactly as written), a batch per statement. */
  idsOfUuids(uuids: readonly string[]): number[] {
    this.byUuids ??= this.db
      .prepare(`SELECT id, uuid FROM employees WHERE uuid_key IN (${placeholders()})`)
      .raw()
    const wanted = new Set(uuids)
    const keys = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))]
    const ids: number[] = []
    const params = new Array<string | null>(ROWS_PER_LOOKUP)
    for (let start = 0; start < keys.length; start += ROWS_PER_LOOKUP) {
      for (let index = 0; index < ROWS_PER_LOOKUP; index++) params[index] = keys[start + index] ?? null
      for (const [id, uuid] of this.byUuids.all(...params)) {
        if (typeof uuid === 'string' && wanted.has(uuid)) ids.push(Number(id))
      }
    }
    return ids
  }

  private storedStatement(fields: StoredFields): Database.Statement<unknown[]> {
    // The column names come from STORED_TEXT_FIELDS, never from the caller.
    const list = fields.sqlColumns.join(', ')
    let statement = this.storedStatements.get(list)
    if (statement === undefined) {
      statement = this.db.prepare(`SELECT id, ${list} FROM employees WHERE id IN (${placeholders()})`).raw()
      this.storedStatements.set(list, statement)
    }
    return statement
  }
}

function placeholders(): string {
  return new Array<string>(ROWS_PER_LOOKUP).fill('?').join(', ')
}

/** A row of only the asked fields, as the stored columns hold them (a NULL is a field the row has no text in). */
function storedRow(keys: readonly string[], record: readonly unknown[]): EmployeeRow {
  const row: EmployeeRow = {}
  for (let index = 0; index < keys.length; index++) {
    const value = record[index + 1]
    if (typeof value === 'string') row[keys[index] as string] = value
  }
  return row
}
