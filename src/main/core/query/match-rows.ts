import type { FacetCount } from '../../../shared/domain'
import type { SearchIndex } from './search-index'
import type { SearchWord } from './search-rules'

/** Marks rows for one word; see TokenIndex.markPrefix for the `from` convention. */
export type WordMarker = (word: SearchWord, mark: Uint8Array, from: number) => void

/** The rows where the word is a whole identifier (see search-rules.ts), in any order, repeats allowed. */
export type ExactMarker = (word: SearchWord) => Iterable<number>

export interface MatchFilters {
  readonly words: readonly SearchWord[]
  readonly marker: WordMarker
  /** Finds the rows listed first; without it none are. */
  readonly exactMarker?: ExactMarker
  readonly statuses?: readonly string[]
  readonly payCycleIds?: readonly string[]
  readonly facets: boolean
  /** Reused for `slots` when given (length >= index.count); the caller must not hold an earlier result. */
  readonly slotsBuffer?: Uint32Array
}

export interface MatchResult {
  /** selected[slot] === 1 for rows in the result. */
  readonly selected: Uint8Array
  /** The first `total` entries are the selected slots in slot order. */
  readonly slots: Uint32Array
  readonly total: number
  /** Selected rows where some word is a whole identifier, in slot order: listed before the others. */
  readonly pinned: Uint32Array
  readonly facets?: { status: FacetCount[]; payCycle: FacetCount[] }
}

/**
 * Applies text, status and pay-cycle filters in one pass over the index and counts facets on the way. Facets
 * are "disjunctive", as clerks expect from a filter panel: status counts honour the text and pay-cycle filters
 * but not the status filter itself (so other statuses show what choosing them would add), and vice versa.
 */
export function matchRows(index: SearchIndex, filters: MatchFilters): MatchResult {
  const n = index.count
  const wordCount = filters.words.length
  let textMark: Uint8Array | null = null
  if (wordCount > 0) {
    textMark = new Uint8Array(n)
    filters.words.forEach((word, i) => filters.marker(word, textMark as Uint8Array, i))
  }
  const statusAllowed = allowed(index.statuses, filters.statuses)
  const cycleAllowed = allowed(index.cycles, filters.payCycleIds)
  const statusCounts = new Float64Array(index.statuses.length)
  const cycleCounts = new Float64Array(index.cycles.length)
  const selected = new Uint8Array(n)
  const slots = filters.slotsBuffer ?? new Uint32Array(n)
  const { status, cycleStart, cycleCodes } = index
  const facets = filters.facets
  let total = 0
  for (let slot = 0; slot < n; slot++) {
    if (textMark !== null && textMark[slot] !== wordCount) continue
    const code = status[slot] ?? 0
    const statusOk = statusAllowed === null || statusAllowed[code] === 1
    const from = cycleStart[slot] ?? 0
    const to = cycleStart[slot + 1] ?? 0
    let cycleOk = cycleAllowed === null
    if (!cycleOk && cycleAllowed !== null) {
      for (let i = from; i < to; i++) {
        if (cycleAllowed[cycleCodes[i] ?? 0] === 1) {
          cycleOk = true
          break
        }
      }
    }
    if (facets) {
      if (cycleOk) statusCounts[code] = (statusCounts[code] ?? 0) + 1
      if (statusOk) {
        for (let i = from; i < to; i++) {
          const cycle = cycleCodes[i] ?? 0
          cycleCounts[cycle] = (cycleCounts[cycle] ?? 0) + 1
        }
      }
    }
    if (statusOk && cycleOk) {
      selected[slot] = 1
      slots[total++] = slot
    }
  }
  const pinned = pinnedSlots(filters, selected)
  if (!facets) return { selected, slots, total, pinned }
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
