/**
 * Collects what the search index needs from each row (names, status, pay cycle), dictionary-encoded as rows
 * arrive, in whatever order and however often a row is replaced. A sync feeds it page by page, so building the
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
  /** Bumped by every change, so an index built from an earlier state is known to be stale. */
  private changes = 0

  get version(): number {
    return this.changes
  }

  /** Stores (or replaces) the row with snapshot id `id` (a positive integer). */
  set(
    id: number,
    first: string | null,
    last: string | null,
    status: string | null,
    cycle: string | null,
  ): void {
    this.ensure(id)
    this.changes++
    this.present[id] = 1
    this.first[id] = this.firstValues.code(first)
    this.last[id] = this.lastValues.code(last)
    this.status[id] = this.statusValues.code(status)
    this.cycle[id] = this.cycleValues.code(cycle)
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

/** Rows in slot order, columns as dictionary codes (0 = no value). */
export interface EncodedRows {
  readonly ids: Float64Array
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
}

function resize<T extends Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from)
  return to
}
