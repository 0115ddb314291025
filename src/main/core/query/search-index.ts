import type { SnapshotReader } from '../snapshot/snapshot-reader'
import { IDENTIFIER_MIN_DISTINCT_SHARE, identifierRole, identifierShape } from './column-role'
import { IndexEncoder } from './index-encoder'
import type { EncodedIdentifier, EncodedRows } from './index-encoder'
import { buildNameOrder, buildSortOrder } from './sort-order'
import type { SortOrder, SortValue } from './sort-order'
import { drain, TokenIndex } from './token-index'
import type { TokenIndexParts } from './token-index'
import type { IdentifierIndex, SearchIndexData } from './search-index-data'
import { decodeStoredIndex, storedIndexParts } from './stored-index'
import type { StoredIndexPart } from './stored-index'

/**
 * A SearchIndexData as plain data (token indexes as their parts), as it crosses from the core worker, which
 * opens a snapshot's index off the thread that answers queries.
 */
export type SearchIndexParts = Omit<SearchIndexData, 'firstNames' | 'lastNames' | 'identifiers'> & {
  readonly firstNames: TokenIndexParts
  readonly lastNames: TokenIndexParts
  readonly identifiers: ReadonlyArray<Omit<IdentifierIndex, 'tokens'> & { readonly tokens: TokenIndexParts }>
  readonly derived?: SearchIndexDerived
}

/**
 * What a SearchIndex works out from its data when it is made: a walk over every row, which the core worker
 * does and sends along, so that the thread adopting its index does not (at a million rows, three loops that
 * can take 100 ms there before the JIT has optimised them).
 */
export interface SearchIndexDerived {
  readonly statusPresent: Uint8Array
  readonly cyclePresent: Uint8Array
  readonly defaultPosition: Uint32Array
}

/**
 * The in-memory side of one snapshot: what every query needs in compact typed arrays, so filtering, counting
 * and faceting a million rows is a tight loop rather than a million B-tree lookups. Rows are addressed by slot
 * (0..count-1, in snapshot id order); the full rows stay in SQLite and are read only for the visible window.
 *
 * A sync builds it while it writes the snapshot and stores it there, so opening a snapshot costs reading a few
 * blobs; snapshots without a stored index are indexed from their columns on first use.
 */
export class SearchIndex implements SearchIndexData {
  readonly ids: Float64Array
  readonly status: Uint32Array
  readonly statuses: readonly string[]
  readonly cycleStart: Uint32Array
  readonly cycleCodes: Uint32Array
  readonly cycles: readonly string[]
  readonly firstNames: TokenIndex
  readonly lastNames: TokenIndex
  readonly identifiers: readonly IdentifierIndex[]
  readonly defaultOrder: SortOrder
  /** statusPresent[code] === 1 when at least one row has that status; likewise cyclePresent. */
  readonly statusPresent: Uint8Array
  readonly cyclePresent: Uint8Array
  /** Position of each slot in the default order, the tie-break for every other sort. */
  readonly defaultPosition: Uint32Array
  /** Working space for one windowed query at a time (queries are synchronous, so never shared). */
  readonly scratch: Uint32Array

  constructor(data: SearchIndexData, derived?: SearchIndexDerived) {
    this.ids = data.ids
    this.status = data.status
    this.statuses = data.statuses
    this.cycleStart = data.cycleStart
    this.cycleCodes = data.cycleCodes
    this.cycles = data.cycles
    this.firstNames = data.firstNames
    this.lastNames = data.lastNames
    this.identifiers = data.identifiers
    this.defaultOrder = data.defaultOrder
    this.scratch = new Uint32Array(data.ids.length)
    if (derived !== undefined && derived.defaultPosition.length === data.ids.length) {
      this.statusPresent = derived.statusPresent
      this.cyclePresent = derived.cyclePresent
      this.defaultPosition = derived.defaultPosition
      return
    }
    // Indexed loops, not for-of or forEach: at a million rows this runs in one task on the thread answering IPC.
    const statusPresent = new Uint8Array(data.statuses.length)
    const status = data.status
    for (let slot = 0; slot < status.length; slot++) statusPresent[status[slot] ?? 0] = 1
    this.statusPresent = statusPresent
    const cyclePresent = new Uint8Array(data.cycles.length)
    const cycleCodes = data.cycleCodes
    for (let i = 0; i < cycleCodes.length; i++) cyclePresent[cycleCodes[i] ?? 0] = 1
    this.cyclePresent = cyclePresent
    const position = new Uint32Array(data.ids.length)
    const order = data.defaultOrder.order
    for (let index = 0; index < order.length; index++) position[order[index] ?? 0] = index
    this.defaultPosition = position
  }

  get count(): number {
    return this.ids.length
  }

  /** Builds the index from dictionary-encoded rows (a sync's encoder, or a snapshot scan). */
  static fromEncoded(rows: EncodedRows): SearchIndex {
    const identifiers: IdentifierIndex[] = []
    for (const column of rows.identifiers) {
      const identifier = drain(identifierSteps(column))
      if (identifier !== null) identifiers.push(identifier)
    }
    return new SearchIndex({ ...SearchIndex.rowParts(rows), identifiers })
  }

  /**
   * fromEncoded in steps, `pause` awaited between them: the names, then each identifier column a chunk at a time
   * (an identifier has a term per row, so its index takes seconds to build at a million rows), so a sync's event
   * loop is never held for long.
   */
  static async fromEncodedInSteps(rows: EncodedRows, pause: () => Promise<void>): Promise<SearchIndex> {
    const parts = SearchIndex.rowParts(rows)
    const identifiers: IdentifierIndex[] = []
    for (const column of rows.identifiers) {
      const steps = identifierSteps(column)
      let step = steps.next()
      while (step.done !== true) {
        await pause()
        step = steps.next()
      }
      if (step.value !== null) identifiers.push(step.value)
    }
    return new SearchIndex({ ...parts, identifiers })
  }

  private static rowParts(rows: EncodedRows): Omit<SearchIndexData, 'identifiers'> {
    const count = rows.ids.length
    const extra: Array<number[] | undefined> = new Array<number[] | undefined>(count)
    let extraCount = 0
    for (const [slot, code] of rows.memberships) {
      if (code === 0 || rows.cycle[slot] === code) continue
      const list = extra[slot] ?? []
      if (list.includes(code)) continue
      list.push(code)
      extra[slot] = list
      extraCount++
    }
    const cycleStart = new Uint32Array(count + 1)
    const cycleCodes = new Uint32Array(count + extraCount)
    let offset = 0
    for (let slot = 0; slot < count; slot++) {
      cycleStart[slot] = offset
      const own = rows.cycle[slot] ?? 0
      if (own !== 0) cycleCodes[offset++] = own
      for (const code of extra[slot] ?? []) cycleCodes[offset++] = code
    }
    cycleStart[count] = offset
    return {
      ids: rows.ids,
      status: rows.status,
      statuses: rows.statusValues,
      cycleStart,
      cycleCodes: cycleCodes.subarray(0, offset),
      cycles: rows.cycleValues,
      firstNames: TokenIndex.fromCodes(rows.first, rows.firstValues),
      lastNames: TokenIndex.fromCodes(rows.last, rows.lastValues),
      defaultOrder: buildNameOrder(rows.last, rows.lastValues, rows.first, rows.firstValues),
    }
  }

  /**
   * The index stored with a snapshot, or one built from the snapshot's rows when none was stored or the stored
   * one is of an older format (a cache synced by an earlier RosterDesk: its index lacks the identifier columns
   * and the transliteration keys). Snapshots are never rewritten, so such a cache is indexed on every start until
   * its next sync: about 0.7 s per 100,000 employees.
   */
  static load(reader: SnapshotReader): SearchIndex {
    const stored = decodeStoredIndex(reader.storedIndexParts())
    if (stored !== null) return new SearchIndex(stored)
    const encoder = new IndexEncoder()
    // Identifiers are strings, so only text columns can be, and only those whose first value has an identifier
    // shape; SQLite reads just those fields out of each row (the encoder still checks every value).
    const candidates = reader.discoveredTextColumns().filter((key) => {
      const shape = identifierShape(reader.firstValueOf(key))
      return shape === 'number' || shape === 'email'
    })
    for (const row of reader.indexRows(candidates)) {
      // No prototype: a field named `__proto__` is a field, and `constructor` is absent unless the data has it.
      const extras = Object.create(null) as Record<string, unknown>
      candidates.forEach((key, i) => {
        extras[key] = row[5 + i]
      })
      encoder.set(Number(row[0]), asText(row[1]), asText(row[2]), asText(row[3]), asText(row[4]), extras)
    }
    for (const [employeeId, payCycleId] of reader.payCycleMemberships()) {
      const cycle = asText(payCycleId)
      if (cycle !== null) encoder.addMembership(employeeId, cycle)
    }
    return SearchIndex.fromEncoded(encoder.encode())
  }

  /** The index as plain data, for moving it to another thread (typed arrays, not copies). */
  toParts(): SearchIndexParts {
    return {
      ids: this.ids,
      status: this.status,
      statuses: this.statuses,
      cycleStart: this.cycleStart,
      cycleCodes: this.cycleCodes,
      cycles: this.cycles,
      defaultOrder: this.defaultOrder,
      firstNames: this.firstNames.toParts(),
      lastNames: this.lastNames.toParts(),
      identifiers: this.identifiers.map((column) => ({ ...column, tokens: column.tokens.toParts() })),
      derived: {
        statusPresent: this.statusPresent,
        cyclePresent: this.cyclePresent,
        defaultPosition: this.defaultPosition,
      },
    }
  }

  /**
   * An index from `toParts` of an index this process built or checked (the core worker's): the token indexes'
   * shapes are checked, their postings are not walked again.
   */
  static fromParts(parts: SearchIndexParts): SearchIndex | null {
    const count = parts.ids.length
    const firstNames = TokenIndex.fromParts(parts.firstNames, count, 'trusted')
    const lastNames = TokenIndex.fromParts(parts.lastNames, count, 'trusted')
    if (firstNames === null || lastNames === null) return null
    const identifiers: IdentifierIndex[] = []
    for (const column of parts.identifiers) {
      const tokens = TokenIndex.fromParts(column.tokens, count, 'trusted')
      if (tokens === null) return null
      identifiers.push({ ...column, tokens })
    }
    return new SearchIndex({ ...parts, firstNames, lastNames, identifiers }, parts.derived)
  }

  /** The parts to store with the snapshot this index describes. */
  serialize(): StoredIndexPart[] {
    return storedIndexParts(this)
  }

  /** The slot of a snapshot id, or -1. */
  slotOf(id: number): number {
    const ids = this.ids
    let lo = 0
    let hi = ids.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const value = ids[mid] ?? 0
      if (value === id) return mid
      if (value < id) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }

  /** An order for another column, ties kept in the default order. */
  orderBy(values: readonly SortValue[]): SortOrder {
    return buildSortOrder(values, this.defaultOrder.order)
  }
}

function asText(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

/** Terms looked at to tell a column whose tokens repeat from one whose tokens are nearly all distinct. */
const DISTINCT_SAMPLE = 1_024

/**
 * Whether a candidate column is no identifier because its tokens repeat (column-role.ts), found without sorting
 * them when that is cheap: a column of a few values (a manager's or a team's address, a cost-centre number) has
 * one shape throughout, and sorting a million of its tokens to count them costs ten times a set of its values.
 * An evenly spaced sample picks the way to count; the decision itself is always exact: false here leaves the
 * count to the index build (`identifierOf`).
 */
function repeatsTooMuch(column: EncodedIdentifier): boolean {
  const terms = column.terms
  const step = Math.max(1, Math.floor(terms.length / DISTINCT_SAMPLE))
  const sample = new Set<string>()
  let taken = 0
  for (let i = 0; i < terms.length; i += step) {
    sample.add(terms[i] ?? '')
    taken++
  }
  if (sample.size >= taken * IDENTIFIER_MIN_DISTINCT_SHARE) return false
  const distinct = new Set(terms).size
  return identifierRole({ shape: column.shape, present: terms.length, distinct }) === null
}

/** A candidate column's index in steps (`drain` runs them at once); null when the column is no identifier. */
function* identifierSteps(column: EncodedIdentifier): Generator<void, IdentifierIndex | null, undefined> {
  if (repeatsTooMuch(column)) return null
  yield
  return identifierOf(column, yield* TokenIndex.fromSlotTerms(column.slots, column.terms))
}

/**
 * A candidate column's index, if the column is an identifier (column-role.ts): its tokens tell employees apart.
 * Decided here because the index is what counts its distinct tokens.
 */
function identifierOf(column: EncodedIdentifier, tokens: TokenIndex): IdentifierIndex | null {
  const role = identifierRole({
    shape: column.shape,
    present: column.slots.length,
    distinct: tokens.termCount,
  })
  return role === null ? null : { key: column.key, role, maxLeadingZeros: column.maxLeadingZeros, tokens }
}
