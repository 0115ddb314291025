import type { SnapshotReader } from '../snapshot/snapshot-reader'

/**
 * Every employee's lower-cased UUID (the snapshot's `uuid_key`) end to end in slot order, as one UTF-8 buffer
 * with a newline after each, so that "Search in: UUID" finds a part anywhere in any UUID (search-rules.ts,
 * UUID_MIN_PART) with native `Buffer.indexOf` passes rather than a walk of SQLite's UUID index: about 37 MB at a
 * million employees, searched in milliseconds where the index walk takes a third of a second
 * (bench/near-miss-bench.ts). A searched part is hexadecimal digits and hyphens, so it never spans a newline.
 */
/**
 * A snapshot's UUIDs as plain data, as they cross from the core worker (transferred, not copied): the keys of
 * employees in id order joined by newlines, as UTF-8 bytes with a newline after the last, and how many there are.
 */
export interface UuidPartsData {
  readonly text: Uint8Array
  readonly starts: Uint32Array
}

export class UuidParts {
  private constructor(
    private readonly text: Buffer,
    /** starts[slot]: the byte where slot's key begins; starts[count]: the end. */
    private readonly starts: Uint32Array,
  ) {}

  /** From each slot's key, in slot order (`keys[slot]`; an empty key for a slot without one). */
  static fromKeys(keys: readonly string[]): UuidParts {
    const starts = new Uint32Array(keys.length + 1)
    let bytes = 0
    for (let slot = 0; slot < keys.length; slot++) {
      starts[slot] = bytes
      bytes += Buffer.byteLength(keys[slot] ?? '', 'utf8') + 1
    }
    starts[keys.length] = bytes
    const text = Buffer.allocUnsafe(bytes)
    for (let slot = 0; slot < keys.length; slot++) {
      const at = starts[slot] ?? 0
      const end = at + text.write(keys[slot] ?? '', at, 'utf8')
      text[end] = 0x0a
    }
    return new UuidParts(text, starts)
  }

  /**
   * From every slot's key in slot order joined by newlines (`count` keys), or null when the text does not hold
   * exactly that many (a key with a newline in it): then fromKeys.
   */
  static fromJoined(joined: string, count: number): UuidParts | null {
    if (count === 0) return joined === '' ? UuidParts.fromKeys([]) : null
    const text = Buffer.from(`${joined}\n`, 'utf8')
    const starts = new Uint32Array(count + 1)
    let at = 0
    for (let slot = 0; slot < count; slot++) {
      starts[slot] = at
      const end = text.indexOf(0x0a, at)
      if (end < 0) return null
      at = end + 1
    }
    if (at !== text.length) return null
    starts[count] = at
    return new UuidParts(text, starts)
  }

  /**
   * Every employee's UUID key of a snapshot (one SQLite `group_concat`, in id order), or null when the text does
   * not split into one key per employee (a key with a newline in it): then keys are read row by row (fromKeys).
   */
  static read(reader: Pick<SnapshotReader, 'uuidKeysJoined'>): UuidParts | null {
    const joined = reader.uuidKeysJoined()
    return UuidParts.fromJoined(joined.text, joined.count)
  }

  /** As plain data, for moving to another thread (toData) and back (fromData: the data of toData). */
  toData(): UuidPartsData {
    // On an ArrayBuffer of its own, so it can be transferred (a small Buffer can sit in Node's shared pool).
    const text = this.text
    const own =
      text.byteOffset === 0 && text.byteLength === text.buffer.byteLength ? text : new Uint8Array(text)
    return { text: own, starts: this.starts }
  }

  static fromData(data: UuidPartsData): UuidParts | null {
    const count = data.starts.length - 1
    if (count < 0 || (data.starts[count] ?? 0) !== data.text.length) return null
    return new UuidParts(
      Buffer.from(data.text.buffer, data.text.byteOffset, data.text.byteLength),
      data.starts,
    )
  }

  get count(): number {
    return this.starts.length - 1
  }

  /** The slots whose key holds `part` (lower case, no newline), ascending, each once. */
  slotsContaining(part: string): number[] {
    const slots: number[] = []
    if (part === '') return slots
    const needle = Buffer.from(part, 'utf8')
    let from = 0
    for (;;) {
      const found = this.text.indexOf(needle, from)
      if (found < 0) return slots
      const slot = this.slotAt(found)
      slots.push(slot)
      // On to the next key: a key holding the part twice is one match.
      from = this.starts[slot + 1] ?? this.text.length
    }
  }

  /** The slot whose key (or newline) holds byte `offset`: the last start at or before it. */
  private slotAt(offset: number): number {
    const starts = this.starts
    let lo = 0
    let hi = starts.length - 2
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if ((starts[mid] ?? 0) <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}
