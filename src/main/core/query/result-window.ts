import type { SortOrder } from './sort-order'

/**
 * Picks the rows at [offset, offset + limit) of the selected rows in sort order. Two strategies, chosen by how
 * many rows are selected:
 * - few: key just those rows by (rank, default position) packed into one float, pick the offset + limit
 *   smallest keys in linear time and sort only those (a native typed-array sort);
 * - many: walk the precomputed order and keep selected rows, stopping as soon as the window is full, which
 *   for a broad result is after offset + limit rows rather than after sorting all of them.
 */
export interface WindowRequest {
  readonly order: SortOrder
  readonly descending: boolean
  readonly selected: Uint8Array
  readonly slots: Uint32Array
  readonly total: number
  readonly offset: number
  readonly limit: number
  /** Slot → position in the default order (the tie-break). */
  readonly defaultPosition: Uint32Array
  /** Default-order position → slot. */
  readonly defaultOrder: Uint32Array
  /** Selected slots listed before all others (exact identifier matches), in slot order; few. */
  readonly pinned?: Uint32Array
}

/** Below this share of all rows, sorting the selection beats walking the whole order. */
const SORT_SELECTION_SHARE = 1 / 16

export function windowSlots(request: WindowRequest): number[] {
  const { total, offset, limit } = request
  if (limit <= 0 || offset >= total) return []
  const pinned = request.pinned
  if (pinned !== undefined && pinned.length > 0) {
    // The pinned rows in sort order, then the window's remainder from the other rows.
    const head = sortSelection(
      { ...request, slots: pinned, total: pinned.length },
      Math.min(offset, pinned.length),
      Math.min(offset + limit, pinned.length),
    )
    const rest = withoutPinned(request, pinned)
    const restOffset = Math.max(0, offset - pinned.length)
    return [...head, ...windowSlots({ ...rest, offset: restOffset, limit: limit - head.length })]
  }
  const n = request.order.rank.length
  if (total <= n * SORT_SELECTION_SHARE) {
    return sortSelection(request, offset, Math.min(offset + limit, total))
  }
  return walkOrder(request, offset, Math.min(limit, total - offset))
}

/** Every selected slot in sort order (exports), pinned rows first. */
export function allSlotsInOrder(request: Omit<WindowRequest, 'offset' | 'limit'>): Uint32Array {
  return Uint32Array.from(windowSlots({ ...request, offset: 0, limit: request.total }))
}

/** The request for the selected rows other than the pinned ones (a copy: the caller's arrays stay as they are). */
function withoutPinned(request: WindowRequest, pinned: Uint32Array): WindowRequest {
  const selected = request.selected.slice()
  for (const slot of pinned) selected[slot] = 0
  const slots = new Uint32Array(request.total - pinned.length)
  let kept = 0
  for (let i = 0; i < request.total; i++) {
    const slot = request.slots[i] ?? 0
    if (selected[slot] === 1) slots[kept++] = slot
  }
  return { ...request, selected, slots, total: kept, pinned: undefined }
}

/** The selected rows at [from, to) in sort order (to <= total). */
function sortSelection(request: WindowRequest, from: number, to: number): number[] {
  const { order, descending, slots, total, defaultPosition, defaultOrder } = request
  if (to <= from) return []
  const n = order.rank.length
  const keys = new Float64Array(total)
  for (let i = 0; i < total; i++) {
    const slot = slots[i] ?? 0
    const rank = order.rank[slot] ?? 0
    const group = descending && rank !== order.nullRank ? order.nullRank - 1 - rank : rank
    keys[i] = group * n + (defaultPosition[slot] ?? 0)
  }
  // A first page of a broad selection needs its smallest keys in order, not all of them.
  const head = to * 2 < total && selectSmallest(keys, to) ? keys.subarray(0, to) : keys
  head.sort()
  const result = new Array<number>(to - from)
  for (let i = from; i < to; i++) result[i - from] = defaultOrder[(head[i] ?? 0) % n] ?? 0
  return result
}

/**
 * Rearranges `keys` so that keys[0 .. k) are its k smallest, in no particular order (quickselect: linear on
 * average). Gives up, returning false, after as many rounds as a bad run of pivots would need to turn quadratic;
 * the caller then sorts everything.
 */
function selectSmallest(keys: Float64Array, k: number): boolean {
  const target = k - 1
  let lo = 0
  let hi = keys.length - 1
  let rounds = 2 * Math.ceil(Math.log2(keys.length + 1)) + 8
  while (hi > lo) {
    if (rounds-- === 0) return false
    const a = keys[lo] ?? 0
    const b = keys[(lo + hi) >>> 1] ?? 0
    const c = keys[hi] ?? 0
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b
    let i = lo
    let j = hi
    while (i <= j) {
      while ((keys[i] ?? 0) < pivot) i++
      while ((keys[j] ?? 0) > pivot) j--
      if (i <= j) {
        const swap = keys[i] ?? 0
        keys[i] = keys[j] ?? 0
        keys[j] = swap
        i++
        j--
      }
    }
    // Now keys[lo .. j] <= pivot <= keys[i .. hi], and everything between equals the pivot.
    if (target <= j) hi = j
    else if (target >= i) lo = i
    else return true
  }
  return true
}

function walkOrder(request: WindowRequest, offset: number, wanted: number): number[] {
  const { order, descending, selected } = request
  const result: number[] = []
  let skip = offset
  const visit = (rank: number): boolean => {
    const end = order.rankStart[rank + 1] ?? 0
    for (let i = order.rankStart[rank] ?? 0; i < end; i++) {
      const slot = order.order[i] ?? 0
      if (selected[slot] !== 1) continue
      if (skip > 0) {
        skip--
        continue
      }
      result.push(slot)
      if (result.length >= wanted) return true
    }
    return false
  }
  if (descending) {
    for (let rank = order.nullRank - 1; rank >= 0; rank--) if (visit(rank)) return result
  } else {
    for (let rank = 0; rank < order.nullRank; rank++) if (visit(rank)) return result
  }
  visit(order.nullRank)
  return result
}
