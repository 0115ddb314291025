import { randomBytes } from 'node:crypto'

/** murmur3's finaliser: a bijection on 32-bit integers, so distinct inputs can never collide. */
export function mix32(value: number): number {
  let x = value >>> 0
  x ^= x >>> 16
  x = Math.imul(x, 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x, 0xc2b2ae35)
  x ^= x >>> 16
  return x >>> 0
}

/**
 * A pseudo-random 32-bit value for (seed, salt, index). Each row field uses its own salt so fields are
 * independent, and any row can be generated from its index alone. Bijective in `index`.
 */
export function hash32(seed: number, salt: number, index: number): number {
  const key = mix32((seed ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0)
  return mix32((key ^ index) >>> 0)
}

/** mulberry32: tiny, fast and good enough for reproducible fault and churn sequences. */
export function createRng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Unguessable identifiers for tokens, codes and consent requests; never derived from the seed. */
export function opaqueToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

export interface WeightedTable<T> {
  readonly items: readonly T[]
  readonly cumulative: Float64Array
  readonly total: number
}

export function weighted<T>(entries: ReadonlyArray<readonly [T, number]>): WeightedTable<T> {
  const cumulative = new Float64Array(entries.length)
  let total = 0
  entries.forEach(([, weight], i) => {
    total += weight
    cumulative[i] = total
  })
  return { items: entries.map(([item]) => item), cumulative, total }
}

/** Maps a 32-bit hash onto a weighted table. */
export function pickWeighted<T>(table: WeightedTable<T>, hash: number): T {
  const target = (hash / 4294967296) * table.total
  let lo = 0
  let hi = table.items.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((table.cumulative[mid] ?? 0) > target) hi = mid
    else lo = mid + 1
  }
  const item = table.items[lo]
  if (item === undefined) throw new Error('weighted table is empty')
  return item
}

export function pick<T>(items: readonly T[], hash: number): T {
  const item = items[hash % items.length]
  if (item === undefined) throw new Error('cannot pick from an empty list')
  return item
}
