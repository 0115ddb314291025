import { KNOWN_EMPLOYEE_FIELDS } from '../../../shared/domain'
import type { ColumnInfo, EmployeeRow, JsonValue } from '../../../shared/domain'
import type { ColumnStats } from './snapshot-writer'

type ColumnKind = ColumnInfo['kind']

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/
const KNOWN_LABELS: Readonly<Record<string, string>> = {
  UUID: 'UUID',
  firstName: 'First name',
  lastName: 'Last name',
  employeeStatus: 'Status',
}

/** The kind a single value suggests; null says nothing (absent values do not make a column mixed). */
export function inferKind(value: JsonValue | undefined): ColumnKind | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'string') {
    // Most strings are not dates; checking the first character spares them the regular expression.
    const first = value.charCodeAt(0)
    if (first < 48 || first > 57) return 'text'
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

/** A readable header for a field name: "annualSalary" → "Annual salary", "managerUUID" → "Manager UUID". */
export function columnLabel(key: string): string {
  const known = KNOWN_LABELS[key]
  if (known !== undefined) return known
  const words = key
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '')
  return words
    .map((word, index) => {
      if (word.length > 1 && word === word.toUpperCase()) return word
      const lower = word.toLowerCase()
      if (lower === 'id' || lower === 'uuid') return lower.toUpperCase()
      return index === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower
    })
    .join(' ')
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
      const kind = inferKind(value)
      if (kind === null) continue
      tally.present++
      if (tally.kind !== kind) tally.kind = mergeKinds(tally.kind, kind)
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
