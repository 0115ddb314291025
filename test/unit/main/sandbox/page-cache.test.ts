import { describe, expect, it } from 'vitest'
import type { ListQuery } from '../../../../src/main/sandbox/list-query'
import { PageBodyCache } from '../../../../src/main/sandbox/page-cache'

function query(page: number, overrides: Partial<ListQuery> = {}): ListQuery {
  return {
    page,
    limit: 10,
    sortColumn: null,
    sortOrder: 'asc',
    filter: { statusCode: null, payCycleId: null, search: null },
    ...overrides,
  }
}

describe('PageBodyCache', () => {
  it('builds a page once per dataset version and query', () => {
    const cache = new PageBodyCache(0)
    let builds = 0
    const build = () => `body-${++builds}`
    expect(cache.body(0, query(1), 10, build)).toBe('body-1')
    expect(cache.body(0, query(1), 10, build)).toBe('body-1')
    expect(cache.body(0, query(2), 10, build)).toBe('body-2')
    expect(cache.body(0, query(1), 5, build)).toBe('body-3')
    expect(cache.body(0, query(1, { sortColumn: 'lastName' }), 10, build)).toBe('body-4')
    expect(
      cache.body(0, query(1, { filter: { statusCode: 1, payCycleId: null, search: null } }), 10, build),
    ).toBe('body-5')
    expect(builds).toBe(5)
  })

  it('forgets every page when the dataset changes', () => {
    const cache = new PageBodyCache(0)
    cache.body(0, query(1), 10, () => 'old')
    expect(cache.body(1, query(1), 10, () => 'new')).toBe('new')
    expect(cache.size).toBe(1)
  })

  it('stays within its budget, dropping the least recently used page first', () => {
    const cache = new PageBodyCache(0, 10)
    cache.body(0, query(1), 10, () => 'aaaa')
    cache.body(0, query(2), 10, () => 'bbbb')
    cache.body(0, query(1), 10, () => 'unused') // touches page 1
    cache.body(0, query(3), 10, () => 'cccc') // 12 chars: page 2 goes
    expect(cache.size).toBe(2)
    expect(cache.body(0, query(2), 10, () => 'rebuilt')).toBe('rebuilt')
    expect(cache.body(0, query(20), 10, () => 'x'.repeat(11))).toHaveLength(11)
  })
})
