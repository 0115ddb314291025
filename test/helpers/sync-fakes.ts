import type { EmployeeRow } from '../../src/shared/domain/rows'
import type { FetchLike } from '../../src/main/core/api/fetch-like'
import { EMPLOYEE_LIST, ListClient } from '../../src/main/core/api/list-client'
import type { AccessTokenSource } from '../../src/main/core/api/access-token-source'
import type { Clock } from '../../src/main/core/clock'

/** A clock whose sleeps return at once and move time forward; every requested sleep is recorded. */
export function fakeClock(start = Date.UTC(2026, 10, 1)): {
  clock: Clock
  sleeps: number[]
  advance: (ms: number) => void
} {
  let now = start
  const sleeps: number[] = []
  return {
    sleeps,
    advance: (ms) => {
      now += ms
    },
    clock: {
      now: () => now,
      sleep: async (ms, signal) => {
        if (signal?.aborted) throw signal.reason
        sleeps.push(ms)
        now += ms
        await Promise.resolve()
        if (signal?.aborted) throw signal.reason
      },
    },
  }
}

/** Hands out "token-N"; a 401 for the current token moves to the next one (one shared refresh). */
export class FakeTokens implements AccessTokenSource {
  refreshes = 0
  private generation = 1
  refuseRefresh = false

  get current(): string {
    return `token-${this.generation}`
  }

  async getAccessToken(): Promise<string> {
    return this.current
  }

  async handleUnauthorized(rejectedToken: string): Promise<string> {
    if (rejectedToken !== this.current) return this.current
    if (this.refuseRefresh) throw new Error('refresh refused')
    this.refreshes++
    this.generation++
    return this.current
  }
}

export interface ListRequest {
  readonly page: number
  readonly limit: number
  readonly payCycleId: string | null
  readonly headers: Headers
  /** 1 for the first list request. */
  readonly index: number
}

export interface FakeListOptions {
  /** The service's largest page; bigger requests are served at this size, as the envelope then says. */
  readonly maxPageSize?: number
  /** Runs before each request is answered: may change `rows` (churn) or return a Response to send instead. */
  readonly before?: (
    request: ListRequest,
    service: FakeListService,
  ) => Response | undefined | Promise<Response | undefined>
}

/** An in-memory /employees/list following the spec's paging rules, as a FetchLike. */
export class FakeListService {
  rows: EmployeeRow[]
  readonly requests: ListRequest[] = []
  /** Page requests currently being answered, and the most ever at once. */
  inFlight = 0
  maxInFlight = 0

  constructor(
    rows: readonly EmployeeRow[],
    private readonly options: FakeListOptions = {},
  ) {
    this.rows = [...rows]
  }

  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input)
    const request: ListRequest = {
      page: Number(url.searchParams.get('page')),
      limit: Number(url.searchParams.get('limit')),
      payCycleId: url.searchParams.get('payCycleId'),
      headers: new Headers(init?.headers),
      index: this.requests.length + 1,
    }
    this.requests.push(request)
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      await new Promise((resolve) => setTimeout(resolve, 1))
      if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError')
      const override = await this.options.before?.(request, this)
      if (override !== undefined) return override
      const matching =
        request.payCycleId === null
          ? this.rows
          : this.rows.filter((row) => row['payCycleId'] === request.payCycleId)
      const limit = Math.min(request.limit, this.options.maxPageSize ?? Number.MAX_SAFE_INTEGER)
      const start = (request.page - 1) * limit
      return jsonResponse(200, {
        rows: matching.slice(start, start + limit),
        totalCount: matching.length,
        totalPages: Math.ceil(matching.length / limit),
        limit,
        currentPage: request.page,
      })
    } finally {
      this.inFlight--
    }
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

export function textResponse(status: number, body: string, contentType = 'text/html'): Response {
  return new Response(body, { status, headers: { 'content-type': contentType } })
}

/**
 * A list page that never ends, as a service streaming without limit would send it: `{"rows":[` and then ~13 KB of
 * rows a chunk. `pulled()` says how many chunks were read before the reader stopped.
 */
export function endlessListPage(): { response: () => Response; pulled: () => number } {
  let pulled = 0
  const response = (): Response =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++
          controller.enqueue(
            new TextEncoder().encode(pulled === 1 ? '{"rows":[' : '{"UUID":"x"},'.repeat(1000)),
          )
        },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    )
  return { response, pulled: () => pulled }
}

/** `count` employees with names, statuses and pay cycles that vary. */
export function makeEmployees(count: number, prefix = 'e'): EmployeeRow[] {
  const statuses = ['Active', 'On leave', 'Terminated']
  const cycles = ['PC-A', 'PC-B']
  return Array.from({ length: count }, (_, i) => ({
    UUID: `${prefix}-${String(i).padStart(6, '0')}`,
    firstName: `First${i % 7}`,
    lastName: `Last${i % 11}`,
    employeeStatus: statuses[i % statuses.length] ?? 'Active',
    payCycleId: cycles[i % cycles.length] ?? 'PC-A',
    salary: 1000 + i,
  }))
}

/** A client of `service`'s employee list with fresh tokens, a clock that never waits and no jitter. */
export function fakeListClient(service: FakeListService): ListClient {
  return new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl: 'https://payroll.example',
    fetch: service.fetch,
    tokens: new FakeTokens(),
    clock: fakeClock().clock,
    random: () => 0.5,
  })
}
