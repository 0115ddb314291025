import type { EmployeeField, EmployeeGenerator, FieldValue } from './data'
import type { SortOrder } from './list-query'

/** Positions need 24 bits in a packed sort key; beyond that the comparator path is used. */
const POSITION_BITS = 2 ** 24
/** Columns with at most this many distinct values (names, statuses, departments) get the ranked path. */
const MAX_RANKED_VALUES = 1 << 16
/** Employee numbers are zero-padded to 7 digits; past that, text order and numeric order differ. */
const MAX_PADDED_EMPLOYEE_NUMBER = 9_999_999

/**
 * Code-unit order (what `<` does on strings), never locale-aware, so the order is identical on every
 * machine. Nulls sort first, numbers numerically.
 */
export function compareValues(a: FieldValue | undefined, b: FieldValue | undefined): number {
  if (a === b) return 0
  if (a === null || a === undefined) return -1
  if (b === null || b === undefined) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const x = String(a)
  const y = String(b)
  return x < y ? -1 : x > y ? 1 : 0
}

/**
 * Returns `ids` sorted by `field`. Stable: ties keep their order in `ids` (the default order) in both
 * directions, so paging through a sorted list never shuffles equal rows between requests.
 */
export function sortIds(
  ids: Int32Array,
  field: EmployeeField,
  order: SortOrder,
  generator: EmployeeGenerator,
): Int32Array {
  const positions =
    keyedPositions(ids, field, order, generator) ?? valuePositions(ids, field, order, generator)
  const sorted = new Int32Array(ids.length)
  for (let i = 0; i < positions.length; i++) sorted[i] = ids[positions[i] ?? 0] ?? 0
  return sorted
}

/**
 * An integer in [0, 2^53) whose numeric order equals the column's order, or null (sorts first) for a
 * missing value.
 */
type KeyOf = (id: number) => number | null

function integerKey(field: EmployeeField, ids: Int32Array, generator: EmployeeGenerator): KeyOf | null {
  switch (field) {
    case 'UUID':
      return (id) => generator.uuidKey(id)
    case 'managerUUID':
      return (id) => {
        const manager = generator.managerId(id)
        return manager === null ? null : generator.uuidKey(manager)
      }
    case 'email':
      return (id) => generator.emailOrderKey(id)
    case 'annualSalary':
      return (id) => generator.salaryCents(id)
    case 'hireDate':
      return (id) => generator.hireDay(id)
    case 'employeeNumber': {
      let largest = 0
      for (const id of ids) largest = Math.max(largest, id + 1)
      return largest <= MAX_PADDED_EMPLOYEE_NUMBER ? (id) => id + 1 : null
    }
    default:
      return null
  }
}

/**
 * High-cardinality columns with an order-preserving integer key: a stable radix sort, linear time and
 * no strings at all. Sorting a million UUIDs as text took over ten seconds and hundreds of megabytes.
 */
function keyedPositions(
  ids: Int32Array,
  field: EmployeeField,
  order: SortOrder,
  generator: EmployeeGenerator,
): Int32Array | null {
  const keyOf = integerKey(field, ids, generator)
  if (keyOf === null) return null
  const low = new Uint32Array(ids.length)
  const high = new Uint32Array(ids.length)
  let wide = false
  const nulls: number[] = []
  const present: number[] = []
  for (let i = 0; i < ids.length; i++) {
    const key = keyOf(ids[i] ?? 0)
    if (key === null) {
      nulls.push(i)
      continue
    }
    const upper = Math.floor(key / 2 ** 32)
    wide ||= upper !== 0
    // Inverting the key sorts descending while the radix sort stays stable on ties.
    low[i] = order === 'desc' ? ~key >>> 0 : key >>> 0
    high[i] = order === 'desc' ? ~upper >>> 0 : upper
    present.push(i)
  }
  let sorted = radixSort(Int32Array.from(present), low)
  if (wide) sorted = radixSort(sorted, high)
  const positions = new Int32Array(ids.length)
  // Nulls come first ascending and last descending, matching compareValues.
  positions.set(order === 'desc' ? sorted : nulls, 0)
  positions.set(order === 'desc' ? nulls : sorted, order === 'desc' ? sorted.length : nulls.length)
  return positions
}

/** Stable LSD radix sort of positions by a uint32 key, two 16-bit passes; stable, so passes compose. */
function radixSort(positions: Int32Array, keys: Uint32Array): Int32Array {
  let source: Int32Array = positions
  let target: Int32Array = new Int32Array(positions.length)
  const counts = new Uint32Array(65_537)
  for (const shift of [0, 16]) {
    counts.fill(0)
    // counts[d + 1] counts digit d; the running sum then makes counts[d] the first slot for digit d.
    for (const position of source) {
      const next = (((keys[position] ?? 0) >>> shift) & 0xffff) + 1
      counts[next] = (counts[next] ?? 0) + 1
    }
    for (let digit = 1; digit < counts.length; digit++) {
      counts[digit] = (counts[digit] ?? 0) + (counts[digit - 1] ?? 0)
    }
    for (const position of source) {
      const digit = ((keys[position] ?? 0) >>> shift) & 0xffff
      const slot = counts[digit] ?? 0
      target[slot] = position
      counts[digit] = slot + 1
    }
    ;[source, target] = [target, source]
  }
  return source
}

function valuePositions(
  ids: Int32Array,
  field: EmployeeField,
  order: SortOrder,
  generator: EmployeeGenerator,
): Int32Array {
  const values = new Array<FieldValue>(ids.length)
  for (let i = 0; i < ids.length; i++) values[i] = generator.value(field, ids[i] ?? 0)
  return rankedPositions(values, order) ?? comparedPositions(values, order === 'desc' ? -1 : 1)
}

/**
 * Few distinct values: rank them once, then sort numbers `rank * 2^24 + position` with the built-in
 * numeric sort. About ten times faster than a comparator on a million rows.
 */
function rankedPositions(values: FieldValue[], order: SortOrder): Int32Array | null {
  if (values.length >= POSITION_BITS) return null
  const ranks = new Map<FieldValue, number>()
  for (const value of values) {
    if (!ranks.has(value)) {
      if (ranks.size >= MAX_RANKED_VALUES) return null
      ranks.set(value, 0)
    }
  }
  const distinct = [...ranks.keys()].sort(compareValues)
  const top = distinct.length - 1
  distinct.forEach((value, rank) => ranks.set(value, order === 'desc' ? top - rank : rank))
  const keys = new Float64Array(values.length)
  for (let i = 0; i < values.length; i++) keys[i] = (ranks.get(values[i] ?? null) ?? 0) * POSITION_BITS + i
  keys.sort()
  const positions = new Int32Array(values.length)
  for (let i = 0; i < keys.length; i++) positions[i] = (keys[i] ?? 0) % POSITION_BITS
  return positions
}

function comparedPositions(values: FieldValue[], direction: 1 | -1): Int32Array {
  const positions = new Int32Array(values.length)
  for (let i = 0; i < positions.length; i++) positions[i] = i
  positions.sort((a, b) => compareValues(values[a], values[b]) * direction || a - b)
  return positions
}
