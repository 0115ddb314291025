import { describe, expect, it } from 'vitest'
import { LARGE_PAGE_REQUEST, planPageSize } from '../../../../../src/main/core/sync/page-size'
import type { SyncRunOptions } from '../../../../../src/main/core/sync/sync-engine'
import { useTempCache } from '../../../../helpers/temp-cache'
import { syncFromFake } from '../../../../helpers/sync-cache'
import { FakeListService, jsonResponse, makeEmployees } from '../../../../helpers/sync-fakes'
import type { FakeListOptions } from '../../../../helpers/sync-fakes'

describe('the largest page the service serves', () => {
  const temp = useTempCache()

  const sync = (service: FakeListService, options: Partial<SyncRunOptions> = {}) =>
    syncFromFake(temp.cache, service, { pageSizing: 'largest-served', ...options })

  const info = (key: string): string | undefined => temp.cache.currentSnapshot()?.info(key)
  const mainList = (service: FakeListService) =>
    service.requests.filter((r) => r.payCycleId === null).map((r) => [r.page, r.limit])

  /** The fake refuses any limit above `max` with 400, as a service with a strict maximum would. */
  const refusing =
    (max: number): FakeListOptions['before'] =>
    (request) =>
      request.limit > max ? jsonResponse(400, { message: `limit must be at most ${max}` }) : undefined

  it('asks for a large page once and reads the rest of the run at the size served', async () => {
    const service = new FakeListService(makeEmployees(950), { maxPageSize: 100 })
    const summary = await sync(service, { trackedPayCycles: ['PC-A'] })
    expect(summary).toMatchObject({ status: 'complete', totalCount: 950, stored: 950, pages: 10 })
    // Page 1 at the large size; pages 2 and 3 guessed alongside it at that size were served at 100, not 5,000,
    // so they are asked again at 100: 3 + 9 + the second look at page 1.
    expect(mainList(service)).toEqual([
      [2, LARGE_PAGE_REQUEST],
      [3, LARGE_PAGE_REQUEST],
      [1, LARGE_PAGE_REQUEST],
      ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((page) => [page, 100]),
      [1, 100],
    ])
    // The pay cycle's 475 employees at the served size from the start: 5 pages and page 1 again.
    const cycle = service.requests.filter((r) => r.payCycleId === 'PC-A')
    expect(cycle.every((r) => r.limit === 100)).toBe(true)
    expect(cycle).toHaveLength(6)
    expect(summary.requests).toBe(13 + 6)
    expect(info('page_limit')).toBe('100')
    expect(info('refused_page_limit')).toBeUndefined()

    // The settings' page size alone would have taken 95 pages and 96 requests for the main list.
    const configured = new FakeListService(makeEmployees(950), { maxPageSize: 100 })
    expect(await sync(configured, { pageSizing: 'configured' })).toMatchObject({ pages: 95, requests: 96 })
  })

  it('guesses the next run’s first pages at the size the service served last time', async () => {
    await sync(new FakeListService(makeEmployees(950), { maxPageSize: 100 }))
    const service = new FakeListService(makeEmployees(950), { maxPageSize: 100 })
    const summary = await sync(service)
    expect(summary).toMatchObject({ status: 'complete', stored: 950, pages: 10, requests: 11 })
    expect(mainList(service)).toEqual([
      [2, 100],
      [3, 100],
      [1, LARGE_PAGE_REQUEST],
      ...[4, 5, 6, 7, 8, 9, 10].map((page) => [page, 100]),
      [1, 100],
    ])
  })

  it('serves a page of the settings’ size when the service refuses a large one, and remembers it', async () => {
    const first = new FakeListService(makeEmployees(95), { before: refusing(20) })
    const summary = await sync(first)
    expect(summary).toMatchObject({ status: 'complete', stored: 95, pages: 10 })
    const refused = first.requests.filter((r) => r.limit > 20)
    // Page 1 and the two guesses went out at 5,000 together; each is asked again at 10, and nothing else is large.
    expect(refused.map((r) => [r.page, r.limit]).sort()).toEqual([
      [1, LARGE_PAGE_REQUEST],
      [2, LARGE_PAGE_REQUEST],
      [3, LARGE_PAGE_REQUEST],
    ])
    expect(first.requests.slice(3).every((r) => r.limit === 10)).toBe(true)
    expect(summary.requests).toBe(first.requests.length)
    expect(info('refused_page_limit')).toBe(String(LARGE_PAGE_REQUEST))
    expect(info('page_limit')).toBe('10')

    // The next run of the same source asks for the settings' size from the start: no refusal, no guess wasted.
    const next = new FakeListService(makeEmployees(95), { before: refusing(20) })
    const again = await sync(next)
    expect(again).toMatchObject({ status: 'complete', stored: 95, pages: 10, requests: 11 })
    expect(next.requests.every((r) => r.limit === 10)).toBe(true)
    expect(info('refused_page_limit')).toBe(String(LARGE_PAGE_REQUEST))

    // Another service (another address) has not refused anything yet: it is asked for the large page again.
    const other = new FakeListService(makeEmployees(95), { before: refusing(20) })
    expect(await sync(other, { baseUrl: 'https://other.example' })).toMatchObject({ status: 'complete' })
    expect(other.requests.some((r) => r.limit === LARGE_PAGE_REQUEST)).toBe(true)
  })

  /** Above `max`, the fake serves `max` rows a page while its envelope says the limit asked (issue 22, fault 7). */
  const echoing =
    (max: number): FakeListOptions['before'] =>
    (request, service) => {
      if (request.limit <= max) return undefined
      const matching =
        request.payCycleId === null
          ? service.rows
          : service.rows.filter((row) => row['payCycleId'] === request.payCycleId)
      const start = (request.page - 1) * max
      return jsonResponse(200, {
        rows: matching.slice(start, start + max),
        totalCount: matching.length,
        totalPages: Math.ceil(matching.length / request.limit),
        limit: request.limit,
        currentPage: request.page,
      })
    }

  it('asks again at the settings’ size when a large page confirms its limit but holds fewer rows, and remembers it', async () => {
    const first = new FakeListService(makeEmployees(95), { before: echoing(30) })
    const summary = await sync(first, { trackedPayCycles: ['PC-A'] })
    expect(summary.error).toBeUndefined()
    expect(summary).toMatchObject({ status: 'complete', totalCount: 95, stored: 95, pages: 10 })
    // Only page 1 and its guesses went out large; the list and the pay cycle were read at the settings' 10.
    expect(first.requests.filter((r) => r.limit > 10).map((r) => r.page)).toEqual([2, 3, 1])
    expect(first.requests.slice(3).every((r) => r.limit === 10)).toBe(true)
    expect(info('refused_page_limit')).toBe(String(LARGE_PAGE_REQUEST))
    expect(temp.cache.employeeCount()).toBe(95)

    const next = new FakeListService(makeEmployees(95), { before: echoing(30) })
    expect(await sync(next, { trackedPayCycles: ['PC-A'] })).toMatchObject({ status: 'complete', stored: 95 })
    expect(next.requests.every((r) => r.limit === 10)).toBe(true)
  })

  it('fails a page short of the limit it confirms at the settings’ own size, the cache unchanged', async () => {
    await sync(new FakeListService(makeEmployees(40)))
    const service = new FakeListService(makeEmployees(95), { before: echoing(5) })
    const summary = await sync(service)
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'service' })
    expect(summary.error).toMatch(
      /on page 1, the page holds 5 rows where "totalCount" 95 and "limit" 10 mean 10: the service claims employees it does not list/,
    )
    // Asked large once (with its guesses), then once at the settings' size: no loop.
    expect(service.requests.filter((r) => r.page === 1).map((r) => r.limit)).toEqual([LARGE_PAGE_REQUEST, 10])
    expect(temp.cache.employeeCount()).toBe(40)
  })

  it('still fails on a refusal of the settings’ own page size, saying so', async () => {
    const service = new FakeListService(makeEmployees(95), { before: refusing(5) })
    const summary = await sync(service)
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'service' })
    expect(summary.error).toMatch(/rejected RosterDesk’s request .*\(HTTP 400\).*Check the page size/)
    expect(service.requests.some((r) => r.limit === 10)).toBe(true)
    expect(temp.cache.employeeCount()).toBe(0)
  })

  it('falls back the same way when a large page is over the largest answer allowed', async () => {
    const rows = makeEmployees(950).map((row) => ({ ...row, notes: 'n'.repeat(2_000) }))
    const service = new FakeListService(rows)
    const summary = await sync(service, { limits: { maxPageMegabytes: 1 } })
    expect(summary).toMatchObject({ status: 'complete', stored: 950, pages: 95 })
    expect(info('refused_page_limit')).toBe(String(LARGE_PAGE_REQUEST))
  })

  it('plans from what the same source served and refused before', () => {
    expect(planPageSize(500, 'configured', { servedLimit: 1000 })).toEqual({
      firstRequest: 500,
      guessSize: 500,
      fallback: 500,
    })
    expect(planPageSize(500, 'largest-served', {})).toEqual({
      firstRequest: LARGE_PAGE_REQUEST,
      guessSize: LARGE_PAGE_REQUEST,
      fallback: 500,
    })
    expect(planPageSize(8000, 'largest-served', {}).firstRequest).toBe(8000)
    expect(planPageSize(500, 'largest-served', { servedLimit: 1000 }).guessSize).toBe(1000)
    expect(planPageSize(500, 'largest-served', { refusedLimit: 5000, servedLimit: 500 })).toEqual({
      firstRequest: 500,
      guessSize: 500,
      fallback: 500,
    })
  })
})
