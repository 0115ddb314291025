import type { FacetCount } from '../../../shared/domain/query'
import type { SearchIndex } from './search-index'
import type { SearchWord } from './search-rules'

/** Marks rows for one word; see TokenIndex.markPrefix for the `from` convention. */
export type WordMarker = (word: SearchWord, mark: Uint8Array, from: number) => void

/** The rows where the word is a whole identifier (see search-rules.ts), in any order, repeats allowed. */
export type ExactMarker = (word: SearchWord) => Iterable<number>

/** What matching reads of a snapshot's index: the status and pay cycles of every row. */
export type MatchIndex = Pick<
  SearchIndex,
  'count' | 'status' | 'statuses' | 'statusPresent' | 'cycleStart' | 'cycleCodes' | 'cycles' | 'cyclePresent'
>

export interface MatchFilters {
  readonly words: readonly SearchWord[]
  readonly marker: WordMarker
  /** Finds the rows listed first; without it none are. */
  readonly exactMarker?: ExactMarker
  readonly statuses?: readonly string[]
  readonly payCycleIds?: readonly string[]
  readonly facets: boolean
  /**
   * Reused for `slots` when given (length >= index.count), and `selected` is then the index's own working
   * space too: the caller must not hold an earlier result.
   */
  readonly slotsBuffer?: Uint32Array
}

export interface MatchResult {
  /** selected[slot] === 1 for rows in the result. Read-only: it may be shared by every unfiltered result. */
  readonly selected: Uint8Array
  /** The first `total` entries are the selected slots in slot order. Read-only, like `selected`. */
  readonly slots: Uint32Array
  readonly total: number
  /** Selected rows where some word is a whole identifier, in slot order: listed before the others. */
  readonly pinned: Uint32Array
  readonly facets?: { status: FacetCount[]; payCycle: FacetCount[] }
}

/**
 * The rows grouped by everything the status and pay-cycle filters and facets look at: rows with the same status
 * and the same pay-cycle list share a group (20 groups for a million sandbox employees). Whether a row passes
 * those filters, and what it adds to each facet, is then a property of its group, so a query decides it per
 * group and counts rows per group; the facets are sums over the groups. Built once per index: by the core
 * worker beside the index it opens (adoptRowGroups), else on first use.
 */
export interface RowGroups {
  /** Group per slot, in the narrowest array that holds every group (a byte for sandbox data). */
  readonly group: GroupCodes
  readonly count: number
  /** Status code per group. */
  readonly status: Uint32Array
  /** Pay cycles per group as CSR: cycleCodes[cycleStart[g] .. cycleStart[g + 1]), the rows' list exactly. */
  readonly cycleStart: Uint32Array
  readonly cycleCodes: Uint32Array
  /** Rows per group. */
  readonly size: Float64Array
}

/** What matching keeps per index: its groups and its working space, made on first use. */
interface MatchState {
  readonly groups: RowGroups
  /** Word marks, zeroed before each search. */
  mark: Uint8Array | null
  /** `selected` of results whose caller gave a slotsBuffer (zeroed before a search; selectGroups sets every flag). */
  selected: Uint8Array | null
  /** The result of no filter at all (every row, in slot order), shared by every such query. */
  everything: { selected: Uint8Array; slots: Uint32Array } | null
}

const states = new WeakMap<MatchIndex, MatchState>()

type GroupCodes = Uint8Array | Uint16Array | Uint32Array

/** The largest (status, cycle) table rowGroups allocates (4 MB); beyond it, a map. */
const DENSE_CELLS = 1 << 20

/**
 * Applies text, status and pay-cycle filters and counts facets. Facets are "disjunctive", as clerks expect from
 * a filter panel: status counts honour the text and pay-cycle filters but not the status filter itself (so
 * other statuses show what choosing them would add), and vice versa.
 *
 * At a million rows this runs on the thread that answers IPC for every query, so it passes over the rows at most
 * once, in tight loops over typed arrays: the filters and facets are decided per row group (RowGroups), a
 * search only counts its matches per group, and a query with no filter at all touches no row.
 */
export function matchRows(index: MatchIndex, filters: MatchFilters): MatchResult {
  const n = index.count
  const state = stateOf(index)
  const groups = state.groups
  const statusAllowed = allowed(index.statuses, filters.statuses)
  const cycleAllowed = allowed(index.cycles, filters.payCycleIds)
  const statusOk = new Uint8Array(groups.count)
  const cycleOk = new Uint8Array(groups.count)
  const passes = new Uint8Array(groups.count)
  for (let g = 0; g < groups.count; g++) {
    statusOk[g] = statusAllowed === null || statusAllowed[groups.status[g] ?? 0] === 1 ? 1 : 0
    let ok = cycleAllowed === null
    const end = groups.cycleStart[g + 1] ?? 0
    for (let i = groups.cycleStart[g] ?? 0; !ok && i < end; i++)
      ok = cycleAllowed?.[groups.cycleCodes[i] ?? 0] === 1
    cycleOk[g] = ok ? 1 : 0
    passes[g] = ok && statusOk[g] === 1 ? 1 : 0
  }

  const wordCount = filters.words.length
  const group = groups.group
  let selected: Uint8Array
  let slots: Uint32Array
  let total = 0
  /** Rows per group that the text search alone keeps. */
  let found: Float64Array
  if (wordCount === 0 && statusAllowed === null && cycleAllowed === null) {
    state.everything ??= everything(n)
    selected = state.everything.selected
    slots = state.everything.slots
    total = n
    found = groups.size
  } else {
    // selectGroups writes every row's flag; a search sets only its matches'.
    selected = workingSelected(state, n, filters.slotsBuffer !== undefined, wordCount > 0)
    slots = filters.slotsBuffer ?? new Uint32Array(n)
    if (wordCount === 0) {
      found = groups.size
      total = selectGroups(group, passes, selected, slots)
    } else {
      state.mark ??= new Uint8Array(n)
      const mark = state.mark
      mark.fill(0)
      filters.words.forEach((word, i) => filters.marker(word, mark, i))
      found = new Float64Array(groups.count)
      total = selectMarked(mark, wordCount, group, passes, found, selected, slots)
    }
  }

  const pinned = pinnedSlots(filters, selected)
  if (!filters.facets) return { selected, slots, total, pinned }
  const statusCounts = new Float64Array(index.statuses.length)
  const cycleCounts = new Float64Array(index.cycles.length)
  for (let g = 0; g < groups.count; g++) {
    const rows = found[g] ?? 0
    if (rows === 0) continue
    if (cycleOk[g] === 1) {
      const code = groups.status[g] ?? 0
      statusCounts[code] = (statusCounts[code] ?? 0) + rows
    }
    if (statusOk[g] === 1) {
      const end = groups.cycleStart[g + 1] ?? 0
      for (let i = groups.cycleStart[g] ?? 0; i < end; i++) {
        const cycle = groups.cycleCodes[i] ?? 0
        cycleCounts[cycle] = (cycleCounts[cycle] ?? 0) + rows
      }
    }
  }
  return {
    selected,
    slots,
    total,
    pinned,
    facets: {
      status: facetList(index.statuses, statusCounts, index.statusPresent),
      payCycle: facetList(index.cycles, cycleCounts, index.cyclePresent),
    },
  }
}

/*
 * The loops over every row, each in a small function of its own: V8 then optimises each for its one shape of
 * arrays, where one function holding both (and the facet sums) ran several times slower at a million rows.
 */

/**
 * Selects the rows whose group passes; returns how many. Writes every row's `selected` (so it need not be
 * zeroed first) and every slot, without a branch: a filter passing a third of the rows at random would
 * mispredict one in three.
 */
function selectGroups(
  group: GroupCodes,
  passes: Uint8Array,
  selected: Uint8Array,
  slots: Uint32Array,
): number {
  let total = 0
  const n = group.length
  for (let slot = 0; slot < n; slot++) {
    const pass = passes[group[slot] ?? 0] ?? 0
    selected[slot] = pass
    slots[total] = slot
    total += pass
  }
  return total
}

/**
 * Counts the rows every word marked per group (in `found`) and selects those whose group passes (`selected`
 * must be zeroed); returns how many. Two passes without a data-dependent branch: the marked slots gathered into
 * `slots`, then kept or dropped by group; a branch per row would mispredict on every broad search.
 */
function selectMarked(
  mark: Uint8Array,
  words: number,
  group: GroupCodes,
  passes: Uint8Array,
  found: Float64Array,
  selected: Uint8Array,
  slots: Uint32Array,
): number {
  const n = group.length
  let marked = 0
  for (let slot = 0; slot < n; slot++) {
    slots[marked] = slot
    // 1 when mark[slot] === words, else 0 (both are 0..255, words >= 1).
    marked += (((mark[slot] ?? 0) ^ words) - 1) >>> 31
  }
  let total = 0
  for (let i = 0; i < marked; i++) {
    const slot = slots[i] ?? 0
    const g = group[slot] ?? 0
    found[g] = (found[g] ?? 0) + 1
    const pass = passes[g] ?? 0
    selected[slot] = pass
    slots[total] = slot
    total += pass
  }
  return total
}

function stateOf(index: MatchIndex): MatchState {
  let state = states.get(index)
  if (state === undefined) {
    state = { groups: rowGroups(index), mark: null, selected: null, everything: null }
    states.set(index, state)
  }
  return state
}

/**
 * Keeps groups that rowGroups made for this index elsewhere (the core worker, where walking a million rows
 * holds nobody up); false, and nothing kept, when they do not fit it. Fitting is checked, not assumed: every
 * row's group exists, and the first row of each group has that group's status and pay cycles (one pass over the
 * group codes, a millisecond or two at a million rows), so groups made for another index are refused.
 */
export function adoptRowGroups(index: MatchIndex, groups: RowGroups): boolean {
  const fits = groupsFit(index, groups)
  if (fits && !states.has(index)) states.set(index, { groups, mark: null, selected: null, everything: null })
  return fits
}

function groupsFit(index: MatchIndex, groups: RowGroups): boolean {
  const count = groups.count
  const shaped =
    groups.group.length === index.count &&
    groups.status.length === count &&
    groups.size.length === count &&
    groups.cycleStart.length === count + 1 &&
    (groups.cycleStart[count] ?? 0) === groups.cycleCodes.length
  if (!shaped) return false
  const seen = new Uint8Array(count)
  const group = groups.group
  for (let slot = 0; slot < group.length; slot++) {
    const g = group[slot] ?? 0
    if (g >= count) return false
    if (seen[g] === 1) continue
    seen[g] = 1
    if (groups.status[g] !== index.status[slot]) return false
    const from = index.cycleStart[slot] ?? 0
    const length = (index.cycleStart[slot + 1] ?? 0) - from
    const groupFrom = groups.cycleStart[g] ?? 0
    if ((groups.cycleStart[g + 1] ?? 0) - groupFrom !== length) return false
    for (let i = 0; i < length; i++) {
      if (groups.cycleCodes[groupFrom + i] !== index.cycleCodes[from + i]) return false
    }
  }
  return true
}

/** A `selected`: the index's own when the caller reuses its buffers (see slotsBuffer), else a new one. */
function workingSelected(state: MatchState, n: number, reuse: boolean, zeroed: boolean): Uint8Array {
  if (!reuse) return new Uint8Array(n)
  state.selected ??= new Uint8Array(n)
  if (zeroed) state.selected.fill(0)
  return state.selected
}

function everything(n: number): { selected: Uint8Array; slots: Uint32Array } {
  const slots = new Uint32Array(n)
  for (let slot = 0; slot < n; slot++) slots[slot] = slot
  return { selected: new Uint8Array(n).fill(1), slots }
}

/**
 * Groups the rows (see RowGroups). A row with at most one pay cycle, the usual case, finds its group in a dense
 * (status, cycle) table; a row with several, by its list as a string key, so any data groups exactly.
 */
export function rowGroups(index: MatchIndex): RowGroups {
  const n = index.count
  const statusValues = index.statuses.length
  const cycleValues = index.cycles.length
  const { status, cycleStart, cycleCodes } = index
  const group = new Uint32Array(n)
  // (status, cycle) cells in a table while it is small (sandbox data: 6 × 5), else in a map: dictionaries
  // are as large as the data makes them.
  // A row of the table per status, a cell per cycle code (one at least: code 0, no cycle, even in an index
  // whose dictionary lists none).
  const stride = Math.max(cycleValues, 1)
  const cells = statusValues * stride
  const table = cells <= DENSE_CELLS ? new Int32Array(cells).fill(-1) : null
  const cellMap = table === null ? new Map<number, number>() : null
  const keyed = new Map<string, number>()
  const groupStatus: number[] = []
  const groupCycleStart: number[] = [0]
  const groupCycles: number[] = []
  const size: number[] = []
  const add = (code: number, from: number, to: number): number => {
    groupStatus.push(code)
    for (let i = from; i < to; i++) groupCycles.push(cycleCodes[i] ?? 0)
    groupCycleStart.push(groupCycles.length)
    size.push(0)
    return size.length - 1
  }
  for (let slot = 0; slot < n; slot++) {
    const code = status[slot] ?? 0
    const from = cycleStart[slot] ?? 0
    const to = cycleStart[slot + 1] ?? 0
    const only = to - from === 1 ? (cycleCodes[from] ?? 0) : 0
    let g: number
    // Dense only where it cannot confuse two lists: none, or one real cycle code, and codes within the table.
    if (code < statusValues && (to === from || (to - from === 1 && only !== 0 && only < cycleValues))) {
      const cell = code * stride + only
      g = table !== null ? (table[cell] ?? -1) : (cellMap?.get(cell) ?? -1)
      if (g < 0) {
        g = add(code, from, to)
        if (table !== null) table[cell] = g
        else cellMap?.set(cell, g)
      }
    } else {
      const key = `${code}:${Array.from(cycleCodes.subarray(from, to)).join(',')}`
      g = keyed.get(key) ?? -1
      if (g < 0) {
        g = add(code, from, to)
        keyed.set(key, g)
      }
    }
    group[slot] = g
    size[g] = (size[g] ?? 0) + 1
  }
  const count = size.length
  return {
    // A quarter (or half) of the bytes to read on every filtered query.
    group: count <= 0x100 ? Uint8Array.from(group) : count <= 0x10000 ? Uint16Array.from(group) : group,
    count,
    status: Uint32Array.from(groupStatus),
    cycleStart: Uint32Array.from(groupCycleStart),
    cycleCodes: Uint32Array.from(groupCycles),
    size: Float64Array.from(size),
  }
}

/** A code → allowed table for a filter, or null when the filter is absent (everything passes). */
function allowed(values: readonly string[], wanted: readonly string[] | undefined): Uint8Array | null {
  if (wanted === undefined || wanted.length === 0) return null
  const wantedSet = new Set(wanted)
  const table = new Uint8Array(values.length)
  values.forEach((value, code) => {
    if (wantedSet.has(value)) table[code] = 1
  })
  return table
}

/** Every value the snapshot holds, with its count (0 included, so a filter panel keeps its shape). */
function facetList(values: readonly string[], counts: Float64Array, present: Uint8Array): FacetCount[] {
  const list: FacetCount[] = []
  values.forEach((value, code) => {
    if (present[code] !== 1) return
    list.push({ value, count: counts[code] ?? 0 })
  })
  return list.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
}

/** The selected rows some word names whole; exact matches are few (one employee per identifier, usually). */
function pinnedSlots(filters: MatchFilters, selected: Uint8Array): Uint32Array {
  const marker = filters.exactMarker
  if (marker === undefined) return new Uint32Array(0)
  const pinned = new Set<number>()
  for (const word of filters.words) {
    for (const slot of marker(word)) if (selected[slot] === 1) pinned.add(slot)
  }
  return Uint32Array.from(pinned).sort()
}
