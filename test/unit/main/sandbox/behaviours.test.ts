import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_BEHAVIOURS } from '../../../../src/main/sandbox/index'
import type { EmployeeRow, SandboxHandle } from '../../../../src/main/sandbox/index'
import { startTestSandbox, tokenResponseViaHttp, useTestSandbox, withSandbox } from '../../../helpers/sandbox'
import { getList, listOk, postJson, refreshBody } from '../../../helpers/sandbox-requests'

describe('switchable behaviours: token responses', () => {
  const sandbox = useTestSandbox()
  afterEach(() => sandbox().setBehaviours({ tokenStyle: 'snake', accessTokenTtlSeconds: 3600 }))
  const refresh = async (refreshToken: string) =>
    (await postJson(`${sandbox().baseUrl}/openapi/oauth/token`, refreshBody(sandbox(), refreshToken))).body

  it('snake: access_token, refresh_token, token_type, expires_in and scope', async () => {
    expect(Object.keys(await tokenResponseViaHttp(sandbox()))).toEqual([
      'access_token',
      'refresh_token',
      'token_type',
      'expires_in',
      'scope',
    ])
  })

  it('camel: accessToken, refreshToken, tokenType and expiresIn', async () => {
    sandbox().setBehaviours({ tokenStyle: 'camel' })
    expect(await tokenResponseViaHttp(sandbox())).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
    })
  })

  it('wrapped: code 0, message success and the tokens under data', async () => {
    sandbox().setBehaviours({ tokenStyle: 'wrapped' })
    expect(await tokenResponseViaHttp(sandbox())).toEqual({
      code: 0,
      message: 'success',
      data: { accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 3600 },
    })
  })

  it('no-expiry: camel case without any expiry field', async () => {
    sandbox().setBehaviours({ tokenStyle: 'no-expiry' })
    expect(await tokenResponseViaHttp(sandbox())).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
    })
  })

  it('no-expiry tokens still expire after the TTL, so only a 401 tells the client', async () => {
    sandbox().setBehaviours({ tokenStyle: 'no-expiry', accessTokenTtlSeconds: 1 })
    // The sandbox's grants read Date.now on every call: the test moves the clock past the TTL.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const body = await tokenResponseViaHttp(sandbox())
      expect((await getList(sandbox(), String(body.accessToken))).status).toBe(200)
      vi.advanceTimersByTime(1_001)
      expect((await getList(sandbox(), String(body.accessToken))).status).toBe(401)
    } finally {
      vi.useRealTimers()
    }
  })

  it('unrecognised: a shape no client can know, {"result":{"tkn":"…"}}', async () => {
    sandbox().setBehaviours({ tokenStyle: 'unrecognised' })
    const body = await tokenResponseViaHttp(sandbox())
    expect(body).toEqual({ result: { tkn: expect.any(String) } })
  })

  it('uses the current style on refresh too', async () => {
    const { refreshToken } = sandbox().issueTokens()
    sandbox().setBehaviours({ tokenStyle: 'wrapped' })
    expect(await refresh(refreshToken)).toMatchObject({ code: 0, data: { refreshToken: expect.any(String) } })
  })

  it('reports accessTokenTtlSeconds as the expiry', async () => {
    sandbox().setBehaviours({ accessTokenTtlSeconds: 2 })
    expect((await tokenResponseViaHttp(sandbox())).expires_in).toBe(2)
  })
})

describe('switchable behaviours: the list', () => {
  const sandbox = useTestSandbox({ size: 3000 })
  afterEach(() => sandbox().setBehaviours({ ...DEFAULT_BEHAVIOURS, faults: DEFAULT_BEHAVIOURS.faults }))
  const token = () => sandbox().issueTokens().accessToken

  it('clamps limit to maxPageSize and shows the size used in the envelope', async () => {
    expect(await listOk(sandbox(), token(), { limit: 5000 })).toMatchObject({ limit: 1000, totalPages: 3 })
    sandbox().setBehaviours({ maxPageSize: 50 })
    const envelope = await listOk(sandbox(), token(), { limit: 200, page: 2 })
    expect(envelope).toMatchObject({ limit: 50, totalPages: 60, currentPage: 2 })
    expect(envelope.rows).toHaveLength(50)
  })

  it('has no maximum when maxPageSize is null', async () => {
    sandbox().setBehaviours({ maxPageSize: null })
    expect(await listOk(sandbox(), token(), { limit: 3000 })).toMatchObject({ limit: 3000, totalPages: 1 })
  })

  it('uses defaultPageSize when limit is absent', async () => {
    sandbox().setBehaviours({ defaultPageSize: 7 })
    const envelope = await listOk(sandbox(), token())
    expect(envelope).toMatchObject({ limit: 7, totalPages: Math.ceil(3000 / 7) })
    expect(envelope.rows).toHaveLength(7)
  })

  it('adds latencyMs before every list response', async () => {
    sandbox().setBehaviours({ latencyMs: 300 })
    const started = performance.now()
    await getList(sandbox(), token())
    await getList(sandbox(), null)
    expect(performance.now() - started).toBeGreaterThanOrEqual(580)
  })

  it('rate limits with 429, a Retry-After header and a JSON error body', async () => {
    sandbox().setBehaviours({ faults: { rateLimit: 1, rateLimitRetryAfterSeconds: 7 } })
    const response = await getList(sandbox(), token())
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('7')
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(JSON.parse(response.text)).toMatchObject({ error: 'rate_limited' })
  })

  it('fails with an HTML 502 or 503 like a proxy error page', async () => {
    sandbox().setBehaviours({ faults: { serverErrorHtml: 1 } })
    const statuses = new Set<number>()
    for (let i = 0; i < 12; i++) {
      const response = await getList(sandbox(), token())
      statuses.add(response.status)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(response.text).toMatch(/^<html>/)
    }
    expect(statuses).toEqual(new Set([502, 503]))
  })

  it('truncates a 200 JSON body part-way through', async () => {
    sandbox().setBehaviours({ faults: { truncatedJson: 1 } })
    const truncated = await getList(sandbox(), token(), { limit: 30 })
    sandbox().setBehaviours({ faults: { truncatedJson: 0 } })
    const whole = await getList(sandbox(), token(), { limit: 30 })
    expect(truncated.status).toBe(200)
    expect(truncated.headers.get('content-type')).toMatch(/^application\/json/)
    expect(() => JSON.parse(truncated.text) as unknown).toThrow()
    expect(truncated.text.length).toBeLessThan(whole.text.length)
    expect(whole.text.startsWith(truncated.text)).toBe(true)
  })

  it('injects faults only after authentication and counts them', async () => {
    sandbox().setBehaviours({ faults: { rateLimit: 1 } })
    const before = sandbox().stats().faultsInjected
    expect((await getList(sandbox(), null)).status).toBe(401)
    expect((await getList(sandbox(), token())).status).toBe(429)
    expect(sandbox().stats().faultsInjected).toBe(before + 1)
  })

  it('accepts a partial faults patch and keeps the other fault settings', () => {
    sandbox().setBehaviours({ faults: { rateLimit: 0.25 } })
    sandbox().setBehaviours({ faults: { truncatedJson: 0.5 } })
    expect(sandbox().behaviours.faults).toEqual({
      rateLimit: 0.25,
      rateLimitRetryAfterSeconds: 1,
      serverErrorHtml: 0,
      truncatedJson: 0.5,
    })
  })

  it('rejects an invalid behaviour and changes nothing', () => {
    expect(() => sandbox().setBehaviours({ maxPageSize: 0 })).toThrow(RangeError)
    expect(() => sandbox().setBehaviours({ latencyMs: 10, faults: { rateLimit: 2 } })).toThrow(RangeError)
    expect(sandbox().behaviours.latencyMs).toBe(0)
  })

  it('hands out a snapshot of the behaviours that cannot change the server', () => {
    const snapshot = sandbox().behaviours
    snapshot.faults.rateLimit = 1
    expect(sandbox().behaviours.faults.rateLimit).toBe(0)
  })
})

describe('switchable behaviours: churn while paging', () => {
  let sandbox: SandboxHandle
  afterEach(async () => sandbox.close())

  it('makes a client paging by offset see repeats and miss rows, then settles', async () => {
    sandbox = await startTestSandbox({
      size: 200,
      behaviours: { churn: { add: 5, remove: 2, listRequests: 4 } },
    })
    const token = sandbox.issueTokens().accessToken
    const seen: string[] = []
    for (let page = 1; page <= 4; page++) {
      seen.push(...(await listOk(sandbox, token, { page, limit: 25 })).rows.map((row) => row.UUID))
    }
    expect(sandbox.employeeCount()).toBe(200 + 4 * 5 - 4 * 2)
    expect(new Set(seen).size).toBeLessThan(seen.length)
    const firstHundred = sandbox
      .allEmployees()
      .slice(0, 100)
      .map((row) => String(row.UUID))
    expect(firstHundred.filter((uuid) => !seen.includes(uuid)).length).toBeGreaterThan(0)

    const settled = await listOk(sandbox, token, { limit: 1000 })
    expect((await listOk(sandbox, token, { limit: 1000 })).rows).toEqual(settled.rows)
    expect(settled.totalCount).toBe(212)
    expect(settled.rows.map((row) => row.UUID)).toEqual(sandbox.allEmployees().map((row) => row.UUID))
  })

  it('counts churn requests from when churn was set', async () => {
    sandbox = await startTestSandbox({ size: 100 })
    const token = sandbox.issueTokens().accessToken
    await listOk(sandbox, token)
    sandbox.setBehaviours({ churn: { add: 3, remove: 1, listRequests: 2 } })
    for (let i = 0; i < 4; i++) await listOk(sandbox, token)
    expect(sandbox.employeeCount()).toBe(100 + 2 * 3 - 2 * 1)
  })

  it('gives added employees valid rows from the same generator', async () => {
    sandbox = await startTestSandbox({
      size: 10,
      behaviours: { churn: { add: 2, remove: 0, listRequests: 1 } },
    })
    const envelope = await listOk(sandbox, sandbox.issueTokens().accessToken, { limit: 2 })
    expect(envelope.rows.map((row) => row.employeeNumber)).toEqual(['0000012', '0000011'])
  })
})

describe('switchable behaviours: mutate between syncs', () => {
  let sandbox: SandboxHandle
  afterEach(async () => sandbox.close())

  const byUuid = (rows: readonly EmployeeRow[]): Map<string, EmployeeRow> =>
    new Map(rows.map((row) => [row.UUID, row]))

  it('moves the status and pay cycle of that many employees on, and nothing else, on the next list request', async () => {
    sandbox = await startTestSandbox({ size: 300, seed: 4 })
    const token = sandbox.issueTokens().accessToken
    const before = byUuid((await listOk(sandbox, token, { limit: 1000 })).rows)
    sandbox.setBehaviours({ mutate: { rows: 12, listRequests: 1 } })
    const after = (await listOk(sandbox, token, { limit: 1000 })).rows

    // The same employees in the same order: only fields changed.
    expect(after.map((row) => row.UUID)).toEqual([...before.keys()])
    const changed = after.filter((row) => JSON.stringify(row) !== JSON.stringify(before.get(row.UUID)))
    expect(changed).toHaveLength(12)
    for (const row of changed) {
      const old = before.get(row.UUID)!
      const fields = Object.keys(row) as Array<keyof EmployeeRow>
      const differing = fields.filter((key) => row[key] !== old[key])
      expect(differing.sort()).toEqual(['employeeStatus', 'payCycleId'])
    }
    // Spread over the list, not only its first page.
    expect(Math.max(...changed.map((row) => after.indexOf(row)))).toBeGreaterThan(100)
    // Only the next request mutated: the list now stays as it is.
    expect((await listOk(sandbox, token, { limit: 1000 })).rows).toEqual(after)
  })

  it('serves the mutated values to filters too, so a pay-cycle list agrees with the rows', async () => {
    sandbox = await startTestSandbox({
      size: 200,
      seed: 9,
      behaviours: { mutate: { rows: 50, listRequests: 1 } },
    })
    const token = sandbox.issueTokens().accessToken
    const all = (await listOk(sandbox, token, { limit: 1000 })).rows
    const cycle = await listOk(sandbox, token, { limit: 1000, payCycleId: 'PC-2026-11-A' })
    expect(cycle.rows.map((row) => row.UUID)).toEqual(
      all.filter((row) => row.payCycleId === 'PC-2026-11-A').map((row) => row.UUID),
    )
  })

  it('rejects a negative count and reports the setting back', () => {
    return withSandbox({ size: 5 }, async (s) => {
      expect(() => s.setBehaviours({ mutate: { rows: -1, listRequests: 1 } })).toThrow(RangeError)
      s.setBehaviours({ mutate: { rows: 2, listRequests: 3 } })
      expect(s.behaviours.mutate).toEqual({ rows: 2, listRequests: 3 })
    })
  })
})

describe('determinism by seed', () => {
  const parses = (text: string): boolean => {
    try {
      JSON.parse(text)
      return true
    } catch {
      return false
    }
  }
  const statusSequence = async (seed: number): Promise<number[]> =>
    withSandbox(
      {
        seed,
        size: 30,
        behaviours: { faults: { rateLimit: 0.2, serverErrorHtml: 0.2, truncatedJson: 0.2 } },
      },
      async (s) => {
        const token = s.issueTokens().accessToken
        const statuses: number[] = []
        for (let i = 0; i < 30; i++) {
          const response = await getList(s, token)
          statuses.push(response.status === 200 && !parses(response.text) ? -200 : response.status)
        }
        return statuses
      },
    )

  it('serves the same employees for the same seed', async () => {
    const a = await withSandbox({ seed: 5, size: 300 }, async (s) =>
      listOk(s, s.issueTokens().accessToken, { limit: 300 }),
    )
    const b = await withSandbox({ seed: 5, size: 300 }, async (s) =>
      listOk(s, s.issueTokens().accessToken, { limit: 300 }),
    )
    const c = await withSandbox({ seed: 6, size: 300 }, async (s) =>
      listOk(s, s.issueTokens().accessToken, { limit: 300 }),
    )
    expect(a.rows).toEqual(b.rows)
    expect(c.rows).not.toEqual(a.rows)
  })

  it('injects the same fault sequence for the same seed', async () => {
    const first = await statusSequence(9)
    expect(await statusSequence(9)).toEqual(first)
    expect(new Set(first)).toEqual(new Set([200, -200, 429, 502, 503]))
    expect(await statusSequence(10)).not.toEqual(first)
  })
})
