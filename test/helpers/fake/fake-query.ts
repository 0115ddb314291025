import type {
  FacetCount,
  NameSuggestion,
  NameSuggestionRequest,
  ParsedEmployeeQuery,
  QueryResult,
} from '../../../src/shared/domain/query'
import type { ColumnInfo, EmployeeRow } from '../../../src/shared/domain/rows'
import { ColumnCollector } from '../../../src/main/core/columns/column-inference'
import { identifierColumnsOf, knownRole } from '../../../src/main/core/query/column-role'
import type { DiscoveredIdentifierRole } from '../../../src/main/core/query/column-role'
import { nameSuggestions } from '../../../src/main/core/query/near-miss'
import type { NameTermIndex, NameTerms } from '../../../src/main/core/query/near-miss'
import { tokenize } from '../../../src/main/core/text/text-fold'
import { windowSlots } from '../../../src/main/core/query/result-window'
import {
  parseSearchText,
  rowIsExactMatch,
  wordMatchesColumn,
  wordMatchesRow,
} from '../../../src/main/core/query/search-rules'
import { buildNameOrder, buildSortOrder } from '../../../src/main/core/query/sort-order'
import type { SortOrder, SortValue } from '../../../src/main/core/query/sort-order'
import { FakeIpcError } from './fake-api'

/**
 * The cache's query semantics over an in-memory list of rows, for the renderer tests' fake core, made of the real
 * engine's own rules rather than look-alikes: which rows a search finds (search-rules.ts, over the identifier
 * columns column-role.ts picks), the order (sort-order.ts: numbers before text, text by its folded form, empty
 * values last either way, ties in last-name/first-name/service order), the window with exact matches first
 * (result-window.ts), the columns with their inferred kinds and labels (column-inference.ts), and facets listing
 * every value the cache holds. A row's slot is its position in the list, as a snapshot's is the service's order.
 * test/unit/main/core/query/fake-query-agrees.test.ts holds it to the real engine over a seeded snapshot.
 */

/** What the real engine keeps per snapshot, worked out once per list of rows (a sync replaces the list). */
interface FakeSnapshot {
  readonly columns: readonly ColumnInfo[]
  readonly identifiers: ReadonlyMap<string, DiscoveredIdentifierRole>
  readonly defaultOrder: SortOrder
  /** Slot → position in the default order. */
  readonly defaultPosition: Uint32Array
  readonly orders: Map<string, SortOrder>
}

const snapshots = new WeakMap<readonly EmployeeRow[], FakeSnapshot>()

function snapshotOf(rows: readonly EmployeeRow[]): FakeSnapshot {
  let snapshot = snapshots.get(rows)
  if (snapshot === undefined) {
    const identifiers = identifierColumnsOf(rows)
    const defaultOrder = nameOrder(rows)
    const defaultPosition = new Uint32Array(rows.length)
    defaultOrder.order.forEach((slot, position) => {
      defaultPosition[slot] = position
    })
    snapshot = {
      columns: discoverColumns(rows, identifiers),
      identifiers,
      defaultOrder,
      defaultPosition,
      orders: new Map(),
    }
    snapshots.set(rows, snapshot)
  }
  return snapshot
}

/** A text field as the snapshot's dedicated columns hold it: a non-empty string, else no value. */
function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/** The default order (last name, first name, service order) from dictionary codes, as the search index builds it. */
function nameOrder(rows: readonly EmployeeRow[]): SortOrder {
  const encode = (key: string): { codes: Uint32Array; values: string[] } => {
    const values = ['']
    const codeOf = new Map<string, number>()
    const codes = new Uint32Array(rows.length)
    rows.forEach((row, slot) => {
      const value = textOf(row[key])
      if (value === null) return
      let code = codeOf.get(value)
      if (code === undefined) {
        code = values.length
        values.push(value)
        codeOf.set(value, code)
      }
      codes[slot] = code
    })
    return { codes, values }
  }
  const last = encode('lastName')
  const first = encode('firstName')
  return buildNameOrder(last.codes, last.values, first.codes, first.values)
}

/** Known fields with a column of their own in a snapshot, which holds them as text. */
const DEDICATED = new Set(['UUID', 'firstName', 'lastName', 'employeeStatus'])

/** One row's value as the real engine sorts it (SQLite's json_extract: booleans as 1/0, objects as JSON text). */
function sortValueOf(row: EmployeeRow, column: ColumnInfo): SortValue {
  const value = row[column.key]
  if (DEDICATED.has(column.key)) return textOf(value)
  if (value === null || value === undefined) return null
  if (typeof value === 'boolean') return column.kind === 'boolean' ? String(value) : value ? 1 : 0
  if (typeof value === 'string' || typeof value === 'number') return value
  return JSON.stringify(value)
}

function orderFor(rows: readonly EmployeeRow[], snapshot: FakeSnapshot, key: string): SortOrder {
  if (key === 'lastName') return snapshot.defaultOrder
  let order = snapshot.orders.get(key)
  if (order === undefined) {
    const column = requireColumn(snapshot, key)
    order = buildSortOrder(
      rows.map((row) => sortValueOf(row, column)),
      snapshot.defaultOrder.order,
    )
    snapshot.orders.set(key, order)
  }
  return order
}

function requireColumn(snapshot: FakeSnapshot, key: string): ColumnInfo {
  const column = snapshot.columns.find((candidate) => candidate.key === key)
  if (column === undefined) {
    throw new FakeIpcError('validation', `The employee cache has no column called “${key}”.`)
  }
  return column
}

/** A row's status as the index codes it: rows without one share the value ''. */
function statusOf(row: EmployeeRow): string {
  return textOf(row.employeeStatus) ?? ''
}

function cyclesOf(row: EmployeeRow): string[] {
  const cycle = textOf(row['payCycleId'])
  return cycle === null ? [] : [cycle]
}

/** Every value the cache holds, with its count among `counted` (0 included), in code-unit order. */
function facetList(
  values: Iterable<string>,
  counted: readonly EmployeeRow[],
  of: (row: EmployeeRow) => string[],
) {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, 0)
  for (const row of counted) for (const value of of(row)) counts.set(value, (counts.get(value) ?? 0) + 1)
  const list: FacetCount[] = [...counts].map(([value, count]) => ({ value, count }))
  return list.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
}

/**
 * A query over the rows as the real engine answers it: text, status and pay-cycle filters; facet counts that
 * ignore their own filter; rows a word names whole first, then the sort; a window.
 */
export function runQuery(all: readonly EmployeeRow[], query: ParsedEmployeeQuery): QueryResult {
  if (all.length === 0) {
    return query.facets
      ? { total: 0, rows: [], facets: { status: [], payCycle: [] } }
      : { total: 0, rows: [] }
  }
  const snapshot = snapshotOf(all)
  const column = query.column === undefined ? undefined : requireColumn(snapshot, query.column).key
  const words = parseSearchText(query.text)
  const identifiers = snapshot.identifiers
  const textOk = (row: EmployeeRow): boolean =>
    words.every((word) =>
      column === undefined
        ? wordMatchesRow(word, row, identifiers)
        : wordMatchesColumn(word, column, row[column], identifiers.get(column)),
    )
  const statusOk = (row: EmployeeRow): boolean =>
    !query.statuses?.length || query.statuses.includes(statusOf(row))
  const cycleOk = (row: EmployeeRow): boolean =>
    !query.payCycleIds?.length || cyclesOf(row).some((cycle) => query.payCycleIds?.includes(cycle))

  const selected = new Uint8Array(all.length)
  const slots: number[] = []
  const pinned: number[] = []
  const byText: EmployeeRow[] = []
  all.forEach((row, slot) => {
    if (!textOk(row)) return
    byText.push(row)
    if (!statusOk(row) || !cycleOk(row)) return
    selected[slot] = 1
    slots.push(slot)
    if (words.length > 0 && rowIsExactMatch(words, row, identifiers, column)) pinned.push(slot)
  })
  const sort = query.sort
  const window = windowSlots({
    order: orderFor(all, snapshot, sort?.column ?? 'lastName'),
    descending: sort?.order === 'desc',
    selected,
    slots: Uint32Array.from(slots),
    total: slots.length,
    pinned: Uint32Array.from(pinned),
    offset: query.offset,
    limit: query.limit,
    defaultPosition: snapshot.defaultPosition,
    defaultOrder: snapshot.defaultOrder.order,
  })
  const result: QueryResult = { total: slots.length, rows: window.map((slot) => all[slot] as EmployeeRow) }
  if (query.facets) {
    result.facets = {
      status: facetList(new Set(all.map(statusOf)), byText.filter(cycleOk), (row) => [statusOf(row)]),
      payCycle: facetList(new Set(all.flatMap(cyclesOf)), byText.filter(statusOk), cyclesOf),
    }
  }
  return result
}

/** The columns as a snapshot lists them: the known four, then extras in first-seen order, kinds inferred. */
function discoverColumns(
  rows: readonly EmployeeRow[],
  identifiers: ReadonlyMap<string, DiscoveredIdentifierRole>,
): ColumnInfo[] {
  const collector = new ColumnCollector()
  for (const row of rows) collector.observe(row)
  return collector.columns().map(({ key, label, kind, known }) => {
    const column: ColumnInfo = { key, label, kind, known }
    const identifier = knownRole(key) ?? identifiers.get(key)
    return identifier === undefined ? column : { ...column, identifier }
  })
}

/** The columns of a list of rows as the cache reports them: before the first sync, the four the spec shows. */
export function columnsOf(rows: readonly EmployeeRow[]): ColumnInfo[] {
  return [...snapshotOf(rows).columns]
}

/**
 * "Did you mean" over the fake's rows with the real rules (near-miss.ts): term indexes of the names built as a
 * snapshot's are, the suggestions read from them exactly as the core does.
 */
export function suggestNames(rows: readonly EmployeeRow[], request: NameSuggestionRequest): NameSuggestion[] {
  const snapshot = snapshotOf(rows)
  if (request.column !== undefined) requireColumn(snapshot, request.column)
  const names: NameTerms[] = []
  for (const field of ['lastName', 'firstName'] as const) {
    if (request.column !== undefined && request.column !== field) continue
    names.push({ field, index: termIndexOf(rows.map((row) => textOf(row[field]))) })
  }
  return nameSuggestions(request.text, names, (field, slot) => textOf(rows[slot]?.[field]) ?? undefined)
}

/** A name column's terms as the snapshot's TokenIndex lays them out: sorted by code unit, each with its rows. */
function termIndexOf(values: ReadonlyArray<string | null>): NameTermIndex {
  const slotsByTerm = new Map<string, number[]>()
  values.forEach((value, slot) => {
    for (const term of tokenize(value ?? '')) slotsByTerm.set(term, [...(slotsByTerm.get(term) ?? []), slot])
  })
  const terms = [...slotsByTerm.keys()].sort()
  const joined = terms.join('')
  const text = Array.from({ length: joined.length }, (_, i) => joined.charCodeAt(i))
  const offsets = new Uint32Array(terms.length + 1)
  const starts = new Uint32Array(terms.length + 1)
  terms.forEach((term, rank) => {
    offsets[rank + 1] = (offsets[rank] ?? 0) + term.length
    starts[rank + 1] = (starts[rank] ?? 0) + (slotsByTerm.get(term)?.length ?? 0)
  })
  return {
    toParts: () => ({ text, offsets, starts }),
    term: (rank) => terms[rank] ?? '',
    estimate: (prefix) =>
      terms
        .filter((term) => term.startsWith(prefix))
        .reduce((sum, t) => sum + (slotsByTerm.get(t)?.length ?? 0), 0),
    slotsOf: (term) => slotsByTerm.get(term) ?? [],
  }
}
