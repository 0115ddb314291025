import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { AuthState } from '../../../../../src/shared/domain/auth'
import { authStateSchema } from '../../../../../src/shared/domain/auth'
import { AuthService, refusalMessage } from '../../../../../src/main/core/auth/auth-service'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import type { ResolvedEnvironment } from '../../../../../src/main/core/settings/resolve-environment'
import type { SandboxHandle } from '../../../../../src/main/sandbox/index'
import { useTestSandbox } from '../../../../helpers/sandbox'
import { CaptureLogger } from '../../../../helpers/capture-logger'
import { FakeClock } from '../../../../helpers/fake-clock'
import { until } from '../../../../helpers/until'

const getSandbox = useTestSandbox({ size: 30 })

function loopbackEnvironment(sandbox: SandboxHandle, redirectUri: string): ResolvedEnvironment {
  return {
    environment: 'staging',
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.credentials.clientId,
    redirectUri,
    scopes: 'read',
    tenantId: sandbox.credentials.tenantId,
  }
}

async function setup(redirectUri = 'http://127.0.0.1/callback', opened: string[] = []) {
  const sandbox = getSandbox()
  const secrets = new MemorySecretStore()
  await secrets.set('clientSecret', sandbox.credentials.clientSecret)
  const logger = new CaptureLogger()
  const states: AuthState[] = []
  let environment = loopbackEnvironment(sandbox, redirectUri)
  let openFails = false
  const auth = await AuthService.create({
    fetch,
    clock: new FakeClock(),
    secrets,
    environment: () => environment,
    openExternal: async (url) => {
      if (openFails) throw new Error('no browser')
      opened.push(url)
    },
    logger,
  })
  auth.onChange((state) => states.push(state))
  return {
    sandbox,
    secrets,
    logger,
    states,
    auth,
    opened,
    failOpen: () => (openFails = true),
    setEnvironment: (next: Partial<ResolvedEnvironment>) => (environment = { ...environment, ...next }),
  }
}

/** Plays the browser over plain HTTP: consent page, the chosen button, then the redirect to the loopback port. */
async function answerInBrowser(
  authorizeUrl: string,
  decision: 'approve' | 'deny',
): Promise<{ status: number; html: string; location: string }> {
  const consent = await fetch(authorizeUrl)
  const requestId = /name="requestId" value="([^"]+)"/.exec(await consent.text())?.[1]
  if (!requestId) throw new Error('no consent form')
  const answer = await fetch(new URL('/openapi/oauthv1/authorize', authorizeUrl), {
    method: 'POST',
    body: new URLSearchParams({ requestId, decision }),
    redirect: 'manual',
  })
  const location = answer.headers.get('location') ?? ''
  const page = await fetch(location)
  return { status: page.status, html: await page.text(), location }
}

describe('AuthService with a loopback redirect (RFC 8252 §7.3)', () => {
  it('listens on a free port when the redirect URI names none, signs in and closes the listener', async () => {
    const { auth, opened, secrets, states, logger, sandbox } = await setup()
    expect(auth.getState()).toEqual({
      status: 'signed-out',
      environment: 'staging',
      tenantId: 'tenant-demo',
      secretStorage: 'memory-only',
    })
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    const sent = new URL(opened[0]!).searchParams.get('redirectUri')!
    expect(sent).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    expect(auth.getState().status).toBe('signing-in')

    const page = await answerInBrowser(opened[0]!, 'approve')
    expect(page.status).toBe(200)
    expect(page.html).toContain('You are signed in to RosterDesk. You can close this tab.')
    const state = await signingIn
    expect(state).toMatchObject({ status: 'signed-in' })
    expect(state.error).toBeUndefined()
    expect(states.map((s) => s.status)).toEqual(['signing-in', 'signed-in'])

    const token = await auth.tokens.getAccessToken()
    const list = await fetch(`${sandbox.baseUrl}/employees/list?page=1&limit=5`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    })
    expect(list.status).toBe(200)
    await expect(fetch(sent)).rejects.toThrow()

    const secretValues = [
      token,
      (await secrets.get('refreshToken'))!,
      sandbox.credentials.clientSecret,
      new URL(opened[0]!).searchParams.get('state')!,
      new URL(page.location).searchParams.get('code')!,
    ]
    expect(logger.leaking(secretValues)).toEqual([])
    for (const value of [...states, state]) {
      authStateSchema.parse(value)
      expect(secretValues.some((secret) => JSON.stringify(value).includes(secret))).toBe(false)
    }
  })

  it('answers the browser with the refusal and reports it to the clerk', async () => {
    const { auth, opened } = await setup()
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    const page = await answerInBrowser(opened[0]!, 'deny')
    expect(page.html).toContain('You declined access in the browser. Sign in again when ready.')
    expect(await signingIn).toMatchObject({
      status: 'signed-out',
      error: 'You declined access in the browser. Sign in again when ready.',
    })
  })

  it('refuses a forged callback on the loopback port and keeps waiting for the real one', async () => {
    const { auth, opened } = await setup()
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    const redirect = new URL(opened[0]!).searchParams.get('redirectUri')!
    const forged = await fetch(`${redirect}?code=forged-code&state=forged-state`)
    expect(forged.status).toBe(400)
    expect(await forged.text()).toContain('This sign-in link is not the one RosterDesk is waiting for.')
    const other = await fetch(new URL('/favicon.ico', redirect))
    expect(other.status).toBe(404)
    expect(auth.getState().status).toBe('signing-in')
    await answerInBrowser(opened[0]!, 'approve')
    expect((await signingIn).status).toBe('signed-in')
  })

  it('refuses requests whose Host is not the loopback address (DNS rebinding)', async () => {
    const { auth, opened } = await setup()
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    const redirect = new URL(new URL(opened[0]!).searchParams.get('redirectUri')!)
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      request(
        { host: '127.0.0.1', port: redirect.port, path: '/callback', headers: { host: 'evil.example' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
        .on('error', reject)
        .end()
    })
    expect(status).toBe(400)
    auth.cancelSignIn()
    expect(await signingIn).toEqual(auth.getState())
    expect(auth.getState()).toMatchObject({ status: 'signed-out' })
    expect(auth.getState().error).toBeUndefined()
  })

  it('says so when the redirect URI port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const { auth } = await setup(`http://127.0.0.1:${port}/callback`)
      await expect(auth.signIn()).rejects.toMatchObject({
        code: 'config',
        message: `Another program is using port ${port}, which the redirect URI names. Close it or choose another port.`,
      })
      expect(auth.getState().status).toBe('signed-out')
    } finally {
      blocker.close()
    }
  })

  it('lets a newer sign-in replace a waiting one on the same port', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    await new Promise((resolve) => blocker.close(resolve))
    const { auth, opened } = await setup(`http://127.0.0.1:${port}/callback`)
    const first = auth.signIn()
    await until(() => opened.length === 1)
    const second = auth.signIn()
    expect((await first).status).toBe('signing-in')
    await until(() => opened.length === 2)
    await answerInBrowser(opened[1]!, 'approve')
    expect((await second).status).toBe('signed-in')
  })
  it('handles two sign-ins started at the same moment: the later one wins the port', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    await new Promise((resolve) => blocker.close(resolve))
    const { auth, opened } = await setup(`http://127.0.0.1:${port}/callback`)
    const [first, second] = [auth.signIn(), auth.signIn()]
    expect((await first).status).toBe('signing-in')
    await until(() => opened.length === 1)
    // The replaced sign-in never opened a tab; the one the browser shows belongs to the winner.
    await answerInBrowser(opened[0]!, 'approve')
    expect((await second).status).toBe('signed-in')
  })
})

describe('AuthService preconditions and sign-out', () => {
  it('refuses to start without an address, client ID or client secret', async () => {
    const { auth, setEnvironment, secrets } = await setup()
    setEnvironment({ baseUrl: '' })
    await expect(auth.signIn()).rejects.toMatchObject({
      code: 'config',
      message: 'Enter the Staging service address in Settings before signing in.',
    })
    setEnvironment({ baseUrl: getSandbox().baseUrl })
    await secrets.delete('clientSecret')
    await expect(auth.signIn()).rejects.toMatchObject({
      code: 'config',
      message: 'Enter the client secret in Settings before signing in.',
    })
  })

  it('reports a browser that cannot be opened, and logs why', async () => {
    const { auth, failOpen, logger } = await setup()
    failOpen()
    expect(await auth.signIn()).toMatchObject({
      status: 'signed-out',
      error:
        'RosterDesk could not open your web browser. Check that a default browser is set, then try again.',
    })
    expect(logger.lines.find((line) => line.startsWith('warn Sign-in: could not open'))).toMatch(
      /^warn Sign-in: could not open the browser\n {2}Error: no browser\n {4}at /,
    )
  })

  it('signs out, forgetting the tokens but not the client secret, and follows environment changes', async () => {
    const { auth, opened, secrets, states, setEnvironment } = await setup()
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    await answerInBrowser(opened[0]!, 'approve')
    await signingIn
    setEnvironment({ baseUrl: 'https://elsewhere.example' })
    expect((await auth.reload()).status).toBe('signed-out')
    setEnvironment({ baseUrl: getSandbox().baseUrl })
    expect((await auth.reload()).status).toBe('signed-in')
    expect((await auth.signOut()).status).toBe('signed-out')
    expect(await secrets.get('accessToken')).toBeUndefined()
    expect(await secrets.get('clientSecret')).toBeDefined()
    expect(states.at(-1)?.status).toBe('signed-out')
    await expect(auth.tokens.getAccessToken()).rejects.toMatchObject({ code: 'not-signed-in' })
  })

  it('forgets an earlier sign-in problem once signed in again, by a sign-in or by returning to a signed-in environment', async () => {
    const { auth, opened, failOpen, setEnvironment } = await setup()
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    await answerInBrowser(opened[0]!, 'approve')
    await signingIn
    // Another environment: signed out there, and a sign-in to it fails.
    setEnvironment({ baseUrl: 'https://elsewhere.example' })
    await auth.reload()
    failOpen()
    expect((await auth.signIn()).error).toMatch(/could not open your web browser/)
    // Back to the first, whose tokens are stored: signed in, and the old message is gone rather than shown again.
    setEnvironment({ baseUrl: getSandbox().baseUrl })
    const state = await auth.reload()
    expect(state.status).toBe('signed-in')
    expect(state.error).toBeUndefined()
  })

  it('words refusals for the clerk and sanitises unknown ones', () => {
    expect(refusalMessage('access_denied', 'whatever')).toBe(
      'You declined access in the browser. Sign in again when ready.',
    )
    expect(refusalMessage('weird<script>', 'Tenant\u0000 locked')).toBe(
      'The payroll service refused the sign-in (weirdscript: Tenant locked). Sign in again, or ask your IT team.',
    )
  })
})

describe('AuthService where the OS hands it no private-use scheme (npm start)', () => {
  it('refuses a private-use redirect before opening a browser, naming the loopback one, and keeps loopback', async () => {
    const sandbox = getSandbox()
    const secrets = new MemorySecretStore()
    await secrets.set('clientSecret', sandbox.credentials.clientSecret)
    const opened: string[] = []
    let environment = loopbackEnvironment(sandbox, 'com.rosterdesk.app:/oauth/callback')
    const auth = await AuthService.create({
      fetch,
      clock: new FakeClock(),
      secrets,
      environment: () => environment,
      openExternal: async (url) => void opened.push(url),
      receivesSchemeCallbacks: false,
    })
    const refused = await auth.signIn().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toMatchObject({ code: 'config' })
    expect((refused as Error).message).toContain('http://127.0.0.1/oauth/callback')
    expect((refused as Error).message).toContain('com.rosterdesk.app:/oauth/callback')
    expect(opened).toEqual([])

    environment = loopbackEnvironment(sandbox, 'http://127.0.0.1/callback')
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    expect(new URL(opened[0]!).searchParams.get('redirectUri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
    )
    auth.cancelSignIn()
    expect((await signingIn).status).not.toBe('signed-in')
  })
})
