import type {
  ColumnInfo,
  EmployeeRow,
  FacetCount,
  ParsedEmployeeQuery,
  QueryResult,
} from '../../../src/shared/domain'
import { KNOWN_EMPLOYEE_FIELDS } from '../../../src/shared/domain'
import { identifierColumnsOf, knownRole } from '../../../src/main/core/query/column-role'
import type { DiscoveredIdentifierRole } from '../../../src/main/core/query/column-role'
import {
  parseSearchText,
  rowIsExactMatch,
  wordMatchesColumn,
  wordMatchesRow,
} from '../../../src/main/core/query/search-rules'

/**
 * The identifier columns of the fake cache, decided by the real rule (column-role.ts); worked out once per list
 * of rows, which a sync replaces as a whole.
 */
const identifiersOfRows = new WeakMap<readonly EmployeeRow[], ReadonlyMap<string, DiscoveredIdentifierRole>>()
function identifiersOf(rows: readonly EmployeeRow[]): ReadonlyMap<string, DiscoveredIdentifierRole> {
  let identifiers = identifiersOfRows.get(rows)
  if (identifiers === undefined) {
    identifiers = identifierColumnsOf(rows)
    identifiersOfRows.set(rows, identifiers)
  }
  return identifiers
}

/**
 * The real search rules (search-rules.ts), row by row: the default search over names, the UUID and the
 * identifier columns, or "Search in" one column; and which rows a word names whole, to list them first.
 */
function textMatcher(
  all: readonly EmployeeRow[],
  text: string | undefined,
  column: string | undefined,
): { matches: (row: EmployeeRow) => boolean; exact: (row: EmployeeRow) => boolean } {
  const words = parseSearchText(text)
  const identifiers = identifiersOf(all)
  return {
    matches: (row) =>
      words.every((word) =>
        column === undefined
          ? wordMatchesRow(word, row, identifiers)
          : wordMatchesColumn(word, column, row[column], identifiers.get(column)),
      ),
    exact: (row) => words.length > 0 && rowIsExactMatch(words, row, identifiers, column),
  }
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
 * The cache's query semantics over an in-memory list, for fakes: the real search rules, rows a word names whole
 * first; status and pay-cycle filters; facet counts that ignore their own filter; sort; a window.
 */
export function runQuery(all: readonly EmployeeRow[], query: ParsedEmployeeQuery): QueryResult {
  const text = textMatcher(all, query.text, query.column)
  const byText = all.filter(text.matches)
  const inStatus = (row: EmployeeRow): boolean =>
    !query.statuses?.length || query.statuses.includes(String(row.employeeStatus))
  const inCycle = (row: EmployeeRow): boolean =>
    !query.payCycleIds?.length || query.payCycleIds.includes(String(row.payCycleId))
  const matched = byText.filter((row) => inStatus(row) && inCycle(row))
  const sort = query.sort ?? { column: 'lastName', order: 'asc' as const }
  const sign = sort.order === 'asc' ? 1 : -1
  const pinned = new Set(matched.filter(text.exact))
  const sorted = [...matched].sort(
    (a, b) =>
      Number(pinned.has(b)) - Number(pinned.has(a)) ||
      sign * compare(a, b, sort.column) ||
      compare(a, b, 'firstName') ||
      compare(a, b, 'UUID'),
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
  const identifiers = identifiersOf(rows)
  const withRole = (column: ColumnInfo): ColumnInfo => {
    const identifier = knownRole(column.key) ?? identifiers.get(column.key)
    return identifier === undefined ? column : { ...column, identifier }
  }
  return [
    ...known.map((key) => ({
      key,
      label: labelOf(key === 'employeeStatus' ? 'status' : key),
      kind: 'text' as const,
      known: true,
    })),
    ...extras.map((key) => ({ key, label: labelOf(key), kind: kindOf(key), known: false })),
  ].map(withRole)
}
