import { describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../../../src/main/core/api/fetch-like'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { TOKEN_ANSWER_MAX_BYTES } from '../../../../../src/main/core/auth/token-endpoint'
import { TokenManager, readStoredTokens } from '../../../../../src/main/core/auth/token-manager'
import { CaptureLogger } from '../../../../helpers/capture-logger'
import { FakeClock } from '../../../../helpers/fake-clock'

/** Java's Long.MAX_VALUE, a common "never expires", as a double holds it (2^63). */
const LONG_MAX = Number('9223372036854775807')

const ENV = {
  baseUrl: 'https://payroll.example',
  clientId: 'client-1',
  redirectUri: 'com.rosterdesk.app:/oauth/callback',
}

type Mode = 'ok' | 'reject' | 'wrong-client' | 'bomb' | 'network' | 'server-error'

/** A token endpoint in a function: counts refreshes, can refuse, fail or hold answers until released. */
function fakeTokenService() {
  const calls: { url: string; body: Record<string, unknown> }[] = []
  let issued = 0
  const service = {
    calls,
    mode: 'ok' as Mode,
    rotate: true,
    expiresIn: 3600 as number | undefined,
    hold: undefined as Promise<void> | undefined,
    /** Bytes a 'bomb' answer handed out before the reader stopped. */
    bombBytes: 0,
    fetch: (async (url, init) => {
      calls.push({ url, body: JSON.parse(String(init?.body)) as Record<string, unknown> })
      if (service.hold) await service.hold
      if (service.mode === 'network') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })
      if (service.mode === 'server-error') return new Response('<html>oops</html>', { status: 503 })
      if (service.mode === 'bomb') {
        // An answer that never ends, as a decompressed bomb reads: 64 KB of JSON-looking text a chunk.
        const chunk = new TextEncoder().encode(`{"accessToken":"${'a'.repeat(64 * 1024)}`)
        return new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              service.bombBytes += chunk.byteLength
              controller.enqueue(chunk)
            },
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        )
      }
      if (service.mode === 'wrong-client') {
        return Response.json({ error: 'invalid_client', error_description: 'bad secret' }, { status: 401 })
      }
      if (service.mode === 'reject') {
        return Response.json({ error: 'invalid_grant', error_description: 'revoked' }, { status: 400 })
      }
      issued++
      return Response.json({
        accessToken: `access-${issued}`,
        ...(service.rotate ? { refreshToken: `refresh-${issued}` } : {}),
        ...(service.expiresIn === undefined ? {} : { expiresIn: service.expiresIn }),
      })
    }) as FetchLike,
  }
  return service
}

async function setup(options: { expiresIn?: number; refreshToken?: string | null } = {}) {
  const clock = new FakeClock()
  const secrets = new MemorySecretStore()
  await secrets.set('clientSecret', 'client-secret-value')
  const service = fakeTokenService()
  const logger = new CaptureLogger()
  const signedOut: string[] = []
  let environment = ENV
  const manager = new TokenManager({
    fetch: service.fetch,
    clock,
    secrets,
    logger,
    environment: () => environment,
    clientSecret: () => secrets.get('clientSecret'),
    onSignedOut: (message) => signedOut.push(message),
  })
  await manager.store(
    {
      accessToken: 'access-0',
      ...(options.refreshToken === null ? {} : { refreshToken: options.refreshToken ?? 'refresh-0' }),
      ...('expiresIn' in options
        ? options.expiresIn === undefined
          ? {}
          : { expiresInSeconds: options.expiresIn }
        : { expiresInSeconds: 3600 }),
    },
    ENV,
  )
  const setEnvironment = (next: typeof ENV): void => {
    environment = next
  }
  return { clock, secrets, service, logger, signedOut, manager, setEnvironment }
}

async function failure(promise: Promise<unknown>): Promise<RosterDeskError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof RosterDeskError) return error
    throw error
  }
  throw new Error('expected a RosterDeskError')
}

const ALL_SECRETS = [
  'client-secret-value',
  'access-0',
  'access-1',
  'access-2',
  'refresh-0',
  'refresh-1',
  'refresh-2',
]

describe('TokenManager', () => {
  it('says not signed in when there are no tokens', async () => {
    const secrets = new MemorySecretStore()
    const manager = new TokenManager({
      fetch: fakeTokenService().fetch,
      clock: new FakeClock(),
      secrets,
      logger: new CaptureLogger(),
      environment: () => ENV,
      clientSecret: async () => 's',
      onSignedOut: () => undefined,
    })
    expect(await failure(manager.getAccessToken())).toMatchObject({
      code: 'not-signed-in',
      message: 'You are not signed in. Sign in to continue.',
    })
  })

  it('persists tokens with their expiry and hands out the access token while it is fresh', async () => {
    const { manager, secrets, clock, service } = await setup()
    expect(await manager.getAccessToken()).toBe('access-0')
    expect(await secrets.get('accessTokenExpiresAt')).toBe(String(clock.now() + 3_600_000))
    expect(await readStoredTokens(secrets)).toEqual({
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: clock.now() + 3_600_000,
      context: { baseUrl: ENV.baseUrl, clientId: ENV.clientId },
    })
    await clock.advance(3_600_000 - 61_000)
    expect(await manager.getAccessToken()).toBe('access-0')
    expect(service.calls).toHaveLength(0)
  })

  it('refreshes shortly before a known expiry, at /openapi/oauth/token with the spec JSON body', async () => {
    const { manager, secrets, clock, service, logger } = await setup()
    await clock.advance(3_600_000 - 60_000)
    expect(await manager.getAccessToken()).toBe('access-1')
    expect(service.calls).toEqual([
      {
        url: 'https://payroll.example/openapi/oauth/token',
        body: {
          clientId: 'client-1',
          clientSecret: 'client-secret-value',
          redirectUri: 'com.rosterdesk.app:/oauth/callback',
          grantType: 'authorization_code',
          refreshToken: 'refresh-0',
        },
      },
    ])
    expect(await secrets.get('accessToken')).toBe('access-1')
    expect(await secrets.get('refreshToken')).toBe('refresh-1')
    expect(await secrets.get('accessTokenExpiresAt')).toBe(String(clock.now() + 3_600_000))
    expect(logger.leaking(ALL_SECRETS)).toEqual([])
  })

  it('shares one refresh between concurrent callers', async () => {
    const { manager, clock, service } = await setup()
    await clock.advance(3_600_000)
    let release = (): void => undefined
    service.hold = new Promise((resolve) => (release = resolve))
    const callers = [
      manager.getAccessToken(),
      manager.getAccessToken(),
      manager.handleUnauthorized('access-0'),
      manager.handleUnauthorized('access-0'),
    ]
    release()
    expect(await Promise.all(callers)).toEqual(['access-1', 'access-1', 'access-1', 'access-1'])
    expect(service.calls).toHaveLength(1)
  })

  it('refreshes on 401 when the expiry is unknown, and only once for a token already replaced', async () => {
    const { manager, service } = await setup({ expiresIn: undefined })
    expect(await manager.getAccessToken()).toBe('access-0')
    expect(await manager.handleUnauthorized('access-0')).toBe('access-1')
    expect(await manager.handleUnauthorized('access-0')).toBe('access-1')
    expect(service.calls).toHaveLength(1)
  })

  it('keeps the old refresh token when the answer carries none', async () => {
    const { manager, secrets, service } = await setup()
    service.rotate = false
    await manager.handleUnauthorized('access-0')
    expect(await secrets.get('refreshToken')).toBe('refresh-0')
    service.expiresIn = undefined
    await manager.handleUnauthorized('access-1')
    expect(await secrets.get('accessTokenExpiresAt')).toBeUndefined()
    expect(service.calls.map((call) => call.body.refreshToken)).toEqual(['refresh-0', 'refresh-0'])
  })

  it('signs out cleanly when the service refuses the refresh', async () => {
    const { manager, secrets, service, signedOut, logger } = await setup()
    service.mode = 'reject'
    const error = await failure(manager.handleUnauthorized('access-0'))
    expect(error).toMatchObject({
      code: 'not-signed-in',
      message: 'Your sign-in has expired. Sign in again to continue.',
    })
    expect(signedOut).toEqual(['Your sign-in has expired. Sign in again to continue.'])
    for (const key of ['accessToken', 'refreshToken', 'accessTokenExpiresAt', 'tokenContext'] as const) {
      expect(await secrets.get(key)).toBeUndefined()
    }
    expect(await secrets.get('clientSecret')).toBe('client-secret-value')
    expect((await failure(manager.getAccessToken())).code).toBe('not-signed-in')
    // The log says why, with the refusal's detail, and holds no token.
    const signOut = logger.lines.find((line) => line.includes('signed out'))
    expect(signOut).toMatch(
      /^warn Sign-in: signed out because the service refused to renew the sign-in\n {2}RefreshRejectedError \[not-signed-in\]: .*\n {4}detail: refresh refused with HTTP 400\n/,
    )
    expect(logger.leaking(ALL_SECRETS)).toEqual([])
  })

  it('refuses a token answer larger than it accepts as it arrives, keeping the clerk signed in', async () => {
    const { manager, secrets, service, signedOut } = await setup()
    service.mode = 'bomb'
    expect(await failure(manager.handleUnauthorized('access-0'))).toMatchObject({
      code: 'service',
      message: expect.stringMatching(/sent an answer larger than 1 MB, more than RosterDesk accepts/),
    })
    // Read to just past the limit, then the stream is cancelled.
    expect(service.bombBytes).toBeLessThan(TOKEN_ANSWER_MAX_BYTES + 256 * 1024)
    expect(signedOut).toEqual([])
    expect(await secrets.get('refreshToken')).toBe('refresh-0')
  })

  it('keeps the clerk signed in, tokens and all, when the service refuses the client ID or secret', async () => {
    const { manager, secrets, service, signedOut } = await setup()
    service.mode = 'wrong-client'
    expect(await failure(manager.handleUnauthorized('access-0'))).toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/did not accept the client ID or client secret.*your sign-in is kept/),
    })
    expect(signedOut).toEqual([])
    expect(await secrets.get('refreshToken')).toBe('refresh-0')
    // The secret corrected, the same refresh token works.
    service.mode = 'ok'
    expect(await manager.handleUnauthorized('access-0')).toBe('access-1')
  })

  it('keeps the clerk signed in when the refresh fails on the network or the server', async () => {
    const { manager, secrets, service, signedOut } = await setup()
    service.mode = 'network'
    expect(await failure(manager.handleUnauthorized('access-0'))).toMatchObject({
      code: 'network',
      retryable: true,
    })
    service.mode = 'server-error'
    expect(await failure(manager.handleUnauthorized('access-0'))).toMatchObject({
      code: 'service',
      retryable: true,
    })
    expect(signedOut).toEqual([])
    expect(await secrets.get('accessToken')).toBe('access-0')
    service.mode = 'ok'
    expect(await manager.handleUnauthorized('access-0')).toBe('access-1')
  })

  it('signs out on a 401 when there is no refresh token to renew with', async () => {
    const { manager, signedOut, service } = await setup({ refreshToken: null, expiresIn: undefined })
    expect((await failure(manager.handleUnauthorized('access-0'))).code).toBe('not-signed-in')
    expect(signedOut).toHaveLength(1)
    expect(service.calls).toHaveLength(0)
  })

  it('never sends tokens to a different service address or client', async () => {
    const { manager, setEnvironment, service } = await setup()
    setEnvironment({ ...ENV, baseUrl: 'https://other.example' })
    const error = await failure(manager.getAccessToken())
    expect(error).toMatchObject({ code: 'not-signed-in' })
    expect(error.message).toMatch(/different service address/)
    expect((await failure(manager.handleUnauthorized('access-0'))).code).toBe('not-signed-in')
    expect(await manager.hasTokensForCurrentEnvironment()).toBe(false)
    setEnvironment({ ...ENV, baseUrl: 'https://payroll.example/' })
    expect(await manager.hasTokensForCurrentEnvironment()).toBe(true)
    expect(service.calls).toHaveLength(0)
  })

  it('lets one caller give up waiting without cancelling the shared refresh for the others', async () => {
    const { manager, service } = await setup()
    let release = (): void => undefined
    service.hold = new Promise((resolve) => (release = resolve))
    const controller = new AbortController()
    const impatient = manager.handleUnauthorized('access-0', controller.signal)
    const patient = manager.handleUnauthorized('access-0')
    controller.abort()
    expect((await failure(impatient)).code).toBe('cancelled')
    release()
    expect(await patient).toBe('access-1')
  })

  it('discards a refresh that finishes after the clerk signed out', async () => {
    const { manager, secrets, service } = await setup()
    let release = (): void => undefined
    service.hold = new Promise((resolve) => (release = resolve))
    const refreshing = manager.handleUnauthorized('access-0')
    await new Promise((resolve) => setImmediate(resolve))
    await manager.clear()
    release()
    expect((await failure(refreshing)).code).toBe('not-signed-in')
    expect(await secrets.get('accessToken')).toBeUndefined()
  })

  it('asks for the client secret when it is missing instead of signing out', async () => {
    const { manager, secrets, signedOut } = await setup()
    await secrets.delete('clientSecret')
    expect(await failure(manager.handleUnauthorized('access-0'))).toMatchObject({ code: 'config' })
    expect(signedOut).toEqual([])
  })

  it('counts a lifetime past a year as a year, and logs that it did (issue 32, point 1)', async () => {
    const { manager, secrets, clock, logger } = await setup({ expiresIn: LONG_MAX })
    expect(await secrets.get('accessTokenExpiresAt')).toBe(String(clock.now() + 365 * 86_400_000))
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /Sign-in: the service gave the access token a lifetime of 9223372036854776000 seconds; RosterDesk counts it as 365 days/,
      ),
    )
    expect(await manager.getAccessToken()).toBe('access-0')
  })

  it('reads an expiry no Date holds, stored before lifetimes were bounded, as unknown', async () => {
    const { secrets } = await setup()
    await secrets.set('accessTokenExpiresAt', String(9.2e21))
    expect(await readStoredTokens(secrets)).not.toHaveProperty('expiresAt')
  })
})
