import type { FacetCount } from '../../../shared/domain'
import { foldSearchWord } from '../cache/text-fold'
import type { SearchIndex } from './search-index'

/** A search box can hold many words; beyond this many, extra words add nothing but time. */
export const MAX_SEARCH_WORDS = 16
/** Unrestricted searches also match UUIDs, from this many characters on (shorter would match 1 row in 16). */
export const UUID_MIN_PREFIX = 4

const UUID_PREFIX = /^[0-9a-f][0-9a-f-]*$/

/** One typed word: its folded form for names, and its lower-case form when it could start a UUID. */
export interface SearchWord {
  readonly folded: string
  readonly uuid: string | null
}

/** Splits the search box into words; words that are only punctuation are dropped. */
export function parseSearchText(text: string | undefined): SearchWord[] {
  if (text === undefined) return []
  const words: SearchWord[] = []
  for (const raw of text.trim().split(/\s+/)) {
    if (raw === '') continue
    const lower = raw.toLowerCase()
    const word = { folded: foldSearchWord(raw), uuid: UUID_PREFIX.test(lower) ? lower : null }
    if (word.folded !== '' || word.uuid !== null) words.push(word)
    if (words.length === MAX_SEARCH_WORDS) break
  }
  return words
}

/** Marks rows for one word; see TokenIndex.markPrefix for the `from` convention. */
export type WordMarker = (word: SearchWord, mark: Uint8Array, from: number) => void

export interface MatchFilters {
  readonly words: readonly SearchWord[]
  readonly marker: WordMarker
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
  if (!facets) return { selected, slots, total }
  return {
    selected,
    slots,
    total,
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

/** Used by exports and tests: the UUID prefix rule for unrestricted searches. */
export function searchesUuid(word: SearchWord): boolean {
  return word.uuid !== null && word.uuid.length >= UUID_MIN_PREFIX
}
