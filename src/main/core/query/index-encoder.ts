import {
  fitsIdentifierShape,
  hasFixedRole,
  identifierShape,
  identifierToken,
  leadingZeros,
} from './column-role'
import type { DiscoveredIdentifierRole } from './column-role'

/**
 * Collects what the search index needs from each row (names, status, pay cycle, and the values of columns that
 * may be identifiers), dictionary-encoded as rows arrive, in whatever order and however often a row is replaced. A sync feeds it page by page, so building the
 * index at the end is linear work over small integer arrays; the query engine feeds it from a snapshot scan
 * when a snapshot carries no stored index.
 *
 * Codes: 0 means "no value"; distinct values get 1, 2, ... in first-seen order.
 */
export class IndexEncoder {
  private present = new Uint8Array(1024)
  private first = new Uint32Array(1024)
  private last = new Uint32Array(1024)
  private status = new Uint32Array(1024)
  private cycle = new Uint32Array(1024)
  private readonly memberships: Array<[number, number]> = []
  readonly firstValues = new Dictionary()
  readonly lastValues = new Dictionary()
  readonly statusValues = new Dictionary()
  readonly cycleValues = new Dictionary()
  private readonly identifiers = new IdentifierCandidates()
  /** Bumped by every change, so an index built from an earlier state is known to be stale. */
  private changes = 0

  get version(): number {
    return this.changes
  }

  /**
   * Stores (or replaces) the row with snapshot id `id` (a positive integer); `row` is the whole row, whose other
   * fields are measured as possible identifier columns.
   */
  set(
    id: number,
    first: string | null,
    last: string | null,
    status: string | null,
    cycle: string | null,
    row?: Readonly<Record<string, unknown>>,
  ): void {
    this.ensure(id)
    this.changes++
    this.present[id] = 1
    this.first[id] = this.firstValues.code(first)
    this.last[id] = this.lastValues.code(last)
    this.status[id] = this.statusValues.code(status)
    this.cycle[id] = this.cycleValues.code(cycle)
    this.identifiers.set(id, row ?? {})
  }

  delete(id: number): void {
    this.changes++
    if (id < this.present.length) this.present[id] = 0
  }

  /** Pay-cycle membership learnt from a filtered list. */
  addMembership(id: number, cycle: string): void {
    this.changes++
    this.memberships.push([id, this.cycleValues.code(cycle)])
  }

  /** The rows in id order (slot = position), each column as codes. */
  encode(): EncodedRows {
    let count = 0
    for (let id = 0; id < this.present.length; id++) if (this.present[id] === 1) count++
    const ids = new Float64Array(count)
    const slotOfId = new Int32Array(this.present.length).fill(-1)
    const first = new Uint32Array(count)
    const last = new Uint32Array(count)
    const status = new Uint32Array(count)
    const cycle = new Uint32Array(count)
    let slot = 0
    for (let id = 0; id < this.present.length; id++) {
      if (this.present[id] !== 1) continue
      ids[slot] = id
      slotOfId[id] = slot
      first[slot] = this.first[id] ?? 0
      last[slot] = this.last[id] ?? 0
      status[slot] = this.status[id] ?? 0
      cycle[slot] = this.cycle[id] ?? 0
      slot++
    }
    const memberships: Array<[number, number]> = []
    for (const [id, code] of this.memberships) {
      const memberSlot = id < slotOfId.length ? (slotOfId[id] ?? -1) : -1
      if (memberSlot >= 0) memberships.push([memberSlot, code])
    }
    return {
      ids,
      identifiers: this.identifiers.encode(ids),
      first,
      last,
      status,
      cycle,
      memberships,
      firstValues: this.firstValues.values,
      lastValues: this.lastValues.values,
      statusValues: this.statusValues.values,
      cycleValues: this.cycleValues.values,
    }
  }

  private ensure(id: number): void {
    if (!Number.isSafeInteger(id) || id < 1) throw new RangeError('snapshot ids are positive integers')
    if (id < this.present.length) return
    let size = this.present.length
    while (size <= id) size *= 2
    this.present = resize(this.present, new Uint8Array(size))
    this.first = resize(this.first, new Uint32Array(size))
    this.last = resize(this.last, new Uint32Array(size))
    this.status = resize(this.status, new Uint32Array(size))
    this.cycle = resize(this.cycle, new Uint32Array(size))
  }
}

/**
 * A discovered column whose every value has one identifier shape, in slot order: row slots[i] holds the identifier
 * token terms[i] (column-role.ts). Whether it tells employees apart, and so is an identifier, is decided when its
 * index is built, which counts its distinct tokens (search-index.ts).
 */
export interface EncodedIdentifier {
  readonly key: string
  readonly shape: DiscoveredIdentifierRole
  /** The slots holding a value, ascending. */
  readonly slots: Uint32Array
  readonly terms: readonly string[]
  /** The most leading zeros of any number in the column (0 for e-mail addresses). */
  readonly maxLeadingZeros: number
}

/** Rows in slot order, columns as dictionary codes (0 = no value). */
export interface EncodedRows {
  readonly ids: Float64Array
  /** The discovered columns whose values all have one identifier shape, in the order they were first seen. */
  readonly identifiers: readonly EncodedIdentifier[]
  readonly first: Uint32Array
  readonly last: Uint32Array
  readonly status: Uint32Array
  readonly cycle: Uint32Array
  /** (slot, cycle code) pairs from the pay-cycle lists. */
  readonly memberships: ReadonlyArray<readonly [number, number]>
  readonly firstValues: readonly string[]
  readonly lastValues: readonly string[]
  readonly statusValues: readonly string[]
  readonly cycleValues: readonly string[]
}

/** Distinct strings → 1, 2, ...; values[0] is '' and stands for "no value". */
export class Dictionary {
  readonly values: string[] = ['']
  private readonly codes = new Map<string, number>()

  code(value: string | null): number {
    if (value === null || value === '') return 0
    let code = this.codes.get(value)
    if (code === undefined) {
      code = this.values.length
      this.values.push(value)
      this.codes.set(value, code)
    }
    return code
  }

  /** The code of a value already seen, or 0. */
  lookup(value: string): number {
    return this.codes.get(value) ?? 0
  }
}

function resize<T extends Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from)
  return to
}

/**
 * A discovered column whose values, so far, all have one identifier shape, with each row's identifier token kept
 * by snapshot id as the row arrives (folding overlaps the network during a sync). Tokens are kept as strings, not
 * dictionary codes: an identifier column has about one distinct token per row, so a dictionary's hash table cost
 * more than it saved, and the index sorts the tokens anyway (TokenIndex.fromSlotTerms).
 */
interface Candidate {
  readonly key: string
  readonly shape: DiscoveredIdentifierRole
  /** Token by snapshot id; '' where the row has no value (or there is no row). */
  readonly tokens: string[]
}

/**
 * Measures every discovered column as a possible identifier while rows arrive (column-role.ts decides): a
 * column stays a candidate while all its values share one identifier shape, and its values are kept, folded,
 * only while it does. A value of another shape, even in a row later replaced, rules the column out for the run.
 */
class IdentifierCandidates {
  /** Every key met so far: its candidate, or null when it is not one (ruled out, or a known field). */
  private readonly keys = new Map<string, Candidate | null>()
  private candidates: Candidate[] = []

  set(id: number, row: Readonly<Record<string, unknown>>): void {
    for (const key in row) {
      if (this.keys.has(key)) continue
      const shape = hasFixedRole(key) ? null : identifierShape(row[key])
      if (shape === null) this.keys.set(key, null)
      else if (shape !== 'absent') {
        const candidate: Candidate = { key, shape, tokens: [] }
        this.keys.set(key, candidate)
        this.candidates.push(candidate)
      }
    }
    let ruledOut = false
    for (const candidate of this.candidates) {
      const value = row[candidate.key]
      const fits = fitsIdentifierShape(candidate.shape, value)
      if (fits === false) {
        this.keys.set(candidate.key, null)
        ruledOut = true
        continue
      }
      const tokens = candidate.tokens
      // Grown one element at a time, so the array stays packed: pages arrive out of order, and writing far
      // past the end would leave holes that make V8 keep it as a slow dictionary.
      while (tokens.length <= id) tokens.push('')
      tokens[id] = fits === 'absent' ? '' : identifierToken(candidate.shape, value as string)
    }
    if (ruledOut) this.candidates = this.candidates.filter((c) => this.keys.get(c.key) === c)
  }

  /** The candidates over the rows present (`ids`, in slot order). */
  encode(ids: Float64Array): EncodedIdentifier[] {
    return this.candidates.map((candidate) => {
      const tokens = candidate.tokens
      let present = 0
      for (let slot = 0; slot < ids.length; slot++) if ((tokens[ids[slot] ?? 0] ?? '') !== '') present++
      const slots = new Uint32Array(present)
      const terms = new Array<string>(present)
      let maxLeadingZeros = 0
      let next = 0
      for (let slot = 0; slot < ids.length; slot++) {
        const token = tokens[ids[slot] ?? 0] ?? ''
        if (token === '') continue
        slots[next] = slot
        terms[next++] = token
        if (candidate.shape === 'number') maxLeadingZeros = Math.max(maxLeadingZeros, leadingZeros(token))
      }
      return { key: candidate.key, shape: candidate.shape, slots, terms, maxLeadingZeros }
    })
  }
}
