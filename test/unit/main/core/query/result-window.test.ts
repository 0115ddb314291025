import { describe, expect, it } from 'vitest'
import { allSlotsInOrder, windowSlots } from '../../../../../src/main/core/query/result-window'
import type { WindowRequest } from '../../../../../src/main/core/query/result-window'
import { orderByRank } from '../../../../../src/main/core/query/sort-order'
import { createRng } from '../../../../../src/main/sandbox/random'

/**
 * The window against a full sort of the selection: every strategy (sorting a few rows whole, picking the
 * smallest keys of a broad selection first, walking the order), pinned rows first, either direction.
 */

function shuffled(random: () => number, count: number): Uint32Array {
  const order = Uint32Array.from({ length: count }, (_, i) => i)
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const swap = order[i] ?? 0
    order[i] = order[j] ?? 0
    order[j] = swap
  }
  return order
}

function randomRequest(random: () => number, count: number, share: number): WindowRequest {
  const defaultOrder = shuffled(random, count)
  const defaultPosition = new Uint32Array(count)
  defaultOrder.forEach((slot, position) => (defaultPosition[slot] = position))
  // Few distinct values, so ties (kept in the default order) are common; some rows have none.
  const values = 1 + Math.floor(random() * 40)
  const rank = Uint32Array.from({ length: count }, () =>
    random() < 0.1 ? values : Math.floor(random() * values),
  )
  const selected = new Uint8Array(count)
  const slots: number[] = []
  for (let slot = 0; slot < count; slot++) {
    if (random() < share) {
      selected[slot] = 1
      slots.push(slot)
    }
  }
  const pinned = slots.filter(() => random() < 0.01)
  return {
    order: orderByRank(rank, values, defaultOrder),
    descending: random() < 0.5,
    selected,
    slots: Uint32Array.from(slots),
    total: slots.length,
    offset: random() < 0.5 ? 0 : Math.floor(random() * slots.length),
    limit: 1 + Math.floor(random() * 120),
    defaultPosition,
    defaultOrder,
    ...(random() < 0.5 ? { pinned: Uint32Array.from(pinned) } : {}),
  }
}

/** Sorts the whole selection: by value (reversed when descending, rows without one last), then default order. */
function expected(request: WindowRequest): number[] {
  const { order, descending, defaultPosition } = request
  const group = (slot: number) => {
    const rank = order.rank[slot] ?? 0
    return descending && rank !== order.nullRank ? order.nullRank - 1 - rank : rank
  }
  const bySort = (a: number, b: number) =>
    group(a) - group(b) || (defaultPosition[a] ?? 0) - (defaultPosition[b] ?? 0)
  const pinned = new Set(request.pinned ?? [])
  const all = Array.from(request.slots.subarray(0, request.total))
  const ordered = [
    ...all.filter((slot) => pinned.has(slot)).sort(bySort),
    ...all.filter((slot) => !pinned.has(slot)).sort(bySort),
  ]
  return ordered.slice(request.offset, request.offset + request.limit)
}

describe('windowSlots', () => {
  it('gives the rows a full sort of the selection would, whatever strategy it takes', () => {
    const random = createRng(17)
    // Shares below and above the point where walking the order replaces sorting the selection (1/16).
    for (const share of [0.002, 0.01, 0.03, 0.06, 0.2, 0.7]) {
      for (let i = 0; i < 40; i++) {
        const request = randomRequest(random, 3000, share)
        expect(windowSlots(request)).toEqual(expected(request))
      }
    }
  })

  it('lists every selected row in order for an export', () => {
    const random = createRng(19)
    for (const share of [0.01, 0.5]) {
      const request = randomRequest(random, 2000, share)
      expect(Array.from(allSlotsInOrder(request))).toEqual(
        expected({ ...request, offset: 0, limit: request.total }),
      )
    }
  })

  it('answers an empty window for a window past the end or of no rows', () => {
    const request = randomRequest(createRng(23), 500, 0.1)
    expect(windowSlots({ ...request, offset: request.total })).toEqual([])
    expect(windowSlots({ ...request, limit: 0 })).toEqual([])
  })
})
