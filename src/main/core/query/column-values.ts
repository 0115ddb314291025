import type { ColumnInfo } from '../../../shared/domain'
import type { SqliteDatabase } from '../cache/sqlite-open'
import type { SortValue } from './sort-order'
import { TokenIndex } from './token-index'

/** Known fields with a column of their own in the snapshot: read without parsing row JSON. */
const DEDICATED_COLUMNS: Readonly<Record<string, string>> = {
  UUID: 'uuid',
  firstName: 'first_name',
  lastName: 'last_name',
  employeeStatus: 'employee_status',
}

/**
 * One value per slot (snapshot id order) of a column the caller has already checked against the snapshot's
 * `columns` whitelist: the dedicated column for known fields, json_extract with a bound path for discovered ones.
 * Used by the query engine on its own thread and by the core worker on its own read-only connection.
 */
export function readColumnValues(db: SqliteDatabase, column: string, kind: ColumnInfo['kind']): SortValue[] {
  const dedicated = DEDICATED_COLUMNS[column]
  const rows =
    dedicated === undefined
      ? db
          .prepare('SELECT json_extract(row_json, ?) FROM employees ORDER BY id')
          .pluck()
          .all(jsonPath(column))
      : db.prepare(`SELECT ${dedicated} FROM employees ORDER BY id`).pluck().all()
  return rows.map((value) => toSortValue(value, kind))
}

/** The word-token index of one column's values, for "Search in" that column. */
export function columnTokenIndex(values: readonly SortValue[]): TokenIndex {
  return TokenIndex.build(
    (function* () {
      for (let slot = 0; slot < values.length; slot++) {
        const value = values[slot]
        if (value !== null && value !== undefined && value !== '') yield [slot, String(value)] as const
      }
    })(),
    values.length,
  )
}

/** A JSON path naming one top-level key; keys are whitelisted column names, quoted for dots and dashes. */
function jsonPath(key: string): string {
  return `$."${key}"`
}

function toSortValue(value: unknown, kind: ColumnInfo['kind']): SortValue {
  if (value === null || value === undefined) return null
  if (kind === 'boolean' && typeof value === 'number') return value === 1 ? 'true' : 'false'
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return value
  return String(value)
}
