import { describe, expect, it } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { runBounded } from '../../../../../src/main/core/sync/bounded-pool'
import { driftAllowance, walkList } from '../../../../../src/main/core/sync/list-walker'
import type { WalkOptions } from '../../../../../src/main/core/sync/walk-types'
import { FakeListService, fakeListClient, jsonResponse, makeEmployees } from '../../../../helpers/sync-fakes'
import type { ListRequest } from '../../../../helpers/sync-fakes'

/**
 * The walker's sanity bounds (issue 12): a service whose envelope lies is stopped at once with the page and the
 * field, never walked page by page, and never sized by what it claims.
 */

async function walkFailure(
  service: FakeListService,
  options: Partial<WalkOptions> = {},
): Promise<RosterDeskError> {
  const error = await walkList(fakeListClient(service), {
    pageSize: 10,
    concurrency: 4,
    maxPasses: 3,
    onPage: () => undefined,
    ...options,
  }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RosterDeskError)
  return error as RosterDeskError
}

/** The real rows, paged by the spec, under an envelope that claims `claimed(request)` employees. */
function lying(service: FakeListService, request: ListRequest, claimed: number): Response {
  const start = (request.page - 1) * request.limit
  return jsonResponse(200, {
    rows: service.rows.slice(start, start + request.limit),
    totalCount: claimed,
    totalPages: Math.ceil(claimed / request.limit),
    limit: request.limit,
    currentPage: request.page,
  })
}

describe('sanity bounds on the list envelope', () => {
  it('stops a billion-employee claim at the first short page past the real end, a handful of requests on', async () => {
    const service = new FakeListService(makeEmployees(95), {
      before: (request, svc) => lying(svc, request, 1_000_000_000),
    })
    const before = process.memoryUsage().heapUsed
    const error = await walkFailure(service, { maxTotalCount: 1_000_000_000 })
    expect(error.message).toMatch(
      /on page 10, the page holds 5 rows where "totalCount" 1000000000 and "limit" 10 mean 10: the service claims employees it does not list/,
    )
    expect(error.retryable).toBe(false)
    // Ten real pages; at most `concurrency` requests were out when page 10 answered short.
    expect(service.requests.length).toBeLessThanOrEqual(10 + 4)
    expect(service.requests.every((r) => r.page <= 14)).toBe(true)
    // No structure sized by the 100,000,000 pages it claims (an array of them alone would be 800 MB).
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024)
  })

  it('refuses a claimed size over the ceiling at page 1, before sizing anything by it', async () => {
    const service = new FakeListService(makeEmployees(30), {
      before: (request, svc) => (request.page === 1 ? lying(svc, request, 6_000_000) : undefined),
    })
    const error = await walkFailure(service, { maxTotalCount: 5_000_000, concurrency: 1 })
    expect(error.message).toMatch(
      /claims 6,000,000 employees in its employee list \(page 1, field “totalCount”\), more than the 5,000,000 RosterDesk is set to accept/,
    )
    expect(error.message).toMatch(/raise “Most employees” in Settings/)
    expect(service.requests).toHaveLength(1)
  })

  it('stops when totalCount jumps by more than churn during a sync can explain', async () => {
    const service = new FakeListService(makeEmployees(300), {
      before: (request, svc) => (request.page === 5 ? lying(svc, request, 300_000) : undefined),
    })
    const error = await walkFailure(service, { concurrency: 1 })
    expect(error.message).toMatch(
      /changed size from 300 to 300,000 employees while RosterDesk read it \(page 5, field “totalCount”\)/,
    )
    // Pages 1 to 5, no second pass.
    expect(service.requests.map((r) => r.page)).toEqual([1, 2, 3, 4, 5])
  })

  it('lets honest churn through: the allowance is a tenth of the list, at least a page', () => {
    expect(driftAllowance(1200, 100)).toBe(120)
    expect(driftAllowance(30, 10)).toBe(100)
    expect(driftAllowance(1_000_000, 500)).toBe(100_000)
  })

  it('names a UUID listed twice on every pass, with where, after the second pass instead of the third', async () => {
    const service = new FakeListService(makeEmployees(40), {
      before: (request, svc) => {
        if (request.page !== 3) return undefined
        const rows = svc.rows
          .slice(20, 30)
          .map((row, i) => (i === 4 ? { ...row, UUID: svc.rows[0]!.UUID } : row))
        return jsonResponse(200, { rows, totalCount: 40, totalPages: 4, limit: 10, currentPage: 3 })
      },
    })
    const error = await walkFailure(service, { concurrency: 1 })
    expect(error.message).toMatch(
      /lists the employee with UUID e-000000 twice in its employee list \(again on page 3, row 5, field “UUID”\), the same way in 2 full passes/,
    )
    expect(error.message).not.toMatch(/kept changing/)
    // Two passes (pages 1–4 and page 1 again; the second starts from that re-read page 1), not three.
    expect(service.requests).toHaveLength(9)
  })

  it('names a UUID listed twice on two later pages, whichever of them arrives first in each pass', async () => {
    let request = 0
    const service = new FakeListService(makeEmployees(60), {
      before: async (req, svc) => {
        // Pages 2 and 5 swap their arrival order from one pass to the next.
        const slow = (++request % 2 === 0) === (req.page === 2)
        await new Promise((resolve) => setTimeout(resolve, slow ? 15 : 0))
        if (req.page !== 5) return undefined
        const rows = svc.rows
          .slice(40, 50)
          .map((row, i) => (i === 0 ? { ...row, UUID: svc.rows[12]!.UUID } : row))
        return jsonResponse(200, { rows, totalCount: 60, totalPages: 6, limit: 10, currentPage: 5 })
      },
    })
    const error = await walkFailure(service)
    expect(error.message).toMatch(
      /lists the employee with UUID e-000012 twice .* the same way in 2 full passes/,
    )
  })
})

describe('runBounded over a generator', () => {
  it('draws tasks one at a time, never all at once', async () => {
    let made = 0
    function* tasks(): Generator<number> {
      for (let i = 0; i < 1_000_000_000; i++) {
        made++
        yield i
      }
    }
    const error = await runBounded(tasks(), 4, async (task) => {
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (task === 20) throw new Error('stop')
    }).catch((e: unknown) => e)
    expect(error).toEqual(new Error('stop'))
    expect(made).toBeLessThanOrEqual(24)
  })
})
