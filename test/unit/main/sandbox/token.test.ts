import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseCliArgs, UsageError } from '../../../../src/main/sandbox/cli-args'
import { approveViaHttp, useTestSandbox } from '../../../helpers/sandbox'
import { codeExchangeBody, getList, postJson, refreshBody } from '../../../helpers/sandbox-requests'

/** Java's Long.MAX_VALUE, a common "never expires", as a double holds it (2^63). */
const LONG_MAX = Number('9223372036854775807')

describe('POST /openapi/oauthv1/token: code exchange (spec §4.2, §5)', () => {
  const sandbox = useTestSandbox()
  const tokenUrl = () => `${sandbox().baseUrl}/openapi/oauthv1/token`
  afterEach(() => vi.useRealTimers())

  it('exchanges a code sent as JSON for an access and a refresh token', async () => {
    const { code } = await approveViaHttp(sandbox())
    const response = await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'read',
    })
  })

  it('issues an access token that opens /employees/list', async () => {
    const { code } = await approveViaHttp(sandbox())
    const { body } = await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))
    expect((await getList(sandbox(), String(body.access_token))).status).toBe(200)
  })

  it('grants the scopes that were approved', async () => {
    const { code } = await approveViaHttp(sandbox(), { scope: 'write,read' })
    expect((await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))).body.scope).toBe('write read')
  })

  it('accepts a code only once', async () => {
    const { code } = await approveViaHttp(sandbox())
    expect((await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))).status).toBe(200)
    const again = await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ error: 'invalid_grant', error_description: expect.any(String) })
  })

  it('refuses a code older than 60 seconds', async () => {
    const { code } = await approveViaHttp(sandbox())
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 61_000)
    const response = await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))
    expect(response.status).toBe(400)
    expect(response.body.error).toBe('invalid_grant')
  })

  it('refuses a made-up code', async () => {
    const response = await postJson(tokenUrl(), codeExchangeBody(sandbox(), 'made-up'))
    expect(response).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  it('refuses a redirectUri other than the one the code was issued for', async () => {
    const { code } = await approveViaHttp(sandbox(), { redirectUri: 'http://127.0.0.1:4000/callback' })
    const response = await postJson(
      tokenUrl(),
      codeExchangeBody(sandbox(), code, 'http://127.0.0.1:4001/callback'),
    )
    expect(response).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  it('answers 401 invalid_client for a wrong secret', async () => {
    const { code } = await approveViaHttp(sandbox())
    const response = await postJson(tokenUrl(), {
      ...codeExchangeBody(sandbox(), code),
      clientSecret: 'guess',
    })
    expect(response).toMatchObject({ status: 401, body: { error: 'invalid_client' } })
  })

  it('answers 401 invalid_client for an unknown client', async () => {
    const { code } = await approveViaHttp(sandbox())
    const response = await postJson(tokenUrl(), {
      ...codeExchangeBody(sandbox(), code),
      clientId: 'other-app',
    })
    expect(response).toMatchObject({ status: 401, body: { error: 'invalid_client' } })
  })

  it('does not burn the code when client authentication fails', async () => {
    const { code } = await approveViaHttp(sandbox())
    await postJson(tokenUrl(), { ...codeExchangeBody(sandbox(), code), clientSecret: 'guess' })
    expect((await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))).status).toBe(200)
  })

  it('answers 400 unsupported_grant_type for a grantType other than authorization_code', async () => {
    const { code } = await approveViaHttp(sandbox())
    const response = await postJson(tokenUrl(), {
      ...codeExchangeBody(sandbox(), code),
      grantType: 'password',
    })
    expect(response).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } })
  })

  it('answers 400 invalid_request when a field is missing', async () => {
    const { code } = await approveViaHttp(sandbox())
    for (const field of ['code', 'clientId', 'clientSecret', 'redirectUri', 'grantType']) {
      const body = Object.fromEntries(
        Object.entries(codeExchangeBody(sandbox(), code)).filter(([name]) => name !== field),
      )
      expect(await postJson(tokenUrl(), body)).toMatchObject({
        status: 400,
        body: { error: 'invalid_request' },
      })
    }
  })

  it('answers 400 to a form-encoded body: the spec says JSON', async () => {
    const { code } = await approveViaHttp(sandbox())
    const form = new URLSearchParams(codeExchangeBody(sandbox(), code)).toString()
    const response = await postJson(tokenUrl(), form, 'application/x-www-form-urlencoded')
    expect(response).toMatchObject({ status: 400, body: { error: 'invalid_request' } })
  })

  it('answers 400 to a body that is not valid JSON', async () => {
    expect(await postJson(tokenUrl(), '{"code": ')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    })
    expect(await postJson(tokenUrl(), '[1,2]')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    })
  })
})

describe('POST /openapi/oauth/token: refresh (spec §4.3, §5)', () => {
  const sandbox = useTestSandbox()
  const refreshUrl = () => `${sandbox().baseUrl}/openapi/oauth/token`
  afterEach(() => sandbox().setBehaviours({ refreshTokenOnRefresh: true, rejectRefresh: false }))

  it('lives at /openapi/oauth/token, not under oauthv1', async () => {
    const { refreshToken } = sandbox().issueTokens()
    expect((await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))).status).toBe(200)
    const wrong = await postJson(
      `${sandbox().baseUrl}/openapi/oauthv1/token`,
      refreshBody(sandbox(), refreshToken),
    )
    expect(wrong.status).toBe(400)
  })

  it('answers grantType authorization_code plus refreshToken with a new working access token', async () => {
    const { refreshToken } = sandbox().issueTokens()
    const response = await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))
    expect(response.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'read',
    })
    expect((await getList(sandbox(), String(response.body.access_token))).status).toBe(200)
  })

  it('renews an expired access token without the user', async () => {
    const { accessToken, refreshToken } = sandbox().issueTokens()
    sandbox().expireAccessTokens()
    expect((await getList(sandbox(), accessToken)).status).toBe(401)
    const { body } = await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))
    expect((await getList(sandbox(), String(body.access_token))).status).toBe(200)
  })

  it('rotates the refresh token: the old one stops working', async () => {
    const { refreshToken } = sandbox().issueTokens()
    const first = await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))
    expect(first.body.refresh_token).not.toBe(refreshToken)
    expect(await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
    expect(
      (await postJson(refreshUrl(), refreshBody(sandbox(), String(first.body.refresh_token)))).status,
    ).toBe(200)
  })

  it('with refreshTokenOnRefresh off, omits the refresh token and keeps the old one valid', async () => {
    sandbox().setBehaviours({ refreshTokenOnRefresh: false })
    const { refreshToken } = sandbox().issueTokens()
    const first = await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))
    expect(first.status).toBe(200)
    expect(first.body).not.toHaveProperty('refresh_token')
    expect((await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))).status).toBe(200)
  })

  it('with rejectRefresh on, answers 400 invalid_grant', async () => {
    sandbox().setBehaviours({ rejectRefresh: true })
    const { refreshToken } = sandbox().issueTokens()
    expect(await postJson(refreshUrl(), refreshBody(sandbox(), refreshToken))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
  })

  it('refuses an unknown refresh token with 400 invalid_grant', async () => {
    expect(await postJson(refreshUrl(), refreshBody(sandbox(), 'unknown'))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
  })

  it('refuses grantType refresh_token: the spec sends authorization_code', async () => {
    const { refreshToken } = sandbox().issueTokens()
    const body = { ...refreshBody(sandbox(), refreshToken), grantType: 'refresh_token' }
    expect(await postJson(refreshUrl(), body)).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    })
  })

  it('refuses a wrong client secret with 401 invalid_client', async () => {
    const { refreshToken } = sandbox().issueTokens()
    const body = { ...refreshBody(sandbox(), refreshToken), clientSecret: 'nope' }
    expect(await postJson(refreshUrl(), body)).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    })
  })

  it('refuses an unregistered redirectUri', async () => {
    const { refreshToken } = sandbox().issueTokens()
    const body = { ...refreshBody(sandbox(), refreshToken), redirectUri: 'https://evil.example/cb' }
    expect(await postJson(refreshUrl(), body)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
  })

  it('refuses a missing refreshToken with 400 invalid_request', async () => {
    const body: Record<string, string> = refreshBody(sandbox(), 'x')
    delete body.refreshToken
    expect(await postJson(refreshUrl(), body)).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    })
  })
})

describe('odd sign-in answers (issue 32): each bends what the token endpoints answer', () => {
  const sandbox = useTestSandbox()
  const tokenUrl = () => `${sandbox().baseUrl}/openapi/oauthv1/token`
  const refreshUrl = () => `${sandbox().baseUrl}/openapi/oauth/token`
  afterEach(() =>
    sandbox().setBehaviours({
      tokenExpiresInJson: null,
      tokenCharacters: null,
      refreshErrorIn200: false,
      exchangeNotJson: false,
      refreshRedirect: false,
    }),
  )

  /** The refresh answer's text, as sent. */
  async function refreshText(): Promise<{ status: number; headers: Headers; text: string }> {
    const { refreshToken } = sandbox().issueTokens()
    const response = await fetch(refreshUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(refreshBody(sandbox(), refreshToken)),
      redirect: 'manual',
    })
    return { status: response.status, headers: response.headers, text: await response.text() }
  }

  it('serves the lifetime as the JSON text given, every digit kept, to both endpoints', async () => {
    sandbox().setBehaviours({ tokenExpiresInJson: '9223372036854775807' })
    expect((await refreshText()).text).toContain('"expires_in":9223372036854775807,')
    const { code } = await approveViaHttp(sandbox())
    expect((await postJson(tokenUrl(), codeExchangeBody(sandbox(), code))).body.expires_in).toBe(LONG_MAX)
    sandbox().setBehaviours({ tokenExpiresInJson: '"3600"', tokenStyle: 'wrapped' })
    expect(JSON.parse((await refreshText()).text)).toMatchObject({ data: { expiresIn: '3600' } })
    sandbox().setBehaviours({ tokenStyle: 'snake' })
  })

  it('puts the characters given into the middle of the access or the refresh token served', async () => {
    sandbox().setBehaviours({ tokenCharacters: { token: 'access', insert: '\r\n' } })
    const access = JSON.parse((await refreshText()).text) as Record<string, string>
    expect(access.access_token).toMatch(/^[A-Za-z0-9_-]+\r\n[A-Za-z0-9_-]+$/)
    expect(access.refresh_token).toMatch(/^[A-Za-z0-9_-]+$/)
    sandbox().setBehaviours({ tokenCharacters: { token: 'refresh', insert: 'é' } })
    const refresh = JSON.parse((await refreshText()).text) as Record<string, string>
    expect(refresh.refresh_token).toMatch(/^[A-Za-z0-9_-]+é[A-Za-z0-9_-]+$/)
    expect(refresh.access_token).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it('answers a refresh 200 with invalid_grant and no tokens, or 303 to its single sign-on page', async () => {
    sandbox().setBehaviours({ refreshErrorIn200: true })
    const refused = await refreshText()
    expect(refused.status).toBe(200)
    expect(JSON.parse(refused.text)).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token has been revoked',
    })
    sandbox().setBehaviours({ refreshErrorIn200: false, refreshRedirect: true })
    const redirected = await refreshText()
    expect(redirected.status).toBe(303)
    const page = await fetch(new URL(redirected.headers.get('location') ?? '', sandbox().baseUrl))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it('answers a code exchange with a web page instead of JSON', async () => {
    sandbox().setBehaviours({ exchangeNotJson: true })
    const { code } = await approveViaHttp(sandbox())
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(codeExchangeBody(sandbox(), code)),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await response.text()).toContain('<title>Service unavailable</title>')
  })

  it('refuses a lifetime that is not JSON and an empty insert, changing nothing', () => {
    expect(() => sandbox().setBehaviours({ tokenExpiresInJson: 'never' })).toThrow(RangeError)
    expect(() => sandbox().setBehaviours({ tokenCharacters: { token: 'access', insert: '' } })).toThrow(
      RangeError,
    )
    expect(sandbox().behaviours.tokenExpiresInJson).toBeNull()
  })

  it('is set from the command line too', () => {
    expect(
      parseCliArgs([
        '--token-expires-in=9223372036854775807',
        '--token-characters=access:\\r\\nX: 1',
        '--refresh-error-in-200',
        '--exchange-not-json',
        '--refresh-redirect',
      ]),
    ).toMatchObject({
      behaviours: {
        tokenExpiresInJson: '9223372036854775807',
        tokenCharacters: { token: 'access', insert: '\r\nX: 1' },
        refreshErrorIn200: true,
        exchangeNotJson: true,
        refreshRedirect: true,
      },
    })
    expect(() => parseCliArgs(['--token-characters=id:x'])).toThrow(UsageError)
    expect(() => parseCliArgs(['--token-characters=refresh:'])).toThrow(UsageError)
  })
})
