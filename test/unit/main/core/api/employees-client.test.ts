import { describe, expect, it } from 'vitest'
import { EMPLOYEE_LIST, ListClient, TENANT_HEADER } from '../../../../../src/main/core/api/list-client'
import type { ListClientOptions } from '../../../../../src/main/core/api/list-client'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import {
  DEFAULT_RETRY_POLICY,
  MIN_FAILING_MS,
  triedTimesText,
  type RetryNotice,
} from '../../../../../src/main/core/api/retry-policy'
import {
  FakeListService,
  FakeTokens,
  endlessListPage,
  fakeClock,
  jsonResponse,
  makeEmployees,
  textResponse,
} from '../../../../helpers/sync-fakes'

function setup(options: Partial<ListClientOptions> & { service: FakeListService }) {
  const tokens = new FakeTokens()
  const time = fakeClock()
  const client = new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl: 'https://payroll.example/api/',
    fetch: options.service.fetch,
    tokens,
    clock: time.clock,
    random: () => 0.5,
    retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 },
    ...options,
  })
  return { client, tokens, time }
}

/** A service answering the first `failures` requests with `answer`, then normally. */
function failingFirst(failures: number, answer: () => Response | Promise<Response>): FakeListService {
  return new FakeListService(makeEmployees(30), {
    before: (request) => (request.index <= failures ? answer() : undefined),
  })
}

async function failure(promise: Promise<unknown>): Promise<RosterDeskError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RosterDeskError)
  return error as RosterDeskError
}

describe('ListClient on the employee list', () => {
  it('asks for one page with the bearer token, Accept and the tenant header', async () => {
    const service = new FakeListService(makeEmployees(30))
    const { client } = setup({ service, tenantId: 'tenant-7' })
    const envelope = await client.fetchPage({ page: 2, limit: 10, payCycleId: 'PC-A' })
    expect(envelope.currentPage).toBe(2)
    const request = service.requests[0]!
    expect(request).toMatchObject({ page: 2, limit: 10, payCycleId: 'PC-A' })
    expect(request.headers.get('authorization')).toBe('Bearer token-1')
    expect(request.headers.get('accept')).toBe('application/json')
    expect(request.headers.get(TENANT_HEADER)).toBe('tenant-7')
    expect(client.requests).toBe(1)
  })

  it('sends no tenant header when none is configured', async () => {
    const service = new FakeListService(makeEmployees(3))
    const { client } = setup({ service })
    await client.fetchPage({ page: 1, limit: 10 })
    expect(service.requests[0]!.headers.has(TENANT_HEADER)).toBe(false)
  })

  it('stops at once, naming the page, when a 200 answer is a web page (a proxy or a login portal)', async () => {
    const portal = () =>
      new Response(
        '<!DOCTYPE html><html><head><title>\n  Guest Wi-Fi \u2013 Sign in\u202e </title></head><body>Accept the terms</body></html>',
        { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } },
      )
    const service = failingFirst(10, portal)
    const { client } = setup({ service })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error).toMatchObject({ code: 'web-page', retryable: false })
    expect(error.message).toBe(
      "The payroll service answered with a web page titled “Guest Wi-Fi – Sign in” where data was expected: a company proxy's sign-in or block page, or a network's login page, may be in the way. Open the service address in a browser, or ask IT.",
    )
    // Asked once: the same request gets the same page.
    expect(service.requests).toHaveLength(1)
  })

  it('retries HTML 5xx pages, truncated JSON and network failures with growing, capped waits', async () => {
    let n = 0
    const service = failingFirst(3, () => {
      n++
      if (n === 1) return textResponse(502, '<html><body>Bad Gateway</body></html>')
      if (n === 2) return textResponse(200, '{"rows":[{"UUID":"a"', 'application/json')
      throw new TypeError('fetch failed')
    })
    const { client, time } = setup({ service })
    const envelope = await client.fetchPage({ page: 1, limit: 10 })
    expect(envelope.rows).toHaveLength(10)
    expect(client.requests).toBe(4)
    // Equal jitter with random() = 0.5: three quarters of base * 2^(retry - 1).
    expect(time.sleeps).toEqual([75, 150, 300])
  })

  it('tells each retry before its wait: why, which retry, and how long', async () => {
    let n = 0
    const service = failingFirst(4, () => {
      n++
      if (n === 1) return jsonResponse(429, { error: 'rate_limited' }, { 'retry-after': '2' })
      if (n === 2) return textResponse(503, '<html><body>Service Unavailable</body></html>')
      if (n === 3) return textResponse(200, '{"rows":[{"UUID":"a"', 'application/json')
      throw new TypeError('fetch failed')
    })
    const notices: RetryNotice[] = []
    const { client, time } = setup({
      service,
      retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 },
      onRetry: (notice) => notices.push(notice),
    })
    await client.fetchPage({ page: 1, limit: 10 })
    // Each says too of how many attempts, the failure's code (its cause) and the service's host (issue 33).
    const told = { failure: expect.any(String), attempts: 5, host: 'payroll.example' }
    expect(notices).toEqual([
      { reason: 'rate-limited', attempt: 1, delayMs: 2_000, code: 'service', ...told },
      { reason: 'server-error', attempt: 2, delayMs: 150, code: 'service', ...told },
      { reason: 'server-error', attempt: 3, delayMs: 300, code: 'service', ...told },
      { reason: 'network', attempt: 4, delayMs: 600, code: 'network', ...told },
    ])
    expect(time.sleeps).toEqual([2_000, 150, 300, 600])
  })

  it('honours Retry-After on 429, in seconds or as an HTTP date', async () => {
    const { clock } = fakeClock()
    const date = new Date(clock.now() + 12_000).toUTCString()
    let n = 0
    const service = failingFirst(2, () => {
      n++
      return jsonResponse(429, { message: 'slow down' }, { 'retry-after': n === 1 ? '7' : date })
    })
    const { client, time } = setup({ service })
    await client.fetchPage({ page: 1, limit: 10 })
    expect(time.sleeps[0]).toBe(7000)
    // The date is relative to the injected clock, which the first wait moved on by 7 s.
    expect(time.sleeps[1]).toBe(5000)
  })

  it('ends the run when Retry-After asks for longer than it will wait', async () => {
    const service = failingFirst(1, () => jsonResponse(429, {}, { 'retry-after': '3600' }))
    const { client } = setup({ service })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.message).toMatch(/wait 60 minutes/)
  })

  it('refreshes the token once on 401 and retries with the new one', async () => {
    const service = new FakeListService(makeEmployees(5), {
      before: (request) =>
        request.headers.get('authorization') === 'Bearer token-1'
          ? jsonResponse(401, { error: 'invalid_token' })
          : undefined,
    })
    const { client, tokens, time } = setup({ service })
    await client.fetchPage({ page: 1, limit: 10 })
    expect(tokens.refreshes).toBe(1)
    expect(service.requests.map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ])
    expect(time.sleeps).toEqual([])
  })

  it('gives up with a sign-in message when the renewed token is refused too', async () => {
    const service = failingFirst(10, () => jsonResponse(401, { error: 'invalid_token' }))
    const { client, tokens } = setup({ service })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.code).toBe('auth')
    expect(error.message).toMatch(/Sign in again/)
    expect(tokens.refreshes).toBe(1)
  })

  it('stops at once on 403 with a message about the tenant', async () => {
    const service = failingFirst(10, () =>
      jsonResponse(403, { message: 'This token has no access to that tenant' }),
    )
    const { client } = setup({ service, tenantId: 'wrong' })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.message).toMatch(/refused access to tenant “wrong” \(HTTP 403\)/)
    expect(error.message).toMatch(/no access to that tenant/)
    expect(client.requests).toBe(1)
  })

  it('stops at once on 400 and on 404, saying what to check', async () => {
    const bad = setup({
      service: failingFirst(10, () => jsonResponse(400, { message: 'limit is too large' })),
    })
    expect((await failure(bad.client.fetchPage({ page: 1, limit: 10 }))).message).toMatch(
      /rejected RosterDesk’s request for the employee list \(HTTP 400\): “limit is too large”/,
    )
    expect(bad.client.requests).toBe(1)
    const missing = setup({ service: failingFirst(10, () => jsonResponse(404, {})) })
    const error = await failure(missing.client.fetchPage({ page: 1, limit: 10 }))
    expect(error.code).toBe('config')
    expect(error.message).toMatch(/service address/)
  })

  it('fails at once on whole JSON that is not the envelope, naming the page, the row and the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /on page 1, the answer is not a JSON object.*field “rows”/],
      [
        { rows: 'nope', totalCount: 1, totalPages: 1, limit: 10, currentPage: 1 },
        /"rows" is missing or not a list/,
      ],
      [
        { rows: [{ name: 'no uuid' }], totalCount: 1, totalPages: 1, limit: 10, currentPage: 1 },
        /on page 1, row 1 \(employee 1 of the list\), the row has no UUID.*field “UUID”/,
      ],
      [
        { rows: [], totalCount: 1.5, totalPages: 1, limit: 10, currentPage: 1 },
        /"totalCount" is not a whole number of 0 or more.*field “totalCount”/,
      ],
      [{ rows: [], totalPages: 0, limit: 10, currentPage: 1 }, /"totalCount" is missing/],
      [
        { rows: [], totalCount: '3,000', totalPages: 1, limit: 10, currentPage: 1 },
        /"totalCount" is not a whole/,
      ],
    ]
    for (const [body, message] of cases) {
      const service = failingFirst(10, () => jsonResponse(200, body))
      const { client } = setup({ service })
      const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
      expect(client.requests).toBe(1)
      expect(error.message).toMatch(message)
      expect(error.message).toMatch(/Tell the payroll service’s administrator/)
      expect(error.retryable).toBe(false)
    }
  })

  it('retries an empty 2xx body like a truncated one', async () => {
    const service = failingFirst(1, () => new Response('', { status: 200 }))
    const { client } = setup({ service })
    await expect(client.fetchPage({ page: 1, limit: 10 })).resolves.toMatchObject({ totalCount: 30 })
    expect(client.requests).toBe(2)
  })

  it('reads envelope counts written as digits in strings as whole numbers', async () => {
    const rows = [{ UUID: 'u-1' }, { UUID: 'u-2' }]
    const body = { rows, totalCount: '2', totalPages: '1', limit: '10', currentPage: '1' }
    const { client } = setup({ service: failingFirst(1, () => jsonResponse(200, body)) })
    await expect(client.fetchPage({ page: 1, limit: 10 })).resolves.toEqual({
      rows,
      totalCount: 2,
      totalPages: 1,
      limit: 10,
      currentPage: 1,
    })
  })

  it('fails at once on a page that contradicts the request or its own envelope', async () => {
    const row = (n: number) => ({ UUID: `u-${n}` })
    const cases: Array<[unknown, RegExp]> = [
      [
        { rows: [row(1)], totalCount: 1, totalPages: 1, limit: 10, currentPage: 2 },
        /"currentPage" says 2 for page 1/,
      ],
      [
        { rows: [row(1)], totalCount: 1, totalPages: 1, limit: 50, currentPage: 1 },
        /"limit" says 50 where RosterDesk asked for 10 per page/,
      ],
      [
        { rows: [], totalCount: 1_000_000_000, totalPages: 100_000_000, limit: 10, currentPage: 1 },
        /the page holds 0 rows where "totalCount" 1000000000 and "limit" 10 mean 10/,
      ],
      [
        { rows: [row(1), row(1)], totalCount: 2, totalPages: 1, limit: 10, currentPage: 1 },
        /on page 1, row 2 \(employee 2 of the list\), the row carries the same UUID u-1 as row 1/,
      ],
    ]
    for (const [body, message] of cases) {
      const { client } = setup({ service: failingFirst(10, () => jsonResponse(200, body)) })
      const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
      expect(client.requests).toBe(1)
      expect(error.message).toMatch(message)
    }
  })

  it('refuses an answer over the size limit while it streams in, without reading the rest', async () => {
    const endless = endlessListPage()
    const { client } = setup({ service: failingFirst(10, endless.response), maxResponseBytes: 1024 * 1024 })
    const error = await failure(client.fetchPage({ page: 3, limit: 10 }))
    expect(error.message).toMatch(
      /answered page 3 of the employee list with more than 1 MB.*Lower the page size/,
    )
    expect(client.requests).toBe(1)
    // About 1 MB in 13 kB chunks, then the stream was cancelled: never the unending rest.
    expect(endless.pulled()).toBeLessThan(100)
  })

  it('refuses an answer whose declared length is over the limit before reading it', async () => {
    const big = (): Response =>
      new Response('{}', { status: 200, headers: { 'content-length': String(500 * 1024 * 1024) } })
    const { client } = setup({ service: failingFirst(10, big), maxResponseBytes: 1024 * 1024 })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.message).toMatch(/with more than 1 MB/)
    expect(client.requests).toBe(1)
  })

  it('accepts a smaller page than asked for when the envelope says so (a clamped page)', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ UUID: `u-${i}` }))
    const body = { rows, totalCount: 12, totalPages: 3, limit: 5, currentPage: 1 }
    const { client } = setup({ service: failingFirst(1, () => jsonResponse(200, body)) })
    await expect(client.fetchPage({ page: 1, limit: 500 })).resolves.toMatchObject({
      limit: 5,
      totalCount: 12,
    })
  })

  it('gives up on a service that keeps failing after the bounded attempts', async () => {
    const service = failingFirst(100, () => textResponse(503, '<html>down</html>'))
    const { client, time } = setup({ service })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.message).toMatch(/had a problem \(HTTP 503\).*tried 4 times/)
    expect(time.sleeps).toHaveLength(3)
  })

  it('words its attempts as a clerk says them: "tried twice", never "tried 2 times"', async () => {
    const service = failingFirst(100, () => textResponse(503, '<html>down</html>'))
    const { client } = setup({
      service,
      retry: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 },
    })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.message).toMatch(/RosterDesk tried twice without success\.$/)
    expect(triedTimesText(1)).toBe('tried once')
    expect(triedTimesText(3)).toBe('tried 3 times')
  })

  it('stops waiting when cancelled during a backoff', async () => {
    const controller = new AbortController()
    const service = failingFirst(100, () => {
      controller.abort()
      return textResponse(503, 'down')
    })
    const { client } = setup({ service })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }, controller.signal))
    expect(error.code).toBe('cancelled')
  })
})

/** An error as undici's fetch throws it: TypeError('fetch failed') whose cause carries the code and message. */
function undiciFailure(code: string, message: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) })
}

describe('ListClient: an answer that comes back the same (issue 32)', () => {
  const maintenance = { error: 'maintenance', message: 'maintenance until 02:00 UTC, ticket PAY-4471' }

  it('shows a 5xx’s own short reason, as a 403’s, and stops when the same reason comes back', async () => {
    const service = failingFirst(100, () => jsonResponse(500, maintenance))
    const notices: RetryNotice[] = []
    const { client } = setup({ service, onRetry: (notice) => notices.push(notice) })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.message).toBe(
      'The payroll service had a problem (HTTP 500): “maintenance until 02:00 UTC, ticket PAY-4471”. Try again in a few minutes. RosterDesk tried twice and got the same answer each time, so it stopped.',
    )
    expect(client.requests).toBe(2)
    // The cause is told at the first retry, in the same words.
    expect(notices).toEqual([
      {
        reason: 'server-error',
        attempt: 1,
        delayMs: 75,
        failure:
          'The payroll service had a problem (HTTP 500): “maintenance until 02:00 UTC, ticket PAY-4471”. Try again in a few minutes.',
        attempts: 4,
        code: 'service',
        host: 'payroll.example',
      },
    ])
  })

  it('goes on retrying a 5xx whose reason changes, or that gives none or one too long to show', async () => {
    let n = 0
    const changing = setup({
      service: failingFirst(2, () => jsonResponse(503, { message: `restarting (${++n} of 2)` })),
    })
    await expect(changing.client.fetchPage({ page: 1, limit: 10 })).resolves.toMatchObject({ totalCount: 30 })
    expect(changing.client.requests).toBe(3)
    for (const body of [{}, { message: 'x'.repeat(201) }]) {
      const silent = setup({ service: failingFirst(100, () => jsonResponse(500, body)) })
      const error = await failure(silent.client.fetchPage({ page: 1, limit: 10 }))
      expect(error.message).toBe(
        'The payroll service had a problem (HTTP 500). Try again in a few minutes. RosterDesk tried 4 times without success.',
      )
    }
  })

  it('words a 304 as “not modified”, never as a page size or tenant to check, and asks twice', async () => {
    const service = failingFirst(100, () => new Response(null, { status: 304 }))
    const { client } = setup({ service })
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.message).toMatch(
      /^The payroll service answered “not modified” \(HTTP 304\) to a request for the employee list, though RosterDesk asked for no cached copy/,
    )
    expect(error.message).not.toMatch(/page size|tenant/)
    expect(error.message).toMatch(
      /RosterDesk tried twice and got the same answer each time, so it stopped\.$/,
    )
    expect(client.requests).toBe(2)
    expect(error.retryable).toBe(false)
  })

  it('stops after two tries on a 204 and on a 429 without Retry-After, but not on an empty 200', async () => {
    for (const [answer, words] of [
      [() => new Response(null, { status: 204 }), /sent an empty answer \(HTTP 204\)/],
      [
        () => jsonResponse(429, { error: 'rate_limited' }),
        /slow down \(HTTP 429\) without saying for how long/,
      ],
    ] as const) {
      const { client } = setup({ service: failingFirst(100, answer) })
      const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
      expect(error.message).toMatch(words)
      expect(error.message).toMatch(/tried twice and got the same answer each time/)
      expect(client.requests).toBe(2)
    }
    const cut = setup({ service: failingFirst(100, () => new Response('', { status: 200 })) })
    expect((await failure(cut.client.fetchPage({ page: 1, limit: 10 }))).message).toMatch(/tried 4 times/)
  })

  it('stops after two tries on headers over the limit or an unasked 100 Continue, naming which', async () => {
    for (const [error, words] of [
      [
        undiciFailure('UND_ERR_HEADERS_OVERFLOW', 'Headers Overflow Error'),
        /answered with headers larger than RosterDesk reads/,
      ],
      [
        undiciFailure('UND_ERR_SOCKET', 'bad response'),
        /sent an interim “100 Continue” answer RosterDesk did not ask for/,
      ],
    ] as const) {
      const service = failingFirst(100, () => {
        throw error
      })
      const { client } = setup({ service })
      const found = await failure(client.fetchPage({ page: 1, limit: 10 }))
      expect(found.code).toBe('service')
      expect(found.message).toMatch(words)
      expect(found.message).toMatch(/tried twice and got the same answer each time, so it stopped\.$/)
      expect(client.requests).toBe(2)
    }
  })

  it('knows an unreadable answer by its code and detail, as it reaches the core worker from its host', async () => {
    // The host classifies Electron's failure; only code, message, detail and retryability cross (worker-protocol).
    const crossed = new RosterDeskError('service', 'The payroll service answered with headers larger…', {
      detail: 'net::ERR_RESPONSE_HEADERS_TOO_BIG',
      retryable: true,
    })
    const { client } = setup({
      service: failingFirst(100, () => {
        throw crossed
      }),
    })
    const found = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(found.message).toMatch(/tried twice and got the same answer each time, so it stopped\.$/)
    expect(client.requests).toBe(2)
  })

  it('bounds how long one request may keep failing: a page that never answers costs about three timeouts', async () => {
    const timeoutMs = 30_000
    let advance = (_ms: number): void => undefined
    const service = failingFirst(100, () => {
      advance(timeoutMs)
      throw undiciFailure('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error')
    })
    const { client, time } = setup({ service, retry: { maxAttempts: 8 } })
    advance = time.advance
    const started = time.clock.now()
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.code).toBe('timeout')
    expect(error.message).toMatch(/RosterDesk tried 3 times over 91 seconds without success\.$/)
    expect(client.requests).toBe(3)
    expect(time.clock.now() - started).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxFailingMs + timeoutMs)
  })

  it('with a short timeout (--request-timeout 3), a page that never answers costs about 30 s, not eight tries', async () => {
    const timeoutMs = 3_000
    let advance = (_ms: number): void => undefined
    const service = failingFirst(100, () => {
      advance(timeoutMs)
      throw undiciFailure('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error')
    })
    const { client, time } = setup({ service, timeoutMs, retry: { maxAttempts: 8 } })
    advance = time.advance
    const started = time.clock.now()
    const error = await failure(client.fetchPage({ page: 1, limit: 10 }))
    expect(error.code).toBe('timeout')
    expect(error.message).toMatch(/RosterDesk tried \d times over \d+ seconds without success\.$/)
    expect(client.requests).toBeLessThan(8)
    expect(time.clock.now() - started).toBeLessThanOrEqual(MIN_FAILING_MS + timeoutMs)
  })
})
