import type { NameSuggestion } from '../../../shared/domain/query'
import { NEAR_MISS_FEW_MATCHES, NEAR_MISS_MAX_SUGGESTIONS } from '../../../shared/near-miss'
import { foldSearchWord } from '../text/text-fold'
import { parseSearchText } from './search-rules'

/**
 * "Did you mean …": the saved names closest to a word that found (almost) no one, read from the search index's
 * own sorted term lists (token-index.ts), so a suggestion is always a name some employee has and one click finds
 * them. Names are compared in the index's own form (text-fold.ts: folded, accents removed, transliterated), so
 * "Mueler" is one edit from Müller and the accents of "Rodríguez" never count as edits.
 */

export type NameField = 'firstName' | 'lastName'

/** Code units of terms laid end to end (token-index.ts's TermText, or any array of UTF-16 code units). */
type TermText = ArrayLike<number>

/**
 * What near-miss reads of a name column's term index: TokenIndex (token-index.ts) as it is, stated here so this
 * module stays pure (the renderer tests' fake core applies it over term lists of its own).
 */
export interface NameTermIndex {
  /** The sorted terms end to end: term i is text[offsets[i], offsets[i + 1]); its rows postings[starts[i], starts[i + 1]). */
  toParts(): { readonly text: TermText; readonly offsets: Uint32Array; readonly starts: Uint32Array }
  term(rank: number): string
  /** Rows a prefix matches, counted with repeats. */
  estimate(prefix: string): number
  /** The rows holding exactly `term`, ascending. */
  slotsOf(term: string): ArrayLike<number>
}

/** One name column's term list. */
export interface NameTerms {
  readonly field: NameField
  readonly index: NameTermIndex
}

/** A term of a name index near a typed word. */
export interface NearTerm {
  readonly term: string
  /** nearMissDistance of the typed word to the term. */
  readonly distance: number
  /** Rows holding the term, summed over the indexes searched (a ranking weight, not a shown count). */
  readonly rows: number
}

/** From this many letters, a typed word may be two edits from a suggested name; shorter ones, one. */
const TWO_EDITS_FROM = 8

/**
 * Edits allowed between a typed word and a suggested name, by the word's length: none below three letters (two
 * letters are a prefix still being typed, and every short name is near them), one up to seven ("Smtih",
 * "Jonhson": a swapped, dropped, doubled or wrong letter), two from eight ("Abubakkar"). Two edits for shorter
 * words would both flood them with unrelated names and keep far more of a million-name list in play: at a million
 * distinct surnames that scan took several times the 50 ms the suggestions have (bench/near-miss-bench.ts).
 */
export function allowedEdits(length: number): number {
  if (length < 3) return 0
  return length < TWO_EDITS_FROM ? 1 : 2
}

/**
 * The distance the suggestions are ranked by: the optimal-string-alignment edit distance (insert, delete,
 * substitute, or swap two neighbours: "smtih" is one edit from "smith"), or one more than the distance to the
 * closest start of the name, so that a typo in a name still being typed ("rodriq") finds "rodriguez". Names the
 * word starts (distance 0 to a start) are what the search itself already found; nearTerms leaves them out.
 * Returns a value above `limit` when both are above it (computing no further than needed).
 */
export function nearMissDistance(word: string, term: string, limit: number): number {
  const scanner = new TermScanner(word, limit)
  return scanner.score(termTextOfString(term), 0, term.length, 0)
}

function termTextOfString(term: string): Uint16Array {
  const units = new Uint16Array(term.length)
  for (let i = 0; i < term.length; i++) units[i] = term.charCodeAt(i)
  return units
}

/**
 * The edit-distance table of one typed word against terms met in sorted order, kept between terms: a term that
 * shares its first characters with the one before reuses those rows, and a term that shares the characters
 * after which the previous one could no longer come within the limit gets its score without any work. Over a
 * sorted list this is a walk of the terms' trie that stops where no name can come close.
 */
class TermScanner {
  private readonly word: Uint16Array
  private readonly width: number
  /** rows[i * width + j]: distance of the term's first i characters to the word's first j. */
  private readonly rows: Int32Array
  /** prefixMin[i]: the least distance of the whole word to a start of the term no longer than i. */
  private readonly prefixMin: Int32Array
  private readonly maxRows: number
  /** Rows computed for the previous term. */
  private computed = 0
  /**
   * Where the last term's computation stopped short of its end (-1: it reached the end): every term starting
   * with the same that many characters scores the same, so a sorted scan can step over them (nearTerms).
   */
  stopped = -1
  private previousScore = 0
  private previousText: TermText | null = null
  private previousStart = 0
  private previousLength = 0

  constructor(
    word: string,
    private readonly limit: number,
  ) {
    this.word = termTextOfString(word)
    const m = word.length
    this.width = m + 1
    // Beyond m + limit characters, neither the whole term nor any longer start of it can come within the limit.
    this.maxRows = m + limit + 1
    this.rows = new Int32Array((this.maxRows + 1) * this.width)
    this.prefixMin = new Int32Array(this.maxRows + 1)
    for (let j = 0; j <= m; j++) this.rows[j] = j
    this.prefixMin[0] = m
  }

  /**
   * The score (nearMissDistance) of term text[start, start + length), given that the previous term scored with
   * this scanner shares its first `shared` characters (0 when unknown).
   */
  score(text: TermText, start: number, length: number, shared: number): number {
    const m = this.word.length
    const limit = this.limit
    const width = this.width
    const rows = this.rows
    if (this.stopped >= 0 && shared >= this.stopped) return this.previousScore
    let depth = Math.min(shared, this.computed)
    const last = Math.min(length, this.maxRows)
    let stoppedAt = -1
    while (depth < last) {
      const i = depth + 1
      const here = i * width
      const above = here - width
      const ch = text[start + i - 1] ?? 0
      const before = i >= 2 ? (text[start + i - 2] ?? 0) : -1
      rows[here] = i
      let rowMin = i
      // Only the band |i - j| <= limit can be within the limit (a cell is at least |i - j|); the cells just
      // outside it, which the band's neighbours read, hold limit + 1, which is all "too far" needs to say.
      const lo = Math.max(1, i - limit)
      const hi = Math.min(m, i + limit)
      if (lo > 1) rows[here + lo - 1] = limit + 1
      if (hi < m) rows[here + hi + 1] = limit + 1
      for (let j = lo; j <= hi; j++) {
        const wj = this.word[j - 1] ?? 0
        const cost = wj === ch ? 0 : 1
        let best = Math.min(
          (rows[above + j] ?? 0) + 1,
          (rows[here + j - 1] ?? 0) + 1,
          (rows[above + j - 1] ?? 0) + cost,
        )
        if (i >= 2 && j >= 2 && wj === before && (this.word[j - 2] ?? 0) === ch) {
          best = Math.min(best, (rows[above - width + j - 2] ?? 0) + 1)
        }
        rows[here + j] = best
        if (best < rowMin) rowMin = best
      }
      const toWhole = m >= lo && m <= hi ? (rows[here + m] ?? 0) : limit + 1
      this.prefixMin[i] = Math.min(this.prefixMin[i - 1] ?? 0, toWhole)
      depth = i
      if (rowMin > limit) {
        stoppedAt = i
        break
      }
    }
    if (stoppedAt < 0 && last < length) stoppedAt = last
    this.computed = depth
    const prefixMin = this.prefixMin[depth] ?? 0
    const full = stoppedAt < 0 && Math.abs(length - m) <= limit ? (rows[length * width + m] ?? 0) : limit + 1
    const score = prefixMin === 0 ? 0 : Math.min(full, prefixMin + 1)
    this.stopped = stoppedAt
    this.previousScore = score
    return score
  }

  /** Scores the terms of a sorted list in order, sharing rows between neighbours. */
  scoreNext(text: TermText, start: number, length: number): number {
    let shared = 0
    const previous = this.previousText
    if (previous === text) {
      const bound = Math.min(length, this.previousLength, this.maxRows)
      while (shared < bound && text[start + shared] === previous[this.previousStart + shared]) shared++
    }
    const score = this.score(text, start, length, shared)
    this.previousText = text
    this.previousStart = start
    this.previousLength = length
    return score
  }
}

/**
 * The terms of `indexes` within allowedEdits of `word` (a folded search word, see foldSearchWord), leaving out
 * the ones the word starts: closest first, then the most common, then alphabetical; at most `limit`. One pass
 * over each sorted term list (TermScanner), measured in bench/near-miss-bench.ts.
 */
export function nearTerms(word: string, indexes: readonly NameTermIndex[], limit: number): NearTerm[] {
  const edits = allowedEdits(word.length)
  if (edits === 0 || limit <= 0) return []
  const found = new Map<string, { distance: number; rows: number }>()
  for (const index of indexes) {
    const { text, offsets, starts } = index.toParts()
    const scanner = new TermScanner(word, edits)
    const terms = offsets.length - 1
    for (let rank = 0; rank < terms; rank++) {
      const start = offsets[rank] ?? 0
      const length = (offsets[rank + 1] ?? 0) - start
      const distance = scanner.scoreNext(text, start, length)
      if (distance > edits && scanner.stopped >= 0) {
        // No term starting with this one's first `stopped` characters comes close: one binary search past them.
        rank = endOfPrefix(text, offsets, rank + 1, terms, start, scanner.stopped) - 1
        continue
      }
      if (distance === 0 || distance > edits) continue
      const term = index.term(rank)
      const rows = (starts[rank + 1] ?? 0) - (starts[rank] ?? 0)
      const known = found.get(term)
      found.set(term, {
        distance: Math.min(distance, known?.distance ?? distance),
        rows: rows + (known?.rows ?? 0),
      })
    }
  }
  return [...found]
    .map(([term, { distance, rows }]) => ({ term, distance, rows }))
    .sort(
      (a, b) =>
        a.distance - b.distance || b.rows - a.rows || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0),
    )
    .slice(0, limit)
}

/**
 * The first rank in [from, to) whose term does not start with text[prefixStart, prefixStart + prefixLength),
 * given that the terms before it in that range all do (they are sorted): a binary search.
 */
function endOfPrefix(
  text: TermText,
  offsets: Uint32Array,
  from: number,
  to: number,
  prefixStart: number,
  prefixLength: number,
): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const start = offsets[mid] ?? 0
    let shares = (offsets[mid + 1] ?? 0) - start >= prefixLength
    for (let k = 0; shares && k < prefixLength; k++) shares = text[start + k] === text[prefixStart + k]
    if (shares) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Reads one name field of the row in a slot (the snapshot's, or a test fake's), to spell a suggestion. */
export type NameSpelling = (field: NameField, slot: number) => string | undefined

/**
 * "Did you mean" for a search text: the word of the text that finds the fewest employees by name (and at most
 * NEAR_MISS_FEW_MATCHES: a word that finds many people is no near-miss), replaced in turn by each of the closest
 * saved names, spelled as the data spells them. Words of digits, e-mail addresses and words under three letters
 * are never near-missed (numbers and addresses are identifiers, found whole or not at all). Empty when no word
 * qualifies or no name is close.
 */
export function nameSuggestions(
  text: string,
  names: readonly NameTerms[],
  spell: NameSpelling,
): NameSuggestion[] {
  const raw = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '')
  let target: { position: number; folded: string; found: number } | undefined
  raw.forEach((word, position) => {
    const folded = parseSearchText(word)[0]?.folded ?? ''
    if (folded.length < 3 || /[0-9]/.test(folded) || word.includes('@')) return
    const found = names.reduce((sum, name) => sum + name.index.estimate(folded), 0)
    if (found <= NEAR_MISS_FEW_MATCHES && (target === undefined || found < target.found)) {
      target = { position, folded, found }
    }
  })
  if (target === undefined) return []
  const chosen = target
  const near = nearTerms(
    chosen.folded,
    names.map((name) => name.index),
    NEAR_MISS_MAX_SUGGESTIONS,
  )
  return near.map(({ term }) => {
    const name = spelledName(term, names, spell)
    const words = raw.slice()
    words[chosen.position] = name
    return { text: words.join(' '), name, employees: employeesWith(term, names) }
  })
}

/** Employees holding `term` in any of the name indexes, each counted once. */
function employeesWith(term: string, names: readonly NameTerms[]): number {
  const lists = names.map((name) => name.index.slotsOf(term)).filter((slots) => slots.length > 0)
  if (lists.length === 1) return lists[0]?.length ?? 0
  const slots = new Set<number>()
  for (const list of lists) for (let i = 0; i < list.length; i++) slots.add(list[i] ?? 0)
  return slots.size
}

/**
 * The term as the data spells it: the word (or the part of a joined word, "Smith" of "Smith-Jones") of the first
 * employee's name whose search form is the term; the term itself when none is (never for a term from the index).
 */
function spelledName(term: string, names: readonly NameTerms[], spell: NameSpelling): string {
  for (const { field, index } of names) {
    const slot = index.slotsOf(term)[0]
    if (slot === undefined) continue
    const value = spell(field, slot) ?? ''
    for (const word of value.split(/\s+/)) {
      if (foldSearchWord(word) === term) return word
      for (const part of word.split(/[^\p{L}\p{N}]+/u))
        if (part !== '' && foldSearchWord(part) === term) return part
    }
  }
  return term
}
