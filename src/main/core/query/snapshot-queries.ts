import type { ChangeKind, ChangeListPage } from '../../../shared/domain/changes'
import type { NameSuggestion } from '../../../shared/domain/query'
import type { ColumnInfo, EmployeeDetail, EmployeeRow } from '../../../shared/domain/rows'
import { changeEntryNameParts, employeeNumberColumn, entryFacts } from '../../../shared/change-rules'
import { columnLabel } from '../columns/column-label'
import type { SnapshotReader, StoredValue } from '../snapshot/snapshot-reader'
import { RosterDeskError } from '../errors'
import { knownRole } from './column-role'
import type { ExactMarker, WordMarker } from './match-rows'
import { nameSuggestions } from './near-miss'
import type { NameTerms } from './near-miss'
import { SearchIndex } from './search-index'
import type { IdentifierIndex } from './search-index-data'
import { storedFieldsFor } from '../snapshot/row-reader'
import type { StoredFields } from '../snapshot/row-reader'
import {
  identifierLookups,
  isUuidPart,
  parseSearchText,
  searchesUuid,
  searchesUuidAnywhere,
} from './search-rules'
import type { SearchWord } from './search-rules'
import { columnTokenIndex } from './column-values'
import type { ColumnBuild } from './column-builds'
import type { SortOrder } from './sort-order'
import type { TokenIndex } from './token-index'
import { UuidParts } from './uuid-parts'

/** Orders and column indexes are built on first use; this many of each are kept per snapshot. */
const CACHED_ORDERS = 8
const CACHED_COLUMN_INDEXES = 4
/** Columns "Search in" reads from the stored search index (wordMarker), never from a column index. */
const INDEXED_COLUMNS: ReadonlySet<string> = new Set(['UUID', 'firstName', 'lastName'])

/**
 * Everything the query engine keeps for one snapshot: its reader, the search index, the column whitelist,
 * prepared statements, and lazily built sort orders and per-column token indexes.
 */
export class SnapshotQueries {
  readonly columns: readonly ColumnInfo[]
  private readonly columnsByKey: ReadonlyMap<string, ColumnInfo>
  private readonly orders = new Map<string, SortOrder>()
  private readonly columnIndexes = new Map<string, TokenIndex>()
  private uuidPartsRead: UuidParts | null = null

  private constructor(
    readonly reader: SnapshotReader,
    readonly index: SearchIndex,
  ) {
    this.columns = reader
      .columns()
      // The label is worked out afresh rather than read back, so a cache synced by an older RosterDesk shows the
      // same headers as the spreadsheets this one writes; the role comes from the index, which decided it.
      .map((row) => {
        const column: ColumnInfo = {
          key: row.key,
          label: columnLabel(row.key),
          kind: row.kind,
          known: row.known,
        }
        const identifier = knownRole(row.key) ?? index.identifiers.find((c) => c.key === row.key)?.role
        return identifier === undefined ? column : { ...column, identifier }
      })
    this.columnsByKey = new Map(this.columns.map((column) => [column.key, column]))
  }

  /** Opens a snapshot's queries; `index` is reused when the same snapshot was only reopened. */
  static open(reader: SnapshotReader, index?: SearchIndex): SnapshotQueries {
    return new SnapshotQueries(reader, index ?? SearchIndex.load(reader))
  }

  get runId(): number {
    return this.reader.runId
  }

  /** The column, if the cache knows it; a clear validation error otherwise. */
  requireColumn(key: string): ColumnInfo {
    const column = this.columnsByKey.get(key)
    if (column === undefined) {
      throw new RosterDeskError('validation', `The employee cache has no column called “${key}”.`)
    }
    return column
  }

  /** The rows in these slots, in that order; with `fields`, only those fields, from the stored columns. */
  rowsOfSlots(slots: ArrayLike<number>, fields?: StoredFields | null): EmployeeRow[] {
    const ids = new Float64Array(slots.length)
    for (let i = 0; i < slots.length; i++) ids[i] = this.index.ids[slots[i] ?? 0] ?? 0
    return this.reader.rows().rowsByIds(ids, fields)
  }

  /**
   * "Did you mean" for a search (near-miss.ts) over the name columns it reads: both by default, one when the clerk
   * searches in it, none for any other column. A suggestion's spelling is read from its first employee's row.
   */
  suggestions(text: string, column: string | undefined): NameSuggestion[] {
    const names: NameTerms[] = []
    if (column === undefined || column === 'lastName')
      names.push({ field: 'lastName', index: this.index.lastNames })
    if (column === undefined || column === 'firstName')
      names.push({ field: 'firstName', index: this.index.firstNames })
    if (names.length === 0) return []
    return nameSuggestions(text, names, (field, slot) => {
      const value = this.rowsOfSlots([slot])[0]?.[field]
      return typeof value === 'string' ? value : undefined
    })
  }

  /** The slots of the employees with these UUIDs (exactly as written); UUIDs the snapshot lacks are left out. */
  slotsOfUuids(uuids: readonly string[]): Set<number> {
    const slots = new Set<number>()
    for (const id of this.reader.rows().idsOfUuids(uuids)) {
      const slot = this.index.slotOf(id)
      if (slot >= 0) slots.add(slot)
    }
    return slots
  }

  /** The stored columns that give these fields without parsing rows, or null when some field needs the JSON. */
  storedFields(keys: readonly string[]): StoredFields | null {
    return storedFieldsFor(keys, this.columns)
  }

  employee(uuid: string): EmployeeDetail | null {
    const found = this.reader.employee(uuid)
    if (found === undefined) return null
    return { row: JSON.parse(found.rowJson) as EmployeeRow, payCycleIds: this.reader.payCyclesOf(found.id) }
  }

  /**
   * One page of the added, changed or removed employees of this snapshot's run, with the total, each with the
   * facts the change report shows (change-rules.ts); a removed one with its last row. The change history reads a
   * run's own change log instead; this serves runs that have none (a first sync, or a cache synced before them).
   */
  changes(kind: ChangeKind, offset: number, limit: number): ChangeListPage {
    const numberColumn = employeeNumberColumn(this.index.identifiers)
    if (kind === 'removed') {
      const { total, rows } = this.reader.removedPage(offset, limit)
      const items = rows.map((row) => {
        const last = JSON.parse(row.rowJson) as EmployeeRow
        return {
          UUID: row.uuid,
          name: row.name,
          ...changeEntryNameParts(last),
          ...entryFacts(last, numberColumn),
          row: last,
        }
      })
      return { total, items }
    }
    const { total, rows } = this.reader.changedPage(kind, offset, limit)
    const items = rows.map((row) => {
      const name = [row.firstName, row.lastName].filter((part) => part !== null && part !== '').join(' ')
      const stored = JSON.parse(row.rowJson) as EmployeeRow
      const item: ChangeListItem = {
        UUID: row.uuid,
        name: name === '' ? row.uuid : name,
        ...changeEntryNameParts(stored),
        ...entryFacts(stored, numberColumn),
      }
      if (kind === 'changed') item.fields = parseFields(row.changedFields)
      return item
    })
    return { total, items }
  }

  /**
   * How one search word marks rows (search-rules.ts states the rules row by row): names, the UUID and the
   * identifier columns by default, or only the chosen column.
   */
  wordMarker(column: string | undefined): WordMarker {
    const { firstNames, lastNames, identifiers } = this.index
    if (column === undefined) {
      return (word, mark, from) => {
        if (word.folded !== '') {
          lastNames.markPrefix(word.folded, mark, from)
          firstNames.markPrefix(word.folded, mark, from)
        }
        if (searchesUuid(word) || isUuidPart(word)) this.markUuid(word, mark, from)
        for (const identifier of identifiers) markIdentifier(identifier, word, mark, from)
      }
    }
    if (column === 'UUID') return (word, mark, from) => this.markUuid(word, mark, from, true)
    const index =
      column === 'firstName' ? firstNames : column === 'lastName' ? lastNames : this.columnIndex(column)
    const identifier = identifiers.find((c) => c.key === column)
    return (word, mark, from) => {
      if (word.folded !== '') index.markPrefix(word.folded, mark, from)
      if (identifier !== undefined) markIdentifier(identifier, word, mark, from)
    }
  }

  /** The rows a word names whole (the same number, address or UUID), in the columns `wordMarker` searches. */
  exactMarker(column: string | undefined): ExactMarker {
    const searched =
      column === undefined
        ? this.index.identifiers
        : this.index.identifiers.filter((identifier) => identifier.key === column)
    const uuid = column === undefined || column === 'UUID'
    return (word) => {
      const slots: number[] = []
      if (uuid && word.uuid !== null) {
        for (const id of this.reader.idsWithUuidKey(word.uuid)) {
          const slot = this.index.slotOf(id)
          if (slot >= 0) slots.push(slot)
        }
      }
      for (const identifier of searched) {
        const lookups = identifierLookups(identifier.role, word, identifier.maxLeadingZeros)
        for (const exact of lookups?.exacts ?? []) {
          for (const slot of identifier.tokens.slotsOf(exact)) slots.push(slot)
        }
      }
      return slots
    }
  }

  /** The order of all rows by one column, built on first use. */
  sortOrder(column: string): SortOrder {
    if (column === 'lastName') return this.index.defaultOrder
    const cached = this.orders.get(column)
    if (cached !== undefined) {
      this.orders.delete(column)
      this.orders.set(column, cached)
      return cached
    }
    const order = this.index.orderBy(this.columnValues(column))
    remember(this.orders, column, order, CACHED_ORDERS)
    return order
  }

  /**
   * What a query sorting by `sortColumn` and searching in `searchColumn` would have to build first (columns
   * already checked with requireColumn): nothing once built, and nothing for the columns the stored index covers.
   */
  missingBuilds(
    sortColumn: string | undefined,
    searchColumn: string | undefined,
    text?: string,
  ): ColumnBuild[] {
    const builds: ColumnBuild[] = []
    const inUuid = searchColumn === 'UUID'
    if (
      (inUuid || searchColumn === undefined) &&
      this.uuidPartsRead === null &&
      parseSearchText(text).some((word) => searchesUuidAnywhere(word, inUuid))
    ) {
      builds.push({ what: 'uuid-parts', column: 'UUID', kind: 'text' })
    }
    if (sortColumn !== undefined && sortColumn !== 'lastName' && !this.orders.has(sortColumn)) {
      builds.push({ what: 'sort-order', column: sortColumn, kind: this.requireColumn(sortColumn).kind })
    }
    if (
      searchColumn !== undefined &&
      !INDEXED_COLUMNS.has(searchColumn) &&
      !this.columnIndexes.has(searchColumn)
    ) {
      builds.push({ what: 'column-index', column: searchColumn, kind: this.requireColumn(searchColumn).kind })
    }
    return builds
  }

  /** Keeps a sort order built elsewhere (the core worker) as if it had been built here on first use. */
  adoptSortOrder(column: string, order: SortOrder): void {
    if (!this.orders.has(column)) remember(this.orders, column, order, CACHED_ORDERS)
  }

  /**
   * Keeps UUIDs read elsewhere (the core worker: in id order, which is slot order when they are one per
   * employee, the index holding every employee). False, keeping nothing, when they are not one per employee.
   */
  adoptUuidParts(parts: UuidParts): boolean {
    if (parts.count !== this.index.count) return false
    this.uuidPartsRead ??= parts
    return true
  }

  /** Keeps a column's token index built elsewhere (the core worker). */
  adoptColumnIndex(column: string, index: TokenIndex): void {
    if (!this.columnIndexes.has(column)) remember(this.columnIndexes, column, index, CACHED_COLUMN_INDEXES)
  }

  /** Marks the rows whose UUID starts with the word, or holds it anywhere (searchesUuidAnywhere). */
  private markUuid(word: SearchWord, mark: Uint8Array, from: number, narrowed = false): void {
    const prefix = word.uuid ?? ''
    if (prefix === '') return
    const to = from + 1
    if (searchesUuidAnywhere(word, narrowed)) {
      for (const slot of this.uuidParts().slotsContaining(prefix)) if (mark[slot] === from) mark[slot] = to
      return
    }
    for (const id of this.reader.idsWithUuidPrefix(prefix)) {
      const slot = this.index.slotOf(id)
      if (slot >= 0 && mark[slot] === from) mark[slot] = to
    }
  }

  /**
   * The snapshot's UUIDs for finding parts of them (uuid-parts.ts), read on the first "Search in: UUID" for a part
   * and kept with the snapshot: by the core worker when there is one (`missingBuilds`, `adoptUuidParts`), else
   * here, once per snapshot (bench/near-miss-bench.ts times it as "first use").
   */
  private uuidParts(): UuidParts {
    if (this.uuidPartsRead !== null) return this.uuidPartsRead
    const parts = UuidParts.read(this.reader)
    if (parts !== null && this.adoptUuidParts(parts)) return parts
    const keys = new Array<string>(this.index.count).fill('')
    this.reader.forEachUuidKey((id, key) => {
      const slot = this.index.slotOf(id)
      if (slot >= 0) keys[slot] = key
    })
    this.uuidPartsRead = UuidParts.fromKeys(keys)
    return this.uuidPartsRead
  }

  private columnIndex(column: string): TokenIndex {
    const cached = this.columnIndexes.get(column)
    if (cached !== undefined) return cached
    const index = columnTokenIndex(this.columnValues(column))
    remember(this.columnIndexes, column, index, CACHED_COLUMN_INDEXES)
    return index
  }

  /** One value per slot: the dedicated column for known fields, json_extract for discovered ones. */
  private columnValues(column: string): StoredValue[] {
    return this.reader.columnValues(column, this.requireColumn(column).kind)
  }
}

export type { ChangeKind, ChangeListPage } from '../../../shared/domain/changes'

/** Marks the rows an identifier column matches for a word: a token by one of its prefixes, or exactly. */
function markIdentifier(identifier: IdentifierIndex, word: SearchWord, mark: Uint8Array, from: number): void {
  const lookups = identifierLookups(identifier.role, word, identifier.maxLeadingZeros)
  if (lookups === null) return
  for (const prefix of lookups.prefixes) identifier.tokens.markPrefix(prefix, mark, from)
  const to = from + 1
  for (const exact of lookups.exacts) {
    if (lookups.prefixes.some((prefix) => exact.startsWith(prefix))) continue
    for (const slot of identifier.tokens.slotsOf(exact)) if (mark[slot] === from) mark[slot] = to
  }
}
type ChangeListItem = ChangeListPage['items'][number]

function parseFields(text: string | null): string[] {
  if (text === null) return []
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
  } catch {
    return []
  }
}

function remember<T>(cache: Map<string, T>, key: string, value: T, limit: number): void {
  cache.set(key, value)
  while (cache.size > limit) {
    const oldest = cache.keys().next()
    if (oldest.done === true) break
    cache.delete(oldest.value)
  }
}
