import { KNOWN_EMPLOYEE_FIELDS } from '../../../shared/domain/rows'
import type { ColumnInfo, EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { isNumberText } from '../api/exact-json'
import { columnLabel } from './column-label'

type ColumnKind = ColumnInfo['kind']

/** A discovered column and how many rows hold a value in it. */
export interface ColumnStats extends ColumnInfo {
  /** Rows in which the field holds a value other than null. */
  readonly present: number
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/**
 * The kind a single value suggests; null says nothing (absent values do not make a column mixed). Text that is a
 * number a double cannot hold as written (`isNumberText`: how a sync keeps 12345678901234567890 or 1e400) is a
 * number, so a column of such account numbers is a number column whose values are text (decision 052).
 */
export function inferKind(value: JsonValue | undefined): ColumnKind | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'string') {
    // Most strings are not dates; checking the first character spares them the regular expression.
    const first = value.charCodeAt(0)
    if (first === 45) return isNumberText(value) ? 'number' : 'text'
    if (first < 48 || first > 57) return 'text'
    if (isNumberText(value)) return 'number'
    return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) ? 'date' : 'text'
  }
  return 'mixed'
}

/** Combines what two values suggest: a date column with one free-text value is text, anything else mixed. */
export function mergeKinds(a: ColumnKind | null, b: ColumnKind | null): ColumnKind | null {
  if (a === null) return b
  if (b === null || a === b) return a
  if ((a === 'date' && b === 'text') || (a === 'text' && b === 'date')) return 'text'
  return 'mixed'
}

interface Tally {
  kind: ColumnKind | null
  present: number
}

/**
 * Discovers the columns of the rows a run stores: the spec shows four fields and says the rest are "not
 * shown", so every other key is learnt from the data with the kind its values suggest.
 */
export class ColumnCollector {
  private readonly tallies = new Map<string, Tally>()

  constructor() {
    for (const key of KNOWN_EMPLOYEE_FIELDS) this.tallies.set(key, { kind: null, present: 0 })
  }

  observe(row: EmployeeRow): void {
    for (const key in row) {
      const value = row[key]
      let tally = this.tallies.get(key)
      if (tally === undefined) {
        tally = { kind: null, present: 0 }
        this.tallies.set(key, tally)
      }
      if (value === null || value === undefined) continue
      tally.present++
      // Every value is looked at, but one that cannot change the column's kind is not classified: a mixed
      // column stays mixed, and a text column stays text whatever string comes (a date merges into text).
      if (tally.kind === 'mixed' || (tally.kind === 'text' && typeof value === 'string')) continue
      const kind = inferKind(value)
      if (kind !== null && tally.kind !== kind) tally.kind = mergeKinds(tally.kind, kind)
    }
  }

  /** Known fields first (always listed), then discovered ones in the order they first appeared. */
  columns(): ColumnStats[] {
    const known = new Set<string>(KNOWN_EMPLOYEE_FIELDS)
    return [...this.tallies.entries()].map(([key, tally]) => ({
      key,
      label: columnLabel(key),
      kind: tally.kind ?? 'text',
      known: known.has(key),
      present: tally.present,
    }))
  }
}
