import { afterEach, describe, expect, it, vi } from 'vitest'
import { useTestSandbox } from '../../../helpers/sandbox'
import { getList } from '../../../helpers/sandbox-requests'

describe('GET /employees/list: authentication and tenant headers (spec §5)', () => {
  const sandbox = useTestSandbox({ size: 50, tenantId: 'tenant-x' })
  afterEach(() => sandbox().setBehaviours({ tenantRequired: false, accessTokenTtlSeconds: 3600 }))

  const expectInvalidToken = (response: { status: number; headers: Headers; text: string }) => {
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    expect(JSON.parse(response.text)).toMatchObject({ error: 'invalid_token' })
  }

  it('refuses a request without an Authorization header', async () => {
    expectInvalidToken(await getList(sandbox(), null))
  })

  it('refuses an Authorization header that is not a Bearer token', async () => {
    const { accessToken } = sandbox().issueTokens()
    expectInvalidToken(await getList(sandbox(), null, {}, { authorization: `Basic ${accessToken}` }))
  })

  it('refuses an unknown token', async () => {
    expectInvalidToken(await getList(sandbox(), 'not-a-token'))
  })

  it('accepts a valid Bearer token', async () => {
    const { accessToken } = sandbox().issueTokens()
    expect((await getList(sandbox(), accessToken)).status).toBe(200)
  })

  it('checks the token before validating query parameters', async () => {
    expectInvalidToken(await getList(sandbox(), null, { page: 'x' }))
  })

  it('refuses an access token once its lifetime has passed', async () => {
    sandbox().setBehaviours({ accessTokenTtlSeconds: 1 })
    // The sandbox's grants read Date.now on every call: the test moves the clock past the lifetime.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const { accessToken, expiresIn } = sandbox().issueTokens()
      expect(expiresIn).toBe(1)
      expect((await getList(sandbox(), accessToken)).status).toBe(200)
      vi.advanceTimersByTime(999)
      expect((await getList(sandbox(), accessToken)).status).toBe(200)
      vi.advanceTimersByTime(2)
      expectInvalidToken(await getList(sandbox(), accessToken))
    } finally {
      vi.useRealTimers()
    }
  })

  it('refuses every earlier access token after expireAccessTokens()', async () => {
    const first = sandbox().issueTokens().accessToken
    const second = sandbox().issueTokens().accessToken
    sandbox().expireAccessTokens()
    expectInvalidToken(await getList(sandbox(), first))
    expectInvalidToken(await getList(sandbox(), second))
    expect((await getList(sandbox(), sandbox().issueTokens().accessToken)).status).toBe(200)
  })

  it('accepts the correct vnd.a1.tenant-id', async () => {
    const { accessToken } = sandbox().issueTokens()
    expect((await getList(sandbox(), accessToken, {}, { 'vnd.a1.tenant-id': 'tenant-x' })).status).toBe(200)
  })

  it('refuses a wrong vnd.a1.tenant-id with 403 tenant_forbidden', async () => {
    const { accessToken } = sandbox().issueTokens()
    const response = await getList(sandbox(), accessToken, {}, { 'vnd.a1.tenant-id': 'tenant-y' })
    expect(response.status).toBe(403)
    expect(JSON.parse(response.text)).toMatchObject({
      error: 'tenant_forbidden',
      message: expect.any(String),
    })
  })

  it('allows a missing tenant header by default', async () => {
    const { accessToken } = sandbox().issueTokens()
    expect((await getList(sandbox(), accessToken)).status).toBe(200)
  })

  it('refuses a missing tenant header when tenantRequired is on', async () => {
    sandbox().setBehaviours({ tenantRequired: true })
    const { accessToken } = sandbox().issueTokens()
    const response = await getList(sandbox(), accessToken)
    expect(response.status).toBe(403)
    expect(JSON.parse(response.text)).toMatchObject({ error: 'tenant_forbidden' })
    expect((await getList(sandbox(), accessToken, {}, { 'vnd.a1.tenant-id': 'tenant-x' })).status).toBe(200)
  })

  it('does not insist on an Accept header', async () => {
    const { accessToken } = sandbox().issueTokens()
    const response = await fetch(`${sandbox().baseUrl}/employees/list`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: '*/*' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  })
})
