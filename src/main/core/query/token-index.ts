import { tokenize } from '../text/text-fold'
import { Dictionary } from './index-encoder'
import { sortByTerm } from './term-sort'

/** Terms handled between two yields of a stepwise build: tens of milliseconds of work. */
const STEP_TERMS = 100_000

/** Calls `visit` for every (slot, term code) entry of a column, in ascending slot order. */
type EntryWalk = (visit: (slot: number, term: number) => void) => void

/** Runs a stepwise build to its end at once. */
export function drain<T>(steps: Generator<void, T, undefined>): T {
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
  }
}

/**
 * The UTF-16 code units of a text, one byte each when every unit fits in one (latin1, as e-mail addresses and
 * numbers do), else two. A typed array rather than a string: it crosses from the core worker transferred, where a
 * string is copied and rebuilt on the receiving thread (an e-mail column's terms are 25–45 million characters,
 * 80–100 ms of deserialising on the thread that answers IPC), and it is compared unit by unit exactly as
 * `charCodeAt` compares a string.
 */
export type TermText = Uint8Array | Uint16Array

/** The code units of `text`, on an ArrayBuffer of their own (so they can be transferred). */
export function termTextOf(text: string): TermText {
  const wide = /[\u0100-\uffff]/.test(text)
  if (!wide) {
    // Native latin1 encoding; every code unit fits, so it is exact.
    const bytes = Buffer.from(text, 'latin1')
    return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? new Uint8Array(bytes.buffer)
      : new Uint8Array(bytes)
  }
  const units = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i)
  return units
}

/** The string of code units [from, to) of a term text. */
export function termTextSlice(text: TermText, from: number, to: number): string {
  let result = ''
  for (let i = from; i < to; i += 8192) {
    result += String.fromCharCode(...text.subarray(i, Math.min(to, i + 8192)))
  }
  return result
}

/** How a term text is stored with a snapshot (stored-index.ts): latin1 bytes, or UTF-16 little-endian. */
export type TermTextEncoding = 'latin1' | 'utf16le'

/** A term text as stored: its bytes are exactly what Buffer.from(theString, encoding) gives. */
export function termTextBytes(text: TermText): { encoding: TermTextEncoding; data: Buffer } {
  if (text instanceof Uint8Array) {
    return { encoding: 'latin1', data: Buffer.from(text.buffer, text.byteOffset, text.byteLength) }
  }
  const data = Buffer.alloc(text.length * 2)
  for (let i = 0; i < text.length; i++) data.writeUInt16LE(text[i] ?? 0, i * 2)
  return { encoding: 'utf16le', data }
}

/** A stored term text back as code units (a view of latin1 bytes), or null when the bytes cannot be one. */
export function termTextFromBytes(bytes: Uint8Array, encoding: TermTextEncoding): TermText | null {
  if (encoding === 'latin1') return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength % 2 !== 0) return null
  const units = new Uint16Array(bytes.byteLength / 2)
  for (let i = 0; i < units.length; i++) units[i] = (bytes[2 * i] ?? 0) | ((bytes[2 * i + 1] ?? 0) << 8)
  return units
}

/**
 * The parts of a TokenIndex. Terms are kept as one text (`text`, the sorted terms end to end, term i being
 * text[offsets[i], offsets[i + 1])) rather than an array: an identifier column has about one term per row, and a
 * million small strings would cost far more memory, and far longer to store and load, than one long text.
 */
export interface TokenIndexParts {
  readonly text: TermText
  readonly offsets: Uint32Array
  readonly starts: Uint32Array
  readonly postings: Uint32Array
}

/**
 * A prefix index over one column: the column's distinct tokens in sorted order, each with the ascending list of
 * row slots that hold it. All tokens sharing a prefix are adjacent, so a prefix is one binary search and a
 * contiguous run of posting lists, however common it is.
 */
export class TokenIndex {
  private constructor(
    private readonly text: TermText,
    private readonly offsets: Uint32Array,
    private readonly starts: Uint32Array,
    private readonly postings: Uint32Array,
  ) {}

  /** Builds from (slot, text) pairs given in ascending slot order (a column read from the snapshot). */
  static build(values: Iterable<readonly [number, string]>, count: number): TokenIndex {
    const dictionary = new Dictionary()
    const codes = new Uint32Array(count)
    for (const [slot, text] of values) codes[slot] = dictionary.code(text)
    return TokenIndex.fromCodes(codes, dictionary.values)
  }

  /**
   * Builds the word-token index of a dictionary-encoded column: `codes[slot]` indexes `values` (0 = no value).
   * Each distinct value is tokenised once.
   */
  static fromCodes(codes: Uint32Array, values: readonly string[]): TokenIndex {
    const terms = new Dictionary()
    // Value v's terms are termsOfValue[valueStart[v] .. valueStart[v + 1]): flat arrays, not an array per value.
    const valueStart = new Uint32Array(values.length + 1)
    const termsOfValue: number[] = []
    for (let code = 1; code < values.length; code++) {
      valueStart[code] = termsOfValue.length
      for (const token of tokenize(values[code] ?? '')) termsOfValue.push(terms.code(token))
    }
    valueStart[values.length] = termsOfValue.length
    const entries: EntryWalk = (visit) => {
      for (let slot = 0; slot < codes.length; slot++) {
        const code = codes[slot] ?? 0
        const end = valueStart[code + 1] ?? 0
        for (let i = valueStart[code] ?? 0; i < end; i++) {
          const term = termsOfValue[i] ?? 0
          if (term !== 0) visit(slot, term)
        }
      }
    }
    return drain(TokenIndex.assemble(terms, entries))
  }

  /**
   * Builds from one term per slot, as a sync collects an identifier column page by page: row slots[i] holds
   * terms[i] (slots ascending, terms non-empty). The entries are sorted by term (term-sort.ts) and read off in
   * that order, so there is no dictionary to fill and no look-up from a sorted term back to its rows. Yields
   * between chunks of the read, so a caller can let the event loop run; `drain` runs it at once; the sort is one
   * step (15–30 ms for 100,000 e-mail addresses).
   */
  static *fromSlotTerms(
    slots: Uint32Array,
    terms: readonly string[],
  ): Generator<void, TokenIndex, undefined> {
    const order = new Uint32Array(terms.length)
    for (let i = 0; i < order.length; i++) order[i] = i
    sortByTerm(terms, order)
    yield
    const names: string[] = []
    // Sized for all-distinct terms; cut to the distinct count at the end.
    const offsets = new Uint32Array(terms.length + 1)
    const starts = new Uint32Array(terms.length + 1)
    const postings = new Uint32Array(terms.length)
    let previous: string | undefined
    let runStart = 0
    for (let i = 0; i < order.length; i++) {
      const entry = order[i] ?? 0
      const term = terms[entry] ?? ''
      if (term !== previous) {
        // The sort is not stable: a repeated term's rows are put back in slot order, as postings must be.
        if (i - runStart > 1) postings.subarray(runStart, i).sort()
        const rank = names.length
        names.push(term)
        starts[rank] = i
        offsets[rank + 1] = (offsets[rank] ?? 0) + term.length
        previous = term
        runStart = i
      }
      postings[i] = slots[entry] ?? 0
      if (i % STEP_TERMS === STEP_TERMS - 1) yield
    }
    if (order.length - runStart > 1) postings.subarray(runStart).sort()
    starts[names.length] = order.length
    const text = termTextOf(names.join(''))
    yield
    return new TokenIndex(
      text,
      offsets.slice(0, names.length + 1),
      starts.slice(0, names.length + 1),
      postings,
    )
  }

  /**
   * Lays out the index from (slot, term code) entries given in ascending slot order (`entries` walks them, and
   * is called three times): the terms any entry uses, sorted; then one counting sort by term rank, which leaves
   * each posting list ascending by slot. Yields between steps; the one native sort of the terms is a single step
   * (word terms: names have thousands of distinct words where an identifier column has one term per row).
   */
  private static *assemble(terms: Dictionary, entries: EntryWalk): Generator<void, TokenIndex, undefined> {
    const used = new Uint8Array(terms.values.length)
    entries((_, term) => {
      used[term] = 1
    })
    let usedCount = 0
    for (let code = 0; code < used.length; code++) usedCount += used[code] ?? 0
    const byTerm = new Uint32Array(usedCount)
    for (let code = 0, next = 0; code < used.length; code++) if (used[code] === 1) byTerm[next++] = code
    yield
    // The codes in their terms' UTF-16 code unit order, the order prefix ranges need: a rank is then the place of
    // a code, with no look-up from a sorted term back to its code.
    sortByTerm(terms.values, byTerm)
    yield
    const names = new Array<string>(usedCount)
    const rankOfTerm = new Uint32Array(terms.values.length)
    const offsets = new Uint32Array(usedCount + 1)
    for (let rank = 0; rank < usedCount; rank++) {
      const code = byTerm[rank] ?? 0
      const name = terms.values[code] ?? ''
      names[rank] = name
      rankOfTerm[code] = rank
      offsets[rank + 1] = (offsets[rank] ?? 0) + name.length
      if (rank % STEP_TERMS === STEP_TERMS - 1) yield
    }
    const starts = new Uint32Array(names.length + 1)
    entries((_, term) => {
      const rank = rankOfTerm[term] ?? 0
      starts[rank + 1] = (starts[rank + 1] ?? 0) + 1
    })
    for (let r = 0; r < names.length; r++) starts[r + 1] = (starts[r + 1] ?? 0) + (starts[r] ?? 0)
    yield
    const cursor = starts.slice()
    const postings = new Uint32Array(starts[names.length] ?? 0)
    entries((slot, term) => {
      const rank = rankOfTerm[term] ?? 0
      postings[cursor[rank] ?? 0] = slot
      cursor[rank] = (cursor[rank] ?? 0) + 1
    })
    yield
    const text = termTextOf(names.join(''))
    yield
    return new TokenIndex(text, offsets, starts, postings)
  }

  /** The index as plain data, for storing with a snapshot. */
  toParts(): TokenIndexParts {
    return { text: this.text, offsets: this.offsets, starts: this.starts, postings: this.postings }
  }

  /**
   * An index from stored parts, or null when they do not describe one (a damaged or foreign blob). 'trusted'
   * parts, built or already checked by this process's own code (the core worker's), skip the walk over every
   * posting, which at a million rows would hold the thread that adopts them.
   */
  static fromParts(
    parts: TokenIndexParts,
    count: number,
    source: 'stored' | 'trusted' = 'stored',
  ): TokenIndex | null {
    const terms = parts.offsets.length - 1
    if (terms < 0 || parts.starts.length !== terms + 1) return null
    if ((parts.offsets[terms] ?? 0) !== parts.text.length) return null
    if ((parts.starts[terms] ?? 0) !== parts.postings.length) return null
    if (source === 'stored') {
      const postings = parts.postings
      for (let i = 0; i < postings.length; i++) if ((postings[i] ?? 0) >= count) return null
    }
    return new TokenIndex(parts.text, parts.offsets, parts.starts, parts.postings)
  }

  get termCount(): number {
    return this.offsets.length - 1
  }

  /** The i-th term in sorted order (tests and diagnostics). */
  term(i: number): string {
    return termTextSlice(this.text, this.offsets[i] ?? 0, this.offsets[i + 1] ?? 0)
  }

  /**
   * For every row with a token starting with `prefix`: if mark[slot] === from, set it to from + 1. Calling this
   * once per search word, with from = the word's index, leaves mark[slot] === words only where every word
   * matched, in any order; a row matching one word twice (or through two indexes) is counted once.
   */
  markPrefix(prefix: string, mark: Uint8Array, from: number): void {
    const [lo, hi] = this.range(prefix)
    if (lo >= hi) return
    const to = from + 1
    const end = this.starts[hi] ?? 0
    for (let i = this.starts[lo] ?? 0; i < end; i++) {
      const slot = this.postings[i] ?? 0
      if (mark[slot] === from) mark[slot] = to
    }
  }

  /** The rows holding exactly the token `term`, ascending. */
  slotsOf(term: string): Uint32Array {
    const rank = this.exact(term)
    if (rank < 0) return new Uint32Array(0)
    return this.postings.subarray(this.starts[rank] ?? 0, this.starts[rank + 1] ?? 0)
  }

  /** Rows a prefix would match, counted with repeats; cheap, used to pick the rarest word first. */
  estimate(prefix: string): number {
    const [lo, hi] = this.range(prefix)
    return lo >= hi ? 0 : (this.starts[hi] ?? 0) - (this.starts[lo] ?? 0)
  }

  /** The rank of the term equal to `term`, or -1: the shortest term of its prefix range, if it is that long. */
  private exact(term: string): number {
    const [lo, hi] = this.range(term)
    if (lo >= hi) return -1
    return (this.offsets[lo + 1] ?? 0) - (this.offsets[lo] ?? 0) === term.length ? lo : -1
  }

  /** Terms [lo, hi) start with `prefix`: two binary searches over the sorted terms. */
  private range(prefix: string): [number, number] {
    const n = this.termCount
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compareToPrefix(mid, prefix) < 0) lo = mid + 1
      else hi = mid
    }
    const first = lo
    hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compareToPrefix(mid, prefix) <= 0) lo = mid + 1
      else hi = mid
    }
    return [first, lo]
  }

  /** Term i against a prefix: negative when it sorts before every term with that prefix, 0 when it has it. */
  private compareToPrefix(i: number, prefix: string): number {
    const start = this.offsets[i] ?? 0
    const length = (this.offsets[i + 1] ?? 0) - start
    const shared = Math.min(length, prefix.length)
    const text = this.text
    for (let k = 0; k < shared; k++) {
      const difference = (text[start + k] ?? 0) - prefix.charCodeAt(k)
      if (difference !== 0) return difference
    }
    return length < prefix.length ? -1 : 0
  }
}
