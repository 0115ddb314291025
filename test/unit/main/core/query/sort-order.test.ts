import { describe, expect, it } from 'vitest'
import { foldText } from '../../../../../src/main/core/text/text-fold'
import { buildSortOrder, type SortValue } from '../../../../../src/main/core/query/sort-order'
import { createRng } from '../../../../../src/main/sandbox/random'

/**
 * A column's sort order, restated plainly: numbers first (by value, -0 and 0 equal), then texts by their folded
 * form in code unit order, then rows without a value; equal values share a dense rank and keep the tie order.
 */
function restated(values: readonly SortValue[], tieOrder: Uint32Array) {
  const key = (value: SortValue): [number, number | string] =>
    value === null || value === undefined
      ? [2, 0]
      : typeof value === 'string'
        ? [1, foldText(value)]
        : [0, Number(value) + 0]
  const compare = (a: [number, number | string], b: [number, number | string]) =>
    a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)
  const distinct = [...new Map(values.map((value) => [JSON.stringify(key(value)), key(value)])).values()]
    .filter(([group]) => group !== 2)
    .sort(compare)
  const rankOf = new Map(distinct.map((entry, index) => [JSON.stringify(entry), index]))
  const rank = values.map((value) => rankOf.get(JSON.stringify(key(value))) ?? distinct.length)
  const position = new Map(Array.from(tieOrder, (slot, index) => [slot, index]))
  const order = [...tieOrder].sort(
    (a, b) => (rank[a] ?? 0) - (rank[b] ?? 0) || position.get(a)! - position.get(b)!,
  )
  return { rank, order, nullRank: distinct.length }
}

/** Nulls, numbers (bigint and -0 among them), accented and cased words folding alike, and e-mail-like texts. */
function column(seed: number, rows: number, distinctTexts: number, wordShare = 0.08): SortValue[] {
  const random = createRng(seed)
  const words = [
    'Müller',
    'muller',
    'MUELLER',
    'Ørsted',
    'orsted',
    'Zoë',
    'zoe',
    'Ángel',
    'ångström',
    'éclair',
  ]
  return Array.from({ length: rows }, (_, slot) => {
    const pick = random()
    if (pick < 0.05) return null
    if (pick < 0.08) return undefined
    if (pick < 0.15) return Math.floor(random() * 50) - 25
    if (pick < 0.17) return pick < 0.16 ? -0 : BigInt(Math.floor(random() * 40))
    if (pick < 0.17 + wordShare) return words[Math.floor(random() * words.length)] ?? ''
    const n = distinctTexts === 0 ? slot : Math.floor(random() * distinctTexts)
    return `${random() < 0.5 ? 'Name' : 'name'}.${n}@Example.org`
  })
}

describe('buildSortOrder', () => {
  it('ranks and orders as the restatement does, for mostly distinct and for repeated columns', () => {
    // The first takes the radix-sorted path (almost no repeats), the next two the map (sort-order.ts's sample).
    const cases = [
      column(1, 3_000, 0, 0.002),
      column(2, 3_000, 40),
      column(3, 3_000, 2_000),
      column(4, 300, 0),
      [null, undefined, null],
      [3, 1, 2, -0, 0, 2n],
      Array.from({ length: 2_000 }, (_, i) => `user.${i}@corp.example`),
    ]
    for (const values of cases) {
      const random = createRng(values.length)
      const tieOrder = Uint32Array.from(values.keys()).sort(() => random() - 0.5)
      const built = buildSortOrder(values, tieOrder)
      const expected = restated(values, tieOrder)
      expect(built.nullRank).toBe(expected.nullRank)
      expect([...built.rank]).toEqual(expected.rank)
      expect([...built.order]).toEqual(expected.order)
    }
  })
})
