import { expect } from 'vitest'
import type { EmployeeRow, JsonValue } from '../../src/shared/domain/rows'
import type { DumpedCell, DumpedSheet } from './xlsx-reader'

/** A cell as the test compares it: type, value and (for text and dates) the number format. */
type Comparable =
  | null
  | { t: 's'; v: string; fmt: '@' }
  | { t: 'n'; v: number }
  | { t: 'b'; v: boolean }
  | { t: 'd'; v: string; fmt: string }
  | { t: string; v: unknown; fmt?: string; isDate?: boolean }

/**
 * What openpyxl must read for one source value, spelled out independently of the engine: dates from
 * 1900-03-01 become date cells (in UTC, marked so, for values with a zone), other text stays text exactly (Text format),
 * except the characters XML cannot carry (dropped) and CRLF (read back as LF, as Excel stores line breaks).
 */
export function expected(value: JsonValue | undefined): Comparable {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return { t: 'n', v: value }
  if (typeof value === 'boolean') return { t: 'b', v: value }
  if (typeof value === 'string') {
    const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
    if (dateOnly !== null) {
      const date = new Date(`${value}T00:00:00Z`)
      const real = !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
      if (real && value >= '1900-03-01') return { t: 'd', v: `${value}T00:00:00.000`, fmt: 'yyyy-mm-dd' }
    } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/.test(value)) {
      // A zone given is a moment: shown in UTC, and the cell's format says UTC.
      return { t: 'd', v: new Date(value).toISOString().slice(0, 23), fmt: 'yyyy-mm-dd hh:mm:ss "UTC"' }
    }
    // eslint-disable-next-line no-control-regex
    const text = value.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    return { t: 's', v: text, fmt: '@' }
  }
  return { t: 's', v: JSON.stringify(value), fmt: '@' }
}

/** The same view of what openpyxl read; a date-typed cell that is not a date format shows up as a mismatch. */
export function comparable(cell: DumpedCell | null | undefined): Comparable {
  if (cell === null || cell === undefined) return null
  if (cell.t === 's') return { t: 's', v: cell.v, fmt: cell.fmt } as Comparable
  if (cell.t === 'd')
    return cell.isDate ? { t: 'd', v: cell.v, fmt: cell.fmt } : { t: 'd', v: cell.v, isDate: false }
  if (cell.t === 'n' || cell.t === 'b') {
    return cell.isDate ? { t: cell.t, v: cell.v, isDate: true } : ({ t: cell.t, v: cell.v } as Comparable)
  }
  return { t: cell.t, v: cell.v }
}

export function expectDataRows(
  sheet: DumpedSheet,
  rows: ReadonlyArray<EmployeeRow>,
  columns: ReadonlyArray<{ key: string }>,
): void {
  const actual = sheet.rows.slice(1).map((cells) => columns.map((_column, col) => comparable(cells[col])))
  const wanted = rows.map((row) => columns.map((column) => expected(row[column.key])))
  expect(sheet.rows.length, `${sheet.name} row count`).toBe(rows.length + 1)
  expect(actual, `${sheet.name} cells`).toEqual(wanted)
}

/** Control characters the CSV writer drops (all but tab and line breaks). */
// eslint-disable-next-line no-control-regex
const CSV_DROPS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g

/** The fixtures' money fields (the sandbox's one): their numbers are written with two decimals. */
const MONEY_KEYS: ReadonlySet<string> = new Set(['annualSalary'])

/**
 * The field Python's csv module must read for a value of field `key`: as sent less control characters other than
 * tab and line breaks, formula-looking text behind an apostrophe, an amount of money with two decimals ("52000.50") unless it has more.
 */
export function expectedField(value: JsonValue | undefined, key?: string): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number' && key !== undefined && MONEY_KEYS.has(key)) {
    return /\.\d{3,}$/.test(String(value)) ? String(value) : value.toFixed(2)
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(CSV_DROPS, '')
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}
