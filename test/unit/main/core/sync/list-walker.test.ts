import { describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { walkList } from '../../../../../src/main/core/sync/list-walker'
import type { ArrivedPage, WalkOptions } from '../../../../../src/main/core/sync/walk-types'
import { FakeListService, fakeListClient, jsonResponse, makeEmployees } from '../../../../helpers/sync-fakes'
import type { FakeListOptions, ListRequest } from '../../../../helpers/sync-fakes'

async function walk(service: FakeListService, options: Partial<WalkOptions> = {}) {
  const pages: ArrivedPage[] = []
  const result = await walkList(fakeListClient(service), {
    pageSize: 10,
    concurrency: 3,
    maxPasses: 3,
    onPage: (page) => pages.push(page),
    ...options,
  })
  return { result, pages }
}

const uuids = (rows: readonly EmployeeRow[]): string[] => rows.map((row) => String(row['UUID'])).sort()

/**
 * On list requests number `from` .. `from + requests - 1`, inserts `add` rows at the front and removes `remove`
 * from position 3.
 */
function churn(add: number, remove: number, requests: number, from = 1): FakeListOptions['before'] {
  let added = 0
  return (request: ListRequest, service: FakeListService) => {
    if (request.index < from || request.index >= from + requests) return undefined
    for (let i = 0; i < add; i++)
      service.rows.unshift({ UUID: `new-${++added}`, firstName: 'N', lastName: 'New' })
    service.rows.splice(3, remove)
    return undefined
  }
}

describe('walkList', () => {
  it('uses the page size the service really serves and fetches every page once, then page 1 again', async () => {
    const service = new FakeListService(makeEmployees(30), { maxPageSize: 7 })
    const { result, pages } = await walk(service, { pageSize: 50 })
    expect(result).toMatchObject({ pass: 1, totalCount: 30, limit: 7, pages: 5 })
    expect([...result.uuids].sort()).toEqual(uuids(service.rows))
    // Pages 2 and 3 guessed at the asked size alongside page 1 are discarded: the service served 7, not 50.
    expect(service.requests.map((r) => [r.page, r.limit])).toEqual([
      [2, 50],
      [3, 50],
      [1, 50],
      [2, 7],
      [3, 7],
      [4, 7],
      [5, 7],
      [1, 7],
    ])
    expect(pages.map((p) => p.position).sort((a, b) => a - b)).toEqual([0, 7, 14, 21, 28])
  })

  it('uses the pages guessed alongside page 1 when the service serves the size asked for', async () => {
    const service = new FakeListService(makeEmployees(45))
    const { result } = await walk(service)
    expect(result).toMatchObject({ pass: 1, totalCount: 45, pages: 5 })
    expect(service.requests.map((r) => r.page)).toEqual([2, 3, 1, 4, 5, 1])
  })

  it('says when every page of a pass is staged, while the second look at page 1 is already on its way', async () => {
    const service = new FakeListService(makeEmployees(95))
    const events: string[] = []
    let pageOneRequestsThen = 0
    await walk(service, {
      onPage: (page) => events.push(`page ${page.page}`),
      onPagesIn: (pass) => {
        events.push(`in ${pass}`)
        pageOneRequestsThen = service.requests.filter((r) => r.page === 1).length
      },
    })
    expect(events.filter((e) => e.startsWith('in'))).toEqual(['in 1'])
    expect(events.at(-1)).toBe('in 1')
    expect(events.filter((e) => e.startsWith('page'))).toHaveLength(10)
    expect(pageOneRequestsThen).toBe(2)

    const moving = new FakeListService(makeEmployees(95), { before: churn(1, 0, 1, 2) })
    const passes: number[] = []
    await walk(moving, { onPagesIn: (pass) => passes.push(pass) })
    expect(passes).toEqual([1, 2])
  })

  it('goes on fetching while staging waits for what it needs, then stages every page in arrival order', async () => {
    const service = new FakeListService(makeEmployees(45))
    let ready = (): void => undefined
    const stagingReady = new Promise<void>((resolve) => {
      ready = resolve
    })
    const staged: number[] = []
    const walking = walk(service, {
      stagingReady,
      onPage: (page) => staged.push(page.page),
    })
    // Every page and the second look at page 1 are asked for and answered, with nothing staged yet.
    for (let turn = 0; turn < 1_000 && service.requests.length < 6; turn++) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(service.requests.map((r) => r.page)).toEqual([2, 3, 1, 4, 5, 1])
    expect(staged).toEqual([])
    ready()
    const { result } = await walking
    expect(result).toMatchObject({ pass: 1, totalCount: 45, pages: 5 })
    // Page 1 first (it is handed over as soon as it is read), then the others as they came back.
    expect(staged[0]).toBe(1)
    expect([...staged].sort()).toEqual([1, 2, 3, 4, 5])
  })

  it('never stages a page that waited for staging once the walk has failed', async () => {
    const service = new FakeListService(makeEmployees(45), {
      before: (request) => (request.page === 4 ? jsonResponse(403, { error: 'forbidden' }) : undefined),
    })
    let ready = (): void => undefined
    const stagingReady = new Promise<void>((resolve) => {
      ready = resolve
    })
    const staged: number[] = []
    await expect(walk(service, { stagingReady, onPage: (page) => staged.push(page.page) })).rejects.toThrow()
    // What staging waited for arrives after the walk has ended (the run's files discarded by then).
    ready()
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(staged).toEqual([])
  })

  it('fails with the reason staging could not start as soon as it is known, staging nothing', async () => {
    let pageOneArrived = (): void => undefined
    const service = new FakeListService(makeEmployees(450), {
      before: (request) => {
        if (request.page === 1) pageOneArrived()
        return undefined
      },
    })
    let fail = (_: unknown): void => undefined
    const stagingReady = new Promise<void>((_, reject) => {
      fail = reject
    })
    const failure = new RosterDeskError('damaged-cache', 'The previous employees could not be read.')
    const staged: number[] = []
    const walking = walk(service, { stagingReady, onPage: (page) => staged.push(page.page) })
    await new Promise<void>((resolve) => {
      pageOneArrived = resolve
    })
    fail(failure)
    await expect(walking).rejects.toBe(failure)
    expect(staged).toEqual([])
    // The pass stopped when the failure was known: far fewer than the list's 45 pages were asked for.
    expect(service.requests.length).toBeLessThan(20)
  })

  it('fails with the reason staging could not start, staging nothing', async () => {
    const service = new FakeListService(makeEmployees(45))
    const staged: number[] = []
    const failure = new RosterDeskError('damaged-cache', 'The previous employees could not be read.')
    await expect(
      walk(service, { stagingReady: Promise.reject(failure), onPage: (page) => staged.push(page.page) }),
    ).rejects.toBe(failure)
    expect(staged).toEqual([])
  })

  it('keeps at most `concurrency` requests in flight', async () => {
    const service = new FakeListService(makeEmployees(200))
    await walk(service, { concurrency: 3 })
    expect(service.maxInFlight).toBe(3)
  })

  it('ends with exactly the service’s set when employees are added at the front while paging', async () => {
    const service = new FakeListService(makeEmployees(45), { before: churn(2, 0, 4) })
    const { result } = await walk(service)
    expect(result.pass).toBeGreaterThan(1)
    expect(result.totalCount).toBe(53)
    expect([...result.uuids].sort()).toEqual(uuids(service.rows))
  })

  it('does not keep employees removed while paging', async () => {
    const service = new FakeListService(makeEmployees(45), { before: churn(0, 2, 4) })
    const { result } = await walk(service)
    expect(result.totalCount).toBe(37)
    expect([...result.uuids].sort()).toEqual(uuids(service.rows))
  })

  it('notices swaps that leave the total unchanged, through the second look at page 1', async () => {
    const service = new FakeListService(makeEmployees(45), { before: churn(1, 1, 3, 4) })
    const { result } = await walk(service)
    expect(result.pass).toBeGreaterThan(1)
    expect(result.totalCount).toBe(45)
    expect([...result.uuids].sort()).toEqual(uuids(service.rows))
  })

  it('fails, saying by how much, when the list never holds still', async () => {
    const service = new FakeListService(makeEmployees(45), { before: churn(1, 0, 1000) })
    const error = await walk(service).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(RosterDeskError)
    expect((error as RosterDeskError).message).toMatch(/kept changing.*after 3 full passes.*missing/)
  })

  it('fails at once, naming the page, when a page skips an employee its own total still counts', async () => {
    const service = new FakeListService(makeEmployees(30), {
      before: (request, svc) => {
        if (request.page !== 2) return undefined
        const rows = svc.rows.slice(10, 19)
        return new Response(
          JSON.stringify({ rows, totalCount: 30, totalPages: 3, limit: 10, currentPage: 2 }),
          {
            status: 200,
          },
        )
      },
    })
    const error = (await walk(service).catch((e: unknown) => e)) as RosterDeskError
    expect(error.message).toMatch(
      /on page 2, the page holds 9 rows where "totalCount" 30 and "limit" 10 mean 10: the service claims employees it does not list/,
    )
    // Deterministic: the page was asked for once, not retried, and no second pass was started.
    expect(service.requests.filter((r) => r.page === 2)).toHaveLength(1)
  })

  it('finishes an empty list in its first round of requests', async () => {
    const service = new FakeListService([])
    const { result, pages } = await walk(service)
    expect(result).toMatchObject({ pass: 1, totalCount: 0, pages: 0 })
    expect(pages).toHaveLength(1)
    expect(service.requests.map((r) => r.page)).toEqual([2, 3, 1])
  })

  it('passes the pay-cycle filter on every request', async () => {
    const service = new FakeListService(makeEmployees(40))
    const { result } = await walk(service, { payCycleId: 'PC-B' })
    expect(result.totalCount).toBe(20)
    expect(service.requests.every((r) => r.payCycleId === 'PC-B')).toBe(true)
  })
})
