import { employeeQuerySchema } from '../../../shared/domain/query'
import { KNOWN_EMPLOYEE_FIELDS } from '../../../shared/domain/rows'
import type {
  EmployeeQuery,
  NameSuggestion,
  ParsedEmployeeQuery,
  PreparingWork,
  QueryResult,
  RowQuery,
} from '../../../shared/domain/query'
import type { ColumnInfo, EmployeeDetail, EmployeeRow } from '../../../shared/domain/rows'
import type { CacheDatabase } from '../cache/cache-database'
import { columnLabel } from '../columns/column-label'
import type { SnapshotReader } from '../snapshot/snapshot-reader'
import { storageError } from '../sqlite/sqlite-open'
import { isRosterDeskError, RosterDeskError } from '../errors'
import { silentLogger, type Logger } from '../log/logger'
import type { ColumnBuild, ColumnBuilder } from './column-builds'
import { knownRole } from './column-role'
import { matchRows } from './match-rows'
import type { MatchResult } from './match-rows'
import { allSlotsInOrder, windowSlots } from './result-window'
import { parseSearchText } from './search-rules'
import { SnapshotQueries } from './snapshot-queries'
import { UuidParts } from './uuid-parts'
import type { ChangeKind, ChangeListPage } from './snapshot-queries'
import { quotedColumnName } from '../../../shared/column-names'

/** What `iterateRows` reads beyond the query: only some employees, and only some of their fields. */
export interface RowIterationOptions {
  /** Only the employees with these UUIDs (exactly as written), in the query's order. */
  readonly uuids?: readonly string[]
  /** The fields the caller reads; rows may then hold only these. */
  readonly fields?: readonly string[]
}

export interface QueryEngineOptions {
  /** Builds first-use sort orders and column indexes off this thread (`prepare`); absent: built inline. */
  readonly builder?: ColumnBuilder
  readonly logger?: Logger
  /**
   * Told what the builder is preparing whenever that changes (`[]` once nothing is), so the window can say why
   * an answer takes seconds; called only for work the builder does, never for inline builds.
   */
  readonly onPreparing?: (preparing: PreparingWork[]) => void
}

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
  /** Builds under way, by snapshot and column, so two queries needing the same one share it. */
  private readonly building = new Map<string, Promise<void>>()
  /** What each entry of `building` is, as `onPreparing` reports it. */
  private readonly preparing = new Map<string, PreparingWork>()
  private readonly builder: ColumnBuilder | undefined
  private readonly logger: Logger
  private readonly onPreparing: ((preparing: PreparingWork[]) => void) | undefined

  constructor(
    /** The open cache, or (in the core worker) one snapshot file standing for it. */
    private readonly cache: Pick<CacheDatabase, 'currentSnapshot' | 'path'>,
    options: QueryEngineOptions = {},
  ) {
    this.builder = options.builder
    this.logger = options.logger ?? silentLogger
    this.onPreparing = options.onPreparing
  }

  /**
   * Makes sure what `query` needs beyond the stored index (a sort order, a "Search in" column index) is built,
   * by the builder on another thread, so the synchronous `query` that follows answers in milliseconds; the
   * thread calling this stays free meanwhile. Without a builder, or when the builder fails, `query` builds it
   * inline as before. Rejects only for a query that is not valid (what `query` would refuse too).
   */
  async prepare(input: EmployeeQuery | RowQuery): Promise<void> {
    if (this.builder === undefined) return
    await this.prepareParsed(parseQuery(input))
  }

  /**
   * One `employees:query` request: `prepare` then `query`, the query parsed once for both. Rejects for a query
   * that is not valid, as they do.
   */
  async answer(input: EmployeeQuery): Promise<QueryResult> {
    const query = parseQuery(input)
    await this.prepareParsed(query)
    return this.answerParsed(query)
  }

  private async prepareParsed(query: ParsedEmployeeQuery): Promise<void> {
    const builder = this.builder
    if (builder === undefined) return
    await this.open()
    const snapshot = this.current()
    if (snapshot === null) return
    const needed = snapshot.missingBuilds(query.sort?.column, query.column, query.text)
    if (needed.length === 0) return
    await Promise.all(needed.map((build) => this.buildFor(snapshot, builder, build)))
  }

  /**
   * Opens the current snapshot's search index on the builder's thread when it is not open yet (after a sync, or
   * at start: reading a stored index at a million employees takes 0.1–1 s, re-indexing an older one seconds).
   * Without a builder, or when it fails, the next synchronous call opens it inline.
   */
  async open(): Promise<void> {
    const builder = this.builder
    if (builder === undefined) return
    let reader: SnapshotReader | null
    try {
      reader = this.cache.currentSnapshot()
    } catch (error) {
      throw storageError(error, this.cache.path)
    }
    if (reader === null || this.snapshot?.reader === reader) return
    const opened = reader
    const key = `${opened.runId}\u0000index`
    const pending = this.building.get(key)
    if (pending !== undefined) return pending
    const release = opened.retain()
    const started = performance.now()
    const work = (async () => {
      const index = await builder.searchIndex(opened.path, opened.checkedAs)
      // A newer snapshot, or an inline open meanwhile, wins; this one is then simply dropped.
      if (!opened.isOpen || this.snapshot?.reader === opened) return
      this.snapshot = this.guard(() => SnapshotQueries.open(opened, index))
      this.logger.info(`Query: opened the search index in ${Math.round(performance.now() - started)} ms`)
    })()
      .catch((error: unknown) => {
        this.logger.warn('Query: opening the search index elsewhere failed; opening it here', error)
      })
      .finally(() => {
        release()
        this.building.delete(key)
        this.donePreparing(key)
      })
    this.building.set(key, work)
    this.startPreparing(key, { what: 'index', column: null, label: null })
    return work
  }

  private buildFor(snapshot: SnapshotQueries, builder: ColumnBuilder, build: ColumnBuild): Promise<void> {
    const key = `${snapshot.runId}\u0000${build.what}\u0000${build.column}`
    const pending = this.building.get(key)
    if (pending !== undefined) return pending
    // The snapshot file stays on disk while another thread reads it, even if a sync commits meanwhile.
    const release = snapshot.reader.retain()
    const source = { snapshotPath: snapshot.reader.path, tieOrder: snapshot.index.defaultOrder.order }
    const started = performance.now()
    const work = (async () => {
      if (build.what === 'sort-order')
        snapshot.adoptSortOrder(build.column, await builder.sortOrder(source, build))
      else if (build.what === 'uuid-parts') {
        const data = await builder.uuidParts(source)
        const parts = data === null ? null : UuidParts.fromData(data)
        // UUIDs that do not fit this snapshot are read here by the query instead (never a wrong answer).
        if (parts === null || !snapshot.adoptUuidParts(parts)) throw new Error('the UUIDs read do not fit')
      } else snapshot.adoptColumnIndex(build.column, await builder.columnIndex(source, build))
      this.logger.info(
        `Query: built the ${build.what} of ${quotedColumnName(build.column)} in ${Math.round(performance.now() - started)} ms`,
      )
    })()
      .catch((error: unknown) => {
        // The query then builds it inline: slower for the clerk, but never a wrong or missing answer.
        if (!isRosterDeskError(error) || error.code !== 'cancelled') {
          this.logger.warn(
            `Query: building the ${build.what} of ${quotedColumnName(build.column)} elsewhere failed`,
            error,
          )
        }
      })
      .finally(() => {
        release()
        this.building.delete(key)
        this.donePreparing(key)
      })
    this.building.set(key, work)
    this.startPreparing(key, {
      what: build.what === 'sort-order' ? 'sort' : 'search',
      column: build.column,
      label: snapshot.requireColumn(build.column).label,
    })
    return work
  }

  private startPreparing(key: string, work: PreparingWork): void {
    this.preparing.set(key, work)
    this.reportPreparing()
  }

  private donePreparing(key: string): void {
    if (this.preparing.delete(key)) this.reportPreparing()
  }

  private reportPreparing(): void {
    if (this.onPreparing === undefined) return
    try {
      this.onPreparing([...this.preparing.values()])
    } catch (error) {
      // Telling the window is a courtesy: a failure there must not fail the build or the query waiting on it.
      this.logger.warn('Query: reporting what is being prepared failed', error)
    }
  }

  query(input: EmployeeQuery): QueryResult {
    return this.answerParsed(parseQuery(input))
  }

  private answerParsed(query: ParsedEmployeeQuery): QueryResult {
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

  /**
   * "Did you mean …" for the search box's text and "Search in" column (near-miss.ts): the closest saved names to
   * its near-missed word; empty without a snapshot. The renderer asks when the search found very little
   * (NEAR_MISS_FEW_MATCHES). Answered from the open search index's term lists: bench/near-miss-bench.ts.
   */
  suggest(text: string, column?: string): NameSuggestion[] {
    const snapshot = this.current()
    if (snapshot === null) return []
    const key = column === undefined ? undefined : snapshot.requireColumn(column).key
    return this.guard(() => snapshot.suggestions(text, key))
  }

  /** How many rows a query matches, without reading any. */
  count(input: RowQuery): number {
    const query = parseQuery(input)
    const snapshot = this.current()
    if (snapshot === null) return 0
    return this.guard(() => this.match(snapshot, { ...query, facets: false }, snapshot.index.scratch).total)
  }

  /**
   * Every row a query matches, in its sort order, `batchSize` at a time (one read per batch). The snapshot stays
   * readable until the generator finishes (or is returned), even if a sync commits a newer one meanwhile.
   * `options.uuids` keeps only those employees (still in the query's order); `options.fields` says which fields
   * the caller reads, so rows may hold only those when the snapshot's stored columns give them exactly.
   */
  *iterateRows(
    input: RowQuery,
    batchSize = 500,
    options: RowIterationOptions = {},
  ): Generator<EmployeeRow[], void, undefined> {
    const query = parseQuery(input)
    const snapshot = this.current()
    if (snapshot === null) return
    const release = snapshot.reader.retain()
    try {
      const fields = options.fields === undefined ? null : snapshot.storedFields(options.fields)
      const slots = this.guard(() => {
        const match = this.match(snapshot, { ...query, facets: false })
        const ordered = allSlotsInOrder({
          ...this.orderFor(snapshot, query),
          selected: match.selected,
          slots: match.slots,
          total: match.total,
          pinned: match.pinned,
          defaultPosition: snapshot.index.defaultPosition,
          defaultOrder: snapshot.index.defaultOrder.order,
        })
        if (options.uuids === undefined) return ordered
        const chosen = snapshot.slotsOfUuids(options.uuids)
        return ordered.filter((slot) => chosen.has(slot))
      })
      for (let start = 0; start < slots.length; start += batchSize) {
        yield this.guard(() => snapshot.rowsOfSlots(slots.subarray(start, start + batchSize), fields))
      }
    } finally {
      release()
    }
  }

  /**
   * The saved employees with these UUIDs (exactly as written), every field, in the order given, each once; UUIDs
   * the current snapshot lacks (a sync removed them since) are left out. What a copy of chosen rows reads.
   */
  rowsOfUuids(uuids: readonly string[]): EmployeeRow[] {
    const snapshot = this.current()
    if (snapshot === null) return []
    return this.guard(() => {
      const rows = snapshot.rowsOfSlots([...snapshot.slotsOfUuids(uuids)])
      const byUuid = new Map(rows.map((row) => [row['UUID'], row]))
      const found: EmployeeRow[] = []
      for (const uuid of new Set(uuids)) {
        const row = byUuid.get(uuid)
        if (row !== undefined) found.push(row)
      }
      return found
    })
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
