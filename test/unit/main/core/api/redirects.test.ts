import { describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../../../src/main/core/api/fetch-like'
import { requestJson } from '../../../../../src/main/core/api/http-json'
import { EMPLOYEE_LIST, ListClient } from '../../../../../src/main/core/api/list-client'
import { MAX_REDIRECTS } from '../../../../../src/main/core/api/redirects'
import { exchangeAuthorizationCode, refreshTokens } from '../../../../../src/main/core/auth/token-endpoint'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import {
  FakeListService,
  FakeTokens,
  fakeClock,
  jsonResponse,
  makeEmployees,
} from '../../../../helpers/sync-fakes'

/**
 * The redirect rule of every request to the service (issue 22, fault 4): `requestJson` follows a redirect within
 * the request's own origin itself, bounded, keeping the method where the status says so, and refuses the rest;
 * a redirect to another origin is never sent a request, so the Bearer token and the client secret never go there.
 */

const SERVICE = 'https://payroll.example'

interface Sent {
  readonly url: string
  readonly method: string
  readonly headers: Headers
  readonly body: string | undefined
  readonly redirect: RequestInit['redirect']
}

/** A fetch that answers by URL from `routes` (a Response, or a function of the request), recording each request. */
function routedFetch(routes: Record<string, (sent: Sent) => Response>): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = []
  const fetch: FetchLike = async (input, init) => {
    const request: Sent = {
      url: input,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
      redirect: init?.redirect,
    }
    sent.push(request)
    const route = routes[input]
    if (route === undefined) return jsonResponse(404, { error: 'not_found' })
    return route(request)
  }
  return { fetch, sent }
}

function redirect(status: number, location: string | null): () => Response {
  return () => new Response(null, { status, headers: location === null ? {} : { location } })
}

const answered = (body: unknown) => (): Response => jsonResponse(200, body)

async function refusal(promise: Promise<unknown>): Promise<RosterDeskError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(RosterDeskError)
  return error as RosterDeskError
}

describe('requestJson follows redirects within the origin only', () => {
  it('follows a same-origin 307 and 308 of a GET, with the same headers, Authorization included', async () => {
    for (const status of [307, 308]) {
      const { fetch, sent } = routedFetch({
        [`${SERVICE}/employees/list?page=1`]: redirect(status, '/v2/employees/list?page=1'),
        [`${SERVICE}/v2/employees/list?page=1`]: answered({ moved: true }),
      })
      const response = await requestJson(fetch, {
        url: `${SERVICE}/employees/list?page=1`,
        headers: { Authorization: 'Bearer secret-token', 'vnd.a1.tenant-id': 't1' },
      })
      expect(response).toMatchObject({ status: 200, body: { moved: true } })
      expect(sent.map((request) => [request.method, request.url])).toEqual([
        ['GET', `${SERVICE}/employees/list?page=1`],
        ['GET', `${SERVICE}/v2/employees/list?page=1`],
      ])
      expect(sent[1]?.headers.get('authorization')).toBe('Bearer secret-token')
      expect(sent[1]?.headers.get('vnd.a1.tenant-id')).toBe('t1')
      // The fetch is never asked to follow anything itself.
      expect(sent.every((request) => request.redirect === 'manual')).toBe(true)
    }
  })

  it('keeps the method and the body through 307 and 308', async () => {
    for (const status of [307, 308]) {
      const { fetch, sent } = routedFetch({
        [`${SERVICE}/openapi/oauth/token`]: redirect(status, `${SERVICE}/auth/token`),
        [`${SERVICE}/auth/token`]: answered({ access_token: 'a2' }),
      })
      const response = await requestJson(fetch, {
        url: `${SERVICE}/openapi/oauth/token`,
        json: { refreshToken: 'r1' },
      })
      expect(response.body).toEqual({ access_token: 'a2' })
      expect(sent.map((request) => request.method)).toEqual(['POST', 'POST'])
      expect(sent[1]?.body).toBe('{"refreshToken":"r1"}')
      expect(sent[1]?.headers.get('content-type')).toBe('application/json')
    }
  })

  it('keeps a GET a GET through 301, 302 and 303', async () => {
    for (const status of [301, 302, 303]) {
      const { fetch, sent } = routedFetch({
        [`${SERVICE}/a`]: redirect(status, `${SERVICE}/b`),
        [`${SERVICE}/b`]: answered({ ok: 1 }),
      })
      expect((await requestJson(fetch, { url: `${SERVICE}/a` })).body).toEqual({ ok: 1 })
      expect(sent.map((request) => request.method)).toEqual(['GET', 'GET'])
    }
  })

  it('refuses a POST answered 301, 302 or 303 with a precise message, and sends nothing more', async () => {
    for (const status of [301, 302, 303]) {
      const { fetch, sent } = routedFetch({
        [`${SERVICE}/openapi/oauthv1/token`]: redirect(status, `${SERVICE}/elsewhere`),
        [`${SERVICE}/elsewhere`]: answered({}),
      })
      const error = await refusal(
        requestJson(fetch, { url: `${SERVICE}/openapi/oauthv1/token`, json: { code: 'c' } }),
      )
      expect(error).toMatchObject({ code: 'service', retryable: false })
      expect(error.message).toMatch(
        new RegExp(
          `answered RosterDesk’s POST request with a redirect \\(HTTP ${status}\\) that would send it again without its content`,
        ),
      )
      expect(sent).toHaveLength(1)
    }
  })

  it('never sends a request to another origin, and names only that origin, never its path or query', async () => {
    const cases = [
      `https://other.example/employees/list?page=1&token=leak`,
      // Another scheme or another port is another origin too.
      `http://payroll.example/employees/list`,
      `https://payroll.example:8443/employees/list`,
    ]
    for (const location of cases) {
      const { fetch, sent } = routedFetch({ [`${SERVICE}/employees/list`]: redirect(307, location) })
      const error = await refusal(
        requestJson(fetch, {
          url: `${SERVICE}/employees/list`,
          headers: { Authorization: 'Bearer secret-token' },
        }),
      )
      const origin = new URL(location).origin
      expect(error).toMatchObject({ code: 'config', retryable: false })
      expect(error.message).toContain(
        `The payroll service redirected to ${origin}, which is not the service address`,
      )
      expect(error.message).toMatch(/change the service address in Settings.*ask IT/)
      expect(`${error.message} ${error.detail}`).not.toMatch(/employees|token=|leak/)
      expect(sent.map((request) => request.url)).toEqual([`${SERVICE}/employees/list`])
    }
  })

  it('follows up to the hop limit and refuses one more, with its own message', async () => {
    const chain = (hops: number): Record<string, () => Response> => {
      const routes: Record<string, () => Response> = {}
      for (let i = 0; i < hops; i++) routes[`${SERVICE}/hop/${i}`] = redirect(308, `/hop/${i + 1}`)
      routes[`${SERVICE}/hop/${hops}`] = answered({ end: hops })
      return routes
    }
    const within = routedFetch(chain(MAX_REDIRECTS))
    expect((await requestJson(within.fetch, { url: `${SERVICE}/hop/0` })).body).toEqual({
      end: MAX_REDIRECTS,
    })
    expect(within.sent).toHaveLength(MAX_REDIRECTS + 1)

    const over = routedFetch(chain(MAX_REDIRECTS + 1))
    const error = await refusal(requestJson(over.fetch, { url: `${SERVICE}/hop/0` }))
    expect(error).toMatchObject({ code: 'service', retryable: false })
    expect(error.message).toMatch(new RegExp(`redirected RosterDesk more than ${MAX_REDIRECTS} times`))
    expect(over.sent).toHaveLength(MAX_REDIRECTS + 1)
  })

  it('stops a loop at the first address asked for again', async () => {
    const { fetch, sent } = routedFetch({
      [`${SERVICE}/a`]: redirect(307, '/b'),
      [`${SERVICE}/b`]: redirect(307, '/a'),
    })
    const error = await refusal(requestJson(fetch, { url: `${SERVICE}/a` }))
    expect(error).toMatchObject({ code: 'service', retryable: false })
    expect(error.message).toMatch(/redirected RosterDesk in a loop.*after 2 redirects/)
    expect(sent).toHaveLength(2)
  })

  it('refuses a redirect that does not say where to', async () => {
    const { fetch } = routedFetch({ [`${SERVICE}/a`]: redirect(307, null) })
    const error = await refusal(requestJson(fetch, { url: `${SERVICE}/a` }))
    expect(error.message).toMatch(/a redirect \(HTTP 307\) that does not say where to/)
  })
})

describe('every request to the service keeps the rule', () => {
  const credentials = {
    baseUrl: SERVICE,
    clientId: 'client',
    clientSecret: 'client-secret',
    redirectUri: 'http://127.0.0.1/callback',
  }

  it('refreshes through a same-origin 308, and refuses a code exchange redirected elsewhere, the secret kept', async () => {
    const moved = routedFetch({
      [`${SERVICE}/openapi/oauth/token`]: redirect(308, '/v2/oauth/token'),
      [`${SERVICE}/v2/oauth/token`]: answered({ access_token: 'a2', refresh_token: 'r2' }),
    })
    expect(await refreshTokens(moved.fetch, credentials, 'r1')).toMatchObject({
      accessToken: 'a2',
      refreshToken: 'r2',
    })
    expect(JSON.parse(moved.sent[1]?.body ?? '{}')).toMatchObject({ refreshToken: 'r1' })

    const away = routedFetch({
      [`${SERVICE}/openapi/oauthv1/token`]: redirect(307, 'https://collector.example/token'),
    })
    const error = await refusal(exchangeAuthorizationCode(away.fetch, credentials, 'code-1'))
    expect(error.message).toContain('redirected to https://collector.example,')
    expect(away.sent.map((request) => new URL(request.url).origin)).toEqual([SERVICE])
  })

  it('reads a list page from its moved path, the Bearer token and tenant sent there too', async () => {
    const list = new FakeListService(makeEmployees(5))
    const seen: string[] = []
    const fetch: FetchLike = async (input, init) => {
      seen.push(`${new URL(input).pathname} ${new Headers(init?.headers).get('authorization') ?? '-'}`)
      if (new URL(input).pathname === EMPLOYEE_LIST.path) {
        return new Response(null, {
          status: 307,
          headers: { location: input.replace(EMPLOYEE_LIST.path, '/v2/employees/list') },
        })
      }
      return list.fetch(input, init)
    }
    const client = new ListClient({
      endpoint: EMPLOYEE_LIST,
      baseUrl: SERVICE,
      tenantId: 't1',
      fetch,
      tokens: new FakeTokens(),
      clock: fakeClock().clock,
      random: () => 0.5,
    })
    const page = await client.fetchPage({ page: 1, limit: 10 })
    expect(page.rows).toHaveLength(5)
    expect(seen).toEqual(['/employees/list Bearer token-1', '/v2/employees/list Bearer token-1'])
    expect(list.requests[0]?.headers.get('vnd.a1.tenant-id')).toBe('t1')
  })
})
