import { hasFixedRole, identifierRole, identifierShape, identifierToken, leadingZeros } from './column-role'
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

/** One identifier column in slot order: its role, and its identifier tokens (column-role.ts) as codes into `terms`. */
export interface EncodedIdentifier {
  readonly key: string
  readonly role: DiscoveredIdentifierRole
  /** Token code per slot (0 = no value). */
  readonly codes: Uint32Array
  readonly terms: Dictionary
  /** The most leading zeros of any number in the column (0 for e-mail addresses). */
  readonly maxLeadingZeros: number
}

/** Rows in slot order, columns as dictionary codes (0 = no value). */
export interface EncodedRows {
  readonly ids: Float64Array
  /** The discovered columns that column-role.ts judges identifiers, in the order they were first seen. */
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
 * A discovered column whose values, so far, all have one identifier shape, with each row's identifier token
 * encoded as the row arrives: de-duplicating a million values is much of the cost of indexing them, and during a
 * sync it overlaps the network, where at the end it would hold up the commit.
 */
interface Candidate {
  readonly key: string
  readonly shape: DiscoveredIdentifierRole
  /** Token code by snapshot id. */
  codes: Uint32Array
  readonly terms: Dictionary
}

/**
 * Measures every discovered column as a possible identifier while rows arrive (column-role.ts decides): a
 * column stays a candidate while all its values share one identifier shape, and its values are kept, encoded,
 * only while it does. A value of another shape, even in a row later replaced, rules the column out for the run.
 */
class IdentifierCandidates {
  private readonly candidates = new Map<string, Candidate>()
  /** Every key met so far that is not a candidate: ruled out, or a known field. One look-up per key and row. */
  private readonly passed = new Set<string>()

  set(id: number, row: Readonly<Record<string, unknown>>): void {
    for (const key in row) {
      if (this.passed.has(key) || this.candidates.has(key)) continue
      const shape = hasFixedRole(key) ? null : identifierShape(row[key])
      if (shape === null) this.passed.add(key)
      else if (shape !== 'absent')
        this.candidates.set(key, { key, shape, codes: new Uint32Array(0), terms: new Dictionary() })
    }
    for (const candidate of this.candidates.values()) {
      const value = row[candidate.key]
      const shape = identifierShape(value)
      if (shape !== 'absent' && shape !== candidate.shape) {
        this.candidates.delete(candidate.key)
        this.passed.add(candidate.key)
        continue
      }
      if (id >= candidate.codes.length) {
        let size = Math.max(1024, candidate.codes.length)
        while (size <= id) size *= 2
        candidate.codes = resize(candidate.codes, new Uint32Array(size))
      }
      candidate.codes[id] =
        shape === 'absent' ? 0 : candidate.terms.code(identifierToken(candidate.shape, String(value)))
    }
  }

  /** The candidates that are identifiers, over the rows present (`ids`, in slot order). */
  encode(ids: Float64Array): EncodedIdentifier[] {
    const encoded: EncodedIdentifier[] = []
    for (const candidate of this.candidates.values()) {
      const codes = new Uint32Array(ids.length)
      const seen = new Uint8Array(candidate.terms.values.length)
      let present = 0
      let distinct = 0
      let maxLeadingZeros = 0
      ids.forEach((id, slot) => {
        const code = candidate.codes[id] ?? 0
        codes[slot] = code
        if (code === 0) return
        present++
        if (seen[code] === 1) return
        seen[code] = 1
        distinct++
        if (candidate.shape === 'number') {
          maxLeadingZeros = Math.max(maxLeadingZeros, leadingZeros(candidate.terms.values[code] ?? ''))
        }
      })
      const role = identifierRole({ shape: candidate.shape, present, distinct })
      if (role !== null)
        encoded.push({ key: candidate.key, role, codes, terms: candidate.terms, maxLeadingZeros })
    }
    return encoded
  }
}
