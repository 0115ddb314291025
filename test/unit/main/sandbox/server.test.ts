import { describe, expect, it } from 'vitest'
import { DEFAULT_BEHAVIOURS, startSandbox } from '../../../../src/main/sandbox/index'
import { approveViaHttp, tokenResponseViaHttp, useTestSandbox, withSandbox } from '../../../helpers/sandbox'
import { getList, postJson, refreshBody } from '../../../helpers/sandbox-requests'

describe('the sandbox server', () => {
  const sandbox = useTestSandbox({ size: 120 })

  it('listens on 127.0.0.1 with an ephemeral port by default', () => {
    expect(sandbox().baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('exposes the default credentials, the first redirect URI and the tenant', () => {
    expect(sandbox().credentials).toEqual({
      clientId: 'rosterdesk-demo',
      clientSecret: 'rosterdesk-demo-secret',
      redirectUri: 'com.rosterdesk.app:/oauth/callback',
      tenantId: 'tenant-demo',
    })
  })

  it('starts with the documented default behaviours', () => {
    expect(sandbox().behaviours).toEqual(DEFAULT_BEHAVIOURS)
    expect(DEFAULT_BEHAVIOURS).toMatchObject({
      tokenStyle: 'snake',
      accessTokenTtlSeconds: 3600,
      refreshTokenOnRefresh: true,
      rejectRefresh: false,
      maxPageSize: 1000,
      defaultPageSize: 20,
      latencyMs: 0,
      tenantRequired: false,
      churn: null,
    })
  })

  it('answers 404 with a JSON body for unknown paths', async () => {
    for (const path of ['/', '/employees', '/employees/list/', '/customers/list', '/openapi/oauthv2/token']) {
      const response = await fetch(`${sandbox().baseUrl}${path}`)
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: 'not_found' })
    }
  })

  it('answers 405 with an Allow header for a wrong method', async () => {
    const list = await fetch(`${sandbox().baseUrl}/employees/list`, { method: 'POST' })
    expect(list.status).toBe(405)
    expect(list.headers.get('allow')).toBe('GET')
    const token = await fetch(`${sandbox().baseUrl}/openapi/oauthv1/token`)
    expect(token.status).toBe(405)
    expect(token.headers.get('allow')).toBe('POST')
    expect(await token.json()).toMatchObject({ error: 'method_not_allowed' })
  })

  it('counts requests, list requests, code exchanges and refreshes', async () => {
    const before = sandbox().stats()
    const tokens = await tokenResponseViaHttp(sandbox())
    await getList(sandbox(), String(tokens.access_token), { page: 3, limit: 10 })
    await getList(sandbox(), null)
    await postJson(
      `${sandbox().baseUrl}/openapi/oauth/token`,
      refreshBody(sandbox(), String(tokens.refresh_token)),
    )
    const after = sandbox().stats()
    expect(after.requests - before.requests).toBe(6)
    expect(after.listRequests - before.listRequests).toBe(2)
    // By page as asked for, refused requests too (no page parameter counts as page 1).
    expect((after.listPages['3'] ?? 0) - (before.listPages['3'] ?? 0)).toBe(1)
    expect((after.listPages['1'] ?? 0) - (before.listPages['1'] ?? 0)).toBe(1)
    expect(after.codeExchanges - before.codeExchanges).toBe(1)
    expect(after.refreshes - before.refreshes).toBe(1)
  })

  it('lists every current employee in default order for tests', () => {
    const rows = sandbox().allEmployees()
    expect(rows).toHaveLength(120)
    expect(sandbox().employeeCount()).toBe(120)
    expect(rows[0]?.employeeNumber).toBe('0000001')
  })
})

describe('sandbox lifetime and logging', () => {
  it('closes itself after lifetimeMs', async () => {
    const sandbox = await startSandbox({ lifetimeMs: 200 })
    expect((await fetch(`${sandbox.baseUrl}/employees/list`)).status).toBe(401)
    await expect
      .poll(() =>
        fetch(`${sandbox.baseUrl}/employees/list`).then(
          () => 'answered',
          () => 'closed',
        ),
      )
      .toBe('closed')
    await sandbox.close()
  })

  it('can be closed twice', async () => {
    const sandbox = await startSandbox()
    await sandbox.close()
    await expect(sandbox.close()).resolves.toBeUndefined()
  })

  it('rejects nonsense options', async () => {
    await expect(startSandbox({ size: -1 })).rejects.toThrow(RangeError)
    await expect(startSandbox({ behaviours: { tokenStyle: 'xml' as never } })).rejects.toThrow(RangeError)
  })

  it('logs one line per request without secrets, tokens, codes or states', async () => {
    const lines: string[] = []
    await withSandbox({ log: (line) => lines.push(line) }, async (sandbox) => {
      const { code, state } = await approveViaHttp(sandbox, { state: 'secret-state-value' })
      const { clientId, clientSecret, redirectUri } = sandbox.credentials
      const tokenResponse = await postJson(`${sandbox.baseUrl}/openapi/oauthv1/token`, {
        code,
        clientId,
        clientSecret,
        redirectUri,
        grantType: 'authorization_code',
      })
      const accessToken = String(tokenResponse.body.access_token)
      const refreshToken = String(tokenResponse.body.refresh_token)
      await getList(sandbox, accessToken, { searchCol: 'lastName', searchVal: 'Smith' })
      const log = lines.join('\n')
      expect(lines).toHaveLength(4)
      expect(lines[3]).toMatch(/^GET \/employees\/list 200 \d+ms$/)
      for (const secret of [clientSecret, code, state, accessToken, refreshToken, 'Smith']) {
        expect(log).not.toContain(secret)
      }
    })
  })
})
