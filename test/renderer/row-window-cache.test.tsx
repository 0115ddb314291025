import { describe, expect, it } from 'vitest'
import type { QueryResult } from '../../src/shared/domain/query'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { RowWindowCache } from '../../src/renderer/src/data/row-window-cache'

const TOTAL = 100_000

function rowsAt(offset: number, limit: number): EmployeeRow[] {
  return Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, i) => ({
    UUID: `u${offset + i}`,
  }))
}

/** A loader whose answers the test releases by hand, recording every window asked for. */
function controlledLoader() {
  const asked: { offset: number; limit: number; resolve: () => void; reject: () => void }[] = []
  const load = (offset: number, limit: number): Promise<QueryResult> =>
    new Promise((resolve, reject) =>
      asked.push({
        offset,
        limit,
        resolve: () => resolve({ total: TOTAL, rows: rowsAt(offset, limit) }),
        reject: () => reject(new Error('gone')),
      }),
    )
  return { asked, load }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('RowWindowCache', () => {
  it('serves the first window at once and fetches only the pages a range touches, once each', async () => {
    const { asked, load } = controlledLoader()
    let changes = 0
    const cache = new RowWindowCache(load, () => (changes += 1), { total: TOTAL, rows: rowsAt(0, 100) })
    expect(cache.rowAt(99)).toEqual({ UUID: 'u99' })
    expect(cache.rowAt(100)).toBeUndefined()

    cache.ensure(50_010, 50_150)
    cache.ensure(50_020, 50_160)
    expect(asked.map(({ offset, limit }) => [offset, limit])).toEqual([
      [50_000, 100],
      [50_100, 100],
    ])
    asked.forEach((request) => request.resolve())
    await flush()
    expect(cache.rowAt(50_123)).toEqual({ UUID: 'u50123' })
    expect(changes).toBe(2)
  })

  it('keeps at most maxPages pages, dropping the ones farthest from view', async () => {
    const { asked, load } = controlledLoader()
    const cache = new RowWindowCache(
      load,
      () => undefined,
      { total: TOTAL, rows: rowsAt(0, 100) },
      { maxPages: 3 },
    )
    for (const start of [1_000, 2_000, 3_000, 4_000]) {
      cache.ensure(start, start + 10)
      asked.at(-1)!.resolve()
      await flush()
    }
    const cached = [0, 1_000, 2_000, 3_000, 4_000].filter((index) => cache.rowAt(index) !== undefined)
    expect(cached).toHaveLength(3)
    expect(cached).toContain(4_000)
    expect(cached).not.toContain(0)
  })

  it('ignores answers that arrive after it was replaced by a newer query', async () => {
    const { asked, load } = controlledLoader()
    let changes = 0
    const cache = new RowWindowCache(load, () => (changes += 1), { total: TOTAL, rows: rowsAt(0, 100) })
    cache.ensure(500, 520)
    cache.dispose()
    asked[0]!.resolve()
    await flush()
    expect(cache.rowAt(500)).toBeUndefined()
    expect(changes).toBe(0)
  })

  it('marks a page that failed and asks for it again on the next ensure', async () => {
    const { asked, load } = controlledLoader()
    const cache = new RowWindowCache(load, () => undefined, { total: TOTAL, rows: rowsAt(0, 100) })
    cache.ensure(700, 710)
    asked[0]!.reject()
    await flush()
    expect(cache.failedAt(705)).toBe(true)
    cache.ensure(700, 710)
    expect(asked).toHaveLength(2)
    asked[1]!.resolve()
    await flush()
    expect(cache.failedAt(705)).toBe(false)
    expect(cache.rowAt(705)).toEqual({ UUID: 'u705' })
  })

  it('never asks beyond the last row', () => {
    const { asked, load } = controlledLoader()
    const cache = new RowWindowCache(load, () => undefined, { total: 150, rows: rowsAt(0, 100) })
    cache.ensure(90, 10_000)
    expect(asked.map((request) => request.offset)).toEqual([100])
  })
})
