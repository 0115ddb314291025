import type {
  ColumnInfo,
  EmployeeRow,
  FacetCount,
  ParsedEmployeeQuery,
  QueryResult,
} from '../../../src/shared/domain'
import { KNOWN_EMPLOYEE_FIELDS } from '../../../src/shared/domain'

/** Lower case without accents, so "muller" finds "Müller" as the real cache does. */
function fold(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

function words(row: EmployeeRow, column: string | undefined): string[] {
  const values = column === undefined ? Object.values(row) : [row[column]]
  return values.flatMap((value) =>
    typeof value === 'string' || typeof value === 'number' ? fold(String(value)).split(/[\s@.'-]+/) : [],
  )
}

function matchesText(row: EmployeeRow, text: string | undefined, column: string | undefined): boolean {
  const tokens = fold(text ?? '')
    .split(/\s+/)
    .filter((token) => token !== '')
  if (tokens.length === 0) return true
  const rowWords = words(row, column)
  return tokens.every((token) => rowWords.some((word) => word.startsWith(token)))
}

function countBy(rows: readonly EmployeeRow[], key: string): FacetCount[] {
  const counts = new Map<string, number>()
  for (const row of rows) {
    const value = row[key]
    if (typeof value === 'string') counts.set(value, (counts.get(value) ?? 0) + 1)
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => a.value.localeCompare(b.value))
}

function compare(a: EmployeeRow, b: EmployeeRow, column: string): number {
  const left = a[column]
  const right = b[column]
  if (left === right) return 0
  if (left === null || left === undefined) return 1
  if (right === null || right === undefined) return -1
  if (typeof left === 'number' && typeof right === 'number') return left - right
  return String(left).localeCompare(String(right))
}

/**
 * The cache's query semantics over an in-memory list, for fakes: prefix search in any word order, accent- and
 * case-insensitive; status and pay-cycle filters; facet counts that ignore their own filter; sort; a window.
 */
export function runQuery(all: readonly EmployeeRow[], query: ParsedEmployeeQuery): QueryResult {
  const byText = all.filter((row) => matchesText(row, query.text, query.column))
  const inStatus = (row: EmployeeRow): boolean =>
    !query.statuses?.length || query.statuses.includes(String(row.employeeStatus))
  const inCycle = (row: EmployeeRow): boolean =>
    !query.payCycleIds?.length || query.payCycleIds.includes(String(row.payCycleId))
  const matched = byText.filter((row) => inStatus(row) && inCycle(row))
  const sort = query.sort ?? { column: 'lastName', order: 'asc' as const }
  const sign = sort.order === 'asc' ? 1 : -1
  const sorted = [...matched].sort(
    (a, b) => sign * compare(a, b, sort.column) || compare(a, b, 'firstName') || compare(a, b, 'UUID'),
  )
  const result: QueryResult = {
    total: matched.length,
    rows: sorted.slice(query.offset, query.offset + query.limit),
  }
  if (query.facets) {
    result.facets = {
      status: countBy(byText.filter(inCycle), 'employeeStatus'),
      payCycle: countBy(byText.filter(inStatus), 'payCycleId'),
    }
  }
  return result
}

function labelOf(key: string): string {
  if (key === key.toUpperCase()) return key
  const spaced = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

/** The columns of a list of rows as the cache reports them: the known four, then extras in first-seen order. */
export function columnsOf(rows: readonly EmployeeRow[]): ColumnInfo[] {
  const known: readonly string[] = KNOWN_EMPLOYEE_FIELDS
  const extras: string[] = []
  for (const row of rows.slice(0, 200)) {
    for (const key of Object.keys(row)) if (!known.includes(key) && !extras.includes(key)) extras.push(key)
  }
  const kindOf = (key: string): ColumnInfo['kind'] => {
    const value = rows.find((row) => row[key] !== null && row[key] !== undefined)?.[key]
    if (typeof value === 'number') return 'number'
    if (typeof value === 'boolean') return 'boolean'
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date'
    return 'text'
  }
  return [
    ...known.map((key) => ({
      key,
      label: labelOf(key === 'employeeStatus' ? 'status' : key),
      kind: 'text' as const,
      known: true,
    })),
    ...extras.map((key) => ({ key, label: labelOf(key), kind: kindOf(key), known: false })),
  ]
}
