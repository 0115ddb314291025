import { describe, expect, it } from 'vitest'
import type { StoredValue } from '../../../../../src/main/core/snapshot/snapshot-reader'
import { columnTokenIndex } from '../../../../../src/main/core/query/column-values'
import { isMostlyDistinct } from '../../../../../src/main/core/query/distinct-sample'
import { TokenIndex } from '../../../../../src/main/core/query/token-index'
import { createRng } from '../../../../../src/main/sandbox/random'

/** The index through the map of distinct values, which every column took before (TokenIndex.build). */
function throughTheMap(values: readonly StoredValue[]) {
  const pairs: Array<readonly [number, string]> = []
  values.forEach((value, slot) => {
    if (value !== null && value !== '') pairs.push([slot, String(value)])
  })
  return TokenIndex.build(pairs, values.length).toParts()
}

describe('columnTokenIndex', () => {
  it('builds the same index for a column of distinct values as through the map, and says which it took', () => {
    const random = createRng(5)
    const distinct: StoredValue[] = Array.from({ length: 20_000 }, (_, slot) =>
      slot % 97 === 0 ? null : slot % 89 === 0 ? 4000 + slot : `Zoë.O'Brien-${slot}@Example.org`,
    )
    // A few repeats, fewer than the sample would call a repeated column.
    distinct[5] = distinct[7] ?? null
    const repeated: StoredValue[] = Array.from(
      { length: 20_000 },
      () => `Dept ${Math.floor(random() * 30)} – Økonomi`,
    )
    const textOf = (values: readonly StoredValue[]) => (slot: number) => {
      const value = values[slot]
      return value === null || value === undefined || value === '' ? undefined : String(value)
    }
    expect(isMostlyDistinct(distinct.length, textOf(distinct), 8192)).toBe(true)
    expect(isMostlyDistinct(repeated.length, textOf(repeated), 8192)).toBe(false)
    for (const values of [distinct, repeated]) {
      const built = columnTokenIndex(values).toParts()
      const expected = throughTheMap(values)
      expect(built.text).toEqual(expected.text)
      expect([...built.offsets]).toEqual([...expected.offsets])
      expect([...built.starts]).toEqual([...expected.starts])
      expect([...built.postings]).toEqual([...expected.postings])
    }
  })
})
