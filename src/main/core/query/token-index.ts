import { tokenize } from '../cache/text-fold'
import { Dictionary } from './index-encoder'

export interface TokenIndexParts {
  readonly terms: readonly string[]
  readonly starts: Uint32Array
  readonly postings: Uint32Array
}

/**
 * A prefix index over one text column: the column's distinct folded tokens in sorted order, each with the
 * ascending list of row slots that contain it. All tokens sharing a prefix are adjacent, so a prefix is one
 * binary search and a contiguous run of posting lists, however common it is.
 */
export class TokenIndex {
  private constructor(
    private readonly terms: readonly string[],
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
   * Builds from a dictionary-encoded column: `codes[slot]` indexes `values` (0 = no value). Each distinct value
   * is tokenised once; one counting sort by term rank lays out the postings, already ascending by slot.
   */
  static fromCodes(codes: Uint32Array, values: readonly string[]): TokenIndex {
    const termIds = new Map<string, number>()
    const names: string[] = []
    const termsOfValue: number[][] = values.map((value, code) =>
      code === 0
        ? []
        : tokenize(value).map((token) => {
            let id = termIds.get(token)
            if (id === undefined) {
              id = names.length
              names.push(token)
              termIds.set(token, id)
            }
            return id
          }),
    )
    // The default sort compares UTF-16 code units, exactly the order prefix ranges need, and runs natively.
    const terms = names.slice().sort()
    const rankOfName = new Map<string, number>()
    terms.forEach((term, rank) => rankOfName.set(term, rank))
    const rankedTerms = termsOfValue.map((ids) => ids.map((id) => rankOfName.get(names[id] ?? '') ?? 0))
    const starts = new Uint32Array(terms.length + 1)
    for (let slot = 0; slot < codes.length; slot++) {
      for (const rank of rankedTerms[codes[slot] ?? 0] ?? []) starts[rank + 1] = (starts[rank + 1] ?? 0) + 1
    }
    for (let r = 0; r < terms.length; r++) starts[r + 1] = (starts[r + 1] ?? 0) + (starts[r] ?? 0)
    const cursor = starts.slice()
    const postings = new Uint32Array(starts[terms.length] ?? 0)
    for (let slot = 0; slot < codes.length; slot++) {
      for (const rank of rankedTerms[codes[slot] ?? 0] ?? []) {
        postings[cursor[rank] ?? 0] = slot
        cursor[rank] = (cursor[rank] ?? 0) + 1
      }
    }
    return new TokenIndex(terms, starts, postings)
  }

  /** The index as plain data, for storing with a snapshot. */
  toParts(): TokenIndexParts {
    return { terms: this.terms, starts: this.starts, postings: this.postings }
  }

  static fromParts(parts: TokenIndexParts): TokenIndex {
    return new TokenIndex(parts.terms, parts.starts, parts.postings)
  }

  get termCount(): number {
    return this.terms.length
  }

  /**
   * For every row with a token starting with `prefix`: if mark[slot] === from, set it to from + 1. Calling this
   * once per search word, with from = the word's index, leaves mark[slot] === words only where every word
   * matched, in any order; a row matching one word twice is counted once.
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

  /** Rows a prefix would match, counted with repeats; cheap, used to pick the rarest word first. */
  estimate(prefix: string): number {
    const [lo, hi] = this.range(prefix)
    return lo >= hi ? 0 : (this.starts[hi] ?? 0) - (this.starts[lo] ?? 0)
  }

  private range(prefix: string): [number, number] {
    const terms = this.terms
    let lo = 0
    let hi = terms.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((terms[mid] ?? '') < prefix) lo = mid + 1
      else hi = mid
    }
    const first = lo
    hi = terms.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const term = terms[mid] ?? ''
      if (term.startsWith(prefix) || term < prefix) lo = mid + 1
      else hi = mid
    }
    return [first, lo]
  }
}
