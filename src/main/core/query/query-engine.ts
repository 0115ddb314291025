import { employeeQuerySchema, KNOWN_EMPLOYEE_FIELDS } from '../../../shared/domain'
import type {
  ColumnInfo,
  EmployeeDetail,
  EmployeeQuery,
  EmployeeRow,
  ParsedEmployeeQuery,
  QueryResult,
} from '../../../shared/domain'
import type { CacheDatabase } from '../cache/cache-database'
import { columnLabel } from '../cache/column-label'
import type { SnapshotReader } from '../cache/snapshot-reader'
import { storageError } from '../cache/sqlite-open'
import { RosterDeskError } from '../errors'
import { knownRole } from './column-role'
import { matchRows } from './match-rows'
import type { MatchResult } from './match-rows'
import { allSlotsInOrder, windowSlots } from './result-window'
import { parseSearchText } from './search-rules'
import { SnapshotQueries } from './snapshot-queries'
import type { ChangeKind, ChangeListPage } from './snapshot-queries'

/** A query without its window: what an export of "the current view" or a roster needs. */
export type RowQuery = Omit<EmployeeQuery, 'offset' | 'limit' | 'facets'>

/**
 * The one way the app reads the cache: a query object in, the visible window, the total and facet counts out.
 * Text search (search-rules.ts) is by word prefix, in any order, accent- and case-insensitive and transliterated,
 * over first and last names, the UUID (from four characters) and the identifier columns (whole or by prefix), or
 * over one chosen column; rows a word names whole come first. Sort and search columns must be columns the cache
 * knows (its columns table); names are never put into SQL.
 *
 * Reads always see one whole snapshot: a sync that commits mid-way is picked up by the next call.
 */
export class QueryEngine {
  private snapshot: SnapshotQueries | null = null

  constructor(private readonly cache: CacheDatabase) {}

  query(input: EmployeeQuery): QueryResult {
    const query = parseQuery(input)
    const snapshot = this.current()
    if (snapshot === null) {
      return query.facets
        ? { total: 0, rows: [], facets: { status: [], payCycle: [] } }
        : { total: 0, rows: [] }
    }
    return this.guard(() => {
      const index = snapshot.index
      const match = this.match(snapshot, query, index.scratch)
      const slots = windowSlots({
        ...this.orderFor(snapshot, query),
        selected: match.selected,
        slots: match.slots,
        total: match.total,
        pinned: match.pinned,
        offset: query.offset,
        limit: query.limit,
        defaultPosition: index.defaultPosition,
        defaultOrder: index.defaultOrder.order,
      })
      const rows = snapshot.rowsOfSlots(slots)
      return match.facets === undefined
        ? { total: match.total, rows }
        : { total: match.total, rows, facets: match.facets }
    })
  }

  /** How many rows a query matches, without reading any. */
  count(input: RowQuery): number {
    const query = parseQuery(input)
    const snapshot = this.current()
    if (snapshot === null) return 0
    return this.guard(() => this.match(snapshot, { ...query, facets: false }, snapshot.index.scratch).total)
  }

  /**
   * Every row a query matches, in its sort order, `batchSize` at a time. The snapshot stays readable until the
   * generator finishes (or is returned), even if a sync commits a newer one meanwhile.
   */
  *iterateRows(input: RowQuery, batchSize = 500): Generator<EmployeeRow[], void, undefined> {
    const query = parseQuery(input)
    const snapshot = this.current()
    if (snapshot === null) return
    const release = snapshot.reader.retain()
    try {
      const slots = this.guard(() => {
        const match = this.match(snapshot, { ...query, facets: false })
        return allSlotsInOrder({
          ...this.orderFor(snapshot, query),
          selected: match.selected,
          slots: match.slots,
          total: match.total,
          pinned: match.pinned,
          defaultPosition: snapshot.index.defaultPosition,
          defaultOrder: snapshot.index.defaultOrder.order,
        })
      })
      for (let start = 0; start < slots.length; start += batchSize) {
        yield this.guard(() => snapshot.rowsOfSlots(slots.subarray(start, start + batchSize)))
      }
    } finally {
      release()
    }
  }

  /** One employee with every field and its pay cycles, or null when the cache does not hold that UUID. */
  getEmployee(uuid: string): EmployeeDetail | null {
    const snapshot = this.current()
    if (snapshot === null) return null
    return this.guard(() => snapshot.employee(uuid))
  }

  /**
   * The full lists behind the last sync's change report (the summary carries only samples): employees added,
   * changed (with the fields that changed) or removed since the snapshot before, a page at a time.
   */
  listChanges(kind: ChangeKind, offset = 0, limit = 100): ChangeListPage {
    if (
      !Number.isSafeInteger(offset) ||
      offset < 0 ||
      !Number.isSafeInteger(limit) ||
      limit < 0 ||
      limit > 1000
    ) {
      throw new RosterDeskError('validation', 'The change list window is not valid.')
    }
    const snapshot = this.current()
    if (snapshot === null) return { total: 0, items: [] }
    return this.guard(() => snapshot.changes(kind, offset, limit))
  }

  /** The known fields first, then every field discovered in the data, with its inferred kind. */
  listColumns(): ColumnInfo[] {
    const snapshot = this.current()
    if (snapshot === null) {
      return KNOWN_EMPLOYEE_FIELDS.map((key) => {
        const column: ColumnInfo = { key, label: columnLabel(key), kind: 'text', known: true }
        const identifier = knownRole(key)
        return identifier === null ? column : { ...column, identifier }
      })
    }
    return snapshot.columns.map((column) => ({ ...column }))
  }

  /** Builds the in-memory index for the current snapshot now (after a sync), rather than on the next query. */
  warm(): void {
    this.current()
  }

  private current(): SnapshotQueries | null {
    let reader: SnapshotReader | null
    try {
      reader = this.cache.currentSnapshot()
    } catch (error) {
      throw storageError(error, this.cache.path)
    }
    if (reader === null) {
      this.snapshot = null
      return null
    }
    if (this.snapshot !== null && this.snapshot.reader === reader) return this.snapshot
    const previous = this.snapshot
    this.snapshot = this.guard(() =>
      SnapshotQueries.open(
        reader,
        previous !== null && previous.runId === reader.runId ? previous.index : undefined,
      ),
    )
    return this.snapshot
  }

  private match(
    snapshot: SnapshotQueries,
    query: ParsedEmployeeQuery,
    slotsBuffer?: Uint32Array,
  ): MatchResult {
    const words = parseSearchText(query.text)
    const column = query.column === undefined ? undefined : snapshot.requireColumn(query.column).key
    return matchRows(snapshot.index, {
      words,
      marker: snapshot.wordMarker(column),
      exactMarker: snapshot.exactMarker(column),
      ...(query.statuses === undefined ? {} : { statuses: query.statuses }),
      ...(query.payCycleIds === undefined ? {} : { payCycleIds: query.payCycleIds }),
      facets: query.facets === true,
      ...(slotsBuffer === undefined ? {} : { slotsBuffer }),
    })
  }

  private orderFor(snapshot: SnapshotQueries, query: ParsedEmployeeQuery) {
    if (query.sort === undefined) return { order: snapshot.index.defaultOrder, descending: false }
    const column = snapshot.requireColumn(query.sort.column)
    return { order: snapshot.sortOrder(column.key), descending: query.sort.order === 'desc' }
  }

  private guard<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw storageError(error, this.cache.path)
    }
  }
}

function parseQuery(input: EmployeeQuery | RowQuery): ParsedEmployeeQuery {
  const parsed = employeeQuerySchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue === undefined || issue.path.length === 0 ? 'the query' : issue.path.join('.')
    throw new RosterDeskError('validation', `The search could not be run: ${where} is not valid.`, {
      detail: issue?.message,
    })
  }
  return parsed.data
}
