import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type AuthState, authStateSchema } from '../../src/shared/domain/auth'
import { AuthService } from '../../src/main/core/auth/auth-service'
import { RosterDeskError } from '../../src/main/core/errors'
import { MemorySecretStore, SECRET_KEYS } from '../../src/main/core/secrets/secret-store'
import { resolveEnvironment, type DemoEnvironment } from '../../src/main/core/settings/resolve-environment'
import { buildSettingsView } from '../../src/main/core/settings/settings-view'
import { MemoryKeyValueBackend, SettingsStore } from '../../src/main/core/settings/settings-store'
import type { TokenStyle } from '../../src/main/sandbox/index'
import { launchChromium, type LaunchedChromium } from '../helpers/chromium'
import { approveViaHttp, useTestSandbox } from '../helpers/sandbox'
import { CaptureLogger } from '../helpers/capture-logger'
import { FakeClock } from '../helpers/fake-clock'
import { until } from '../helpers/until'

/**
 * Sign-in end to end: the real sandbox, and a real headless Chromium playing the clerk's system browser. The OS's
 * part (handing `com.rosterdesk.app:` URLs to RosterDesk) is played by watching Chromium's requests for that
 * scheme and passing them to `handleCallbackUrl`, exactly what the Electron shell's deep-link handler does.
 */

const SCHEME = 'com.rosterdesk.app:'
const SCREENSHOT = join(__dirname, 'screenshots', 'consent.png')

const getSandbox = useTestSandbox({ size: 40 })
let browser: LaunchedChromium

beforeAll(async () => {
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
})

afterEach(() => {
  getSandbox().setBehaviours({ tokenStyle: 'snake', rejectRefresh: false })
})

/** An AuthService wired as the app wires it (Demo environment over the in-app sandbox), with Chromium as the browser. */
async function harness() {
  const sandbox = getSandbox()
  const clock = new FakeClock(Date.now())
  const logger = new CaptureLogger()
  const secrets = new MemorySecretStore()
  const backend = new MemoryKeyValueBackend()
  const settings = new SettingsStore(backend)
  const demo: DemoEnvironment = { baseUrl: sandbox.baseUrl, ...sandbox.credentials }
  const opened: string[] = []
  const callbacks: string[] = []
  const pages: Page[] = []
  const states: AuthState[] = []
  const returned: AuthState[] = []

  const auth = await AuthService.create({
    fetch,
    clock,
    secrets,
    logger,
    environment: () => resolveEnvironment(settings.get(), demo),
    openExternal: async (url) => {
      opened.push(url)
      const page = await browser.context.newPage()
      pages.push(page)
      page.on('request', (request) => {
        if (request.url().startsWith(SCHEME)) callbacks.push(request.url())
      })
      await page.goto(url)
    },
  })
  auth.onChange((state) => states.push(state))

  /** Starts a sign-in; Chromium shows the consent page. */
  const signIn = (): Promise<AuthState> => {
    const pending = auth.signIn()
    void pending.then((state) => returned.push(state))
    return pending
  }

  /** Clicks a consent button and returns the custom-scheme URL the browser was sent to. */
  const press = async (
    button: 'Approve' | 'Deny',
    options: { screenshot?: boolean } = {},
  ): Promise<string> => {
    const seen = callbacks.length
    await until(() => pages.length === opened.length && opened.length > 0)
    const page = pages.at(-1)!
    await page.getByRole('button', { name: button }).waitFor()
    if (options.screenshot) {
      await mkdir(join(__dirname, 'screenshots'), { recursive: true })
      await page.screenshot({ path: SCREENSHOT, fullPage: true })
    }
    await page.getByRole('button', { name: button }).click()
    await until(() => callbacks.length > seen)
    return callbacks.at(-1)!
  }

  /** Signs in with Approve and the deep link, the whole happy path. */
  const signInFully = async (): Promise<AuthState> => {
    const pending = signIn()
    const callback = await press('Approve')
    expect(await auth.handleCallbackUrl(callback)).toBe(true)
    return pending
  }

  /** Every secret this harness ever saw: tokens, the client secret, codes and states. */
  const secretsSeen = async (): Promise<string[]> => {
    const values: string[] = [sandbox.credentials.clientSecret]
    for (const key of SECRET_KEYS) {
      const value = await secrets.get(key)
      if (value !== undefined && key !== 'tokenContext' && key !== 'accessTokenExpiresAt') values.push(value)
    }
    for (const url of [...callbacks, ...opened]) {
      const params = new URL(url).searchParams
      for (const name of ['code', 'state']) {
        const value = params.get(name)
        if (value) values.push(value)
      }
    }
    return values
  }

  /** No secret in any log line, AuthState, settings view or persisted setting. */
  const expectNoLeaks = async (extraSecrets: readonly string[] = []): Promise<void> => {
    const all = [...(await secretsSeen()), ...extraSecrets].filter((value) => value.length >= 6)
    expect(logger.leaking(all)).toEqual([])
    const view = buildSettingsView(settings.get(), { hasClientSecret: true, persistent: secrets.persistent })
    const exposed = JSON.stringify({
      states,
      returned,
      now: auth.getState(),
      view,
      persisted: [...backend.values],
    })
    for (const secret of all) expect(exposed).not.toContain(secret)
    for (const state of [...states, ...returned]) authStateSchema.parse(state)
  }

  const listStatus = async (token: string): Promise<number> => {
    const response = await fetch(`${sandbox.baseUrl}/employees/list?page=1&limit=5`, {
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        'vnd.a1.tenant-id': 'tenant-demo',
      },
    })
    await response.body?.cancel()
    return response.status
  }

  /** A list request as an API client makes it: on 401, ask for a refreshed token once and retry. */
  const listWithRetry = async (): Promise<number> => {
    const token = await auth.tokens.getAccessToken()
    const status = await listStatus(token)
    if (status !== 401) return status
    return listStatus(await auth.tokens.handleUnauthorized(token))
  }

  return {
    sandbox,
    clock,
    logger,
    secrets,
    auth,
    opened,
    callbacks,
    states,
    signIn,
    press,
    signInFully,
    expectNoLeaks,
    listStatus,
    listWithRetry,
    close: async () => {
      for (const page of pages) await page.close()
    },
  }
}

async function rejection(promise: Promise<unknown>): Promise<RosterDeskError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof RosterDeskError) return error
    throw error
  }
  throw new Error('expected a RosterDeskError')
}

describe('sign-in in the system browser (Chromium) with the custom-scheme redirect', () => {
  it('signs in when the clerk approves, keeping the tokens in the secret store', async () => {
    const h = await harness()
    try {
      const pending = h.signIn()
      const callback = await h.press('Approve', { screenshot: true })
      expect(callback).toMatch(/^com\.rosterdesk\.app:\/oauth\/callback\?code=[^&]+&state=[^&]+$/)
      expect(h.auth.getState().status).toBe('signing-in')
      expect(await h.auth.handleCallbackUrl(callback)).toBe(true)
      const state = await pending
      expect(state).toEqual({
        status: 'signed-in',
        environment: 'demo',
        tenantId: 'tenant-demo',
        secretStorage: 'memory-only',
      })
      expect(h.states.map((s) => s.status)).toEqual(['signing-in', 'signed-in'])

      // openExternal only ever received the authorize URL RosterDesk built.
      expect(h.opened).toHaveLength(1)
      const authorize = new URL(h.opened[0]!)
      expect(`${authorize.origin}${authorize.pathname}`).toBe(
        `${h.sandbox.baseUrl}/openapi/oauthv1/authorize`,
      )
      expect([...authorize.searchParams.keys()]).toEqual([
        'responseType',
        'clientId',
        'redirectUri',
        'scope',
        'state',
      ])
      expect(authorize.searchParams.get('redirectUri')).toBe('com.rosterdesk.app:/oauth/callback')
      expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(new URL(callback).searchParams.get('state')).toBe(authorize.searchParams.get('state'))

      const accessToken = await h.secrets.get('accessToken')
      expect(accessToken).toBeDefined()
      expect(await h.secrets.get('refreshToken')).toBeDefined()
      expect(Number(await h.secrets.get('accessTokenExpiresAt'))).toBe(h.clock.now() + 3_600_000)
      expect(await h.auth.tokens.getAccessToken()).toBe(accessToken)
      expect(await h.listStatus(accessToken!)).toBe(200)
      expect(h.sandbox.stats().codeExchanges).toBeGreaterThanOrEqual(1)
      await h.expectNoLeaks()
    } finally {
      await h.close()
    }
  })

  it('tells the clerk plainly when they deny access', async () => {
    const h = await harness()
    try {
      const pending = h.signIn()
      const callback = await h.press('Deny')
      expect(new URL(callback).searchParams.get('error')).toBe('access_denied')
      expect(await h.auth.handleCallbackUrl(callback)).toBe(true)
      expect(await pending).toMatchObject({
        status: 'signed-out',
        error: 'You declined access in the browser. Sign in again when ready.',
      })
      expect(await h.secrets.get('accessToken')).toBeUndefined()
      await h.expectNoLeaks()
    } finally {
      await h.close()
    }
  })

  it('ignores forged, mismatched-state and misaddressed callbacks, then replays of the real one', async () => {
    const h = await harness()
    try {
      const pending = h.signIn()
      const callback = await h.press('Approve')
      const real = new URL(callback)
      const code = real.searchParams.get('code')!
      const state = real.searchParams.get('state')!
      const exchangesBefore = h.sandbox.stats().codeExchanges

      const forged = 'com.rosterdesk.app:/oauth/callback?code=forged-code-123&state=forged-state-123'
      const mismatched = `com.rosterdesk.app:/oauth/callback?code=${code}&state=${state.slice(0, -2)}xx`
      const stateless = `com.rosterdesk.app:/oauth/callback?code=${code}`
      const wrongPath = `com.rosterdesk.app:/oauth/other?code=${code}&state=${state}`
      const wrongScheme = `com.evil.app:/oauth/callback?code=${code}&state=${state}`
      const webAddress = `https://evil.example/oauth/callback?code=${code}&state=${state}`
      for (const url of [forged, mismatched, stateless, wrongPath, wrongScheme, webAddress]) {
        expect(await h.auth.handleCallbackUrl(url)).toBe(false)
      }
      expect(h.auth.getState().status).toBe('signing-in')
      expect(h.sandbox.stats().codeExchanges).toBe(exchangesBefore)
      expect(h.logger.lines.filter((line) => line.includes('ignored a callback URL'))).toHaveLength(6)

      expect(await h.auth.handleCallbackUrl(callback)).toBe(true)
      expect((await pending).status).toBe('signed-in')
      expect(h.sandbox.stats().codeExchanges).toBe(exchangesBefore + 1)

      // Single use: the same callback again is not a sign-in.
      expect(await h.auth.handleCallbackUrl(callback)).toBe(false)
      expect(h.sandbox.stats().codeExchanges).toBe(exchangesBefore + 1)
      await h.expectNoLeaks(['forged-code-123', 'forged-state-123'])
    } finally {
      await h.close()
    }
  })

  it('refuses the answer when the browser comes back after the sign-in expired', async () => {
    const h = await harness()
    try {
      const pending = h.signIn()
      const callback = await h.press('Approve')
      const exchangesBefore = h.sandbox.stats().codeExchanges
      await h.clock.advance(10 * 60_000)
      expect(await pending).toMatchObject({
        status: 'signed-out',
        error: 'The browser did not come back within 10 minutes. Sign in again when ready.',
      })
      expect(await h.auth.handleCallbackUrl(callback)).toBe(false)
      expect(h.sandbox.stats().codeExchanges).toBe(exchangesBefore)
      expect(h.auth.getState().status).toBe('signed-out')
      await h.expectNoLeaks()
    } finally {
      await h.close()
    }
  })

  it('ignores a callback when no sign-in is pending', async () => {
    const h = await harness()
    try {
      const approved = await approveViaHttp(h.sandbox, { state: 'unsolicited-state-value' })
      expect(approved.location.startsWith(SCHEME)).toBe(true)
      expect(await h.auth.handleCallbackUrl(approved.location)).toBe(false)
      expect(h.auth.getState().status).toBe('signed-out')
      expect(h.logger.lines).toEqual(['warn Sign-in: ignored a callback URL (no-pending-sign-in)'])
      await h.expectNoLeaks([approved.code, 'unsolicited-state-value'])
    } finally {
      await h.close()
    }
  })
})

describe('every token response style the sandbox can send', () => {
  const styles: { style: TokenStyle; expiry: boolean }[] = [
    { style: 'snake', expiry: true },
    { style: 'camel', expiry: true },
    { style: 'wrapped', expiry: true },
    { style: 'no-expiry', expiry: false },
  ]
  for (const { style, expiry } of styles) {
    it(`signs in with ${style} tokens`, async () => {
      const h = await harness()
      try {
        h.sandbox.setBehaviours({ tokenStyle: style })
        expect((await h.signInFully()).status).toBe('signed-in')
        const token = await h.secrets.get('accessToken')
        expect(await h.listStatus(token!)).toBe(200)
        expect(await h.secrets.get('refreshToken')).toBeDefined()
        expect((await h.secrets.get('accessTokenExpiresAt')) !== undefined).toBe(expiry)
        await h.expectNoLeaks()
      } finally {
        await h.close()
      }
    })
  }

  it('fails clearly on an unrecognised token response, naming the fields and no values', async () => {
    const h = await harness()
    try {
      h.sandbox.setBehaviours({ tokenStyle: 'unrecognised' })
      const state = await h.signInFully()
      expect(state.status).toBe('signed-out')
      expect(state.error).toBe(
        "The payroll service's sign-in answer has no access token RosterDesk recognises (fields received: result, " +
          'result.tkn). Send this message to your IT team.',
      )
      expect(await h.secrets.get('accessToken')).toBeUndefined()
      await h.expectNoLeaks()
    } finally {
      await h.close()
    }
  })
})

describe('keeping the sign-in alive', () => {
  it('refreshes shortly before a known expiry', async () => {
    const h = await harness()
    try {
      await h.signInFully()
      const first = await h.auth.tokens.getAccessToken()
      const refreshesBefore = h.sandbox.stats().refreshes
      await h.clock.advance(3_600_000 - 30_000)
      const second = await h.auth.tokens.getAccessToken()
      expect(second).not.toBe(first)
      expect(h.sandbox.stats().refreshes).toBe(refreshesBefore + 1)
      expect(await h.listStatus(second)).toBe(200)
      expect(await h.auth.tokens.getAccessToken()).toBe(second)
      await h.expectNoLeaks([first])
    } finally {
      await h.close()
    }
  })

  it('refreshes after a 401 when the expiry is unknown', async () => {
    const h = await harness()
    try {
      h.sandbox.setBehaviours({ tokenStyle: 'no-expiry' })
      await h.signInFully()
      const first = await h.auth.tokens.getAccessToken()
      h.sandbox.expireAccessTokens()
      expect(await h.listStatus(first)).toBe(401)
      const second = await h.auth.tokens.handleUnauthorized(first)
      expect(second).not.toBe(first)
      expect(await h.listStatus(second)).toBe(200)
      await h.expectNoLeaks([first])
    } finally {
      await h.close()
    }
  })

  it('shares one refresh request between concurrent API calls', async () => {
    const h = await harness()
    try {
      await h.signInFully()
      const refreshesBefore = h.sandbox.stats().refreshes
      h.sandbox.expireAccessTokens()
      const statuses = await Promise.all(Array.from({ length: 6 }, () => h.listWithRetry()))
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200])
      expect(h.sandbox.stats().refreshes).toBe(refreshesBefore + 1)
      await h.expectNoLeaks()
    } finally {
      await h.close()
    }
  })

  it('signs the clerk out cleanly when the service refuses the refresh', async () => {
    const h = await harness()
    try {
      await h.signInFully()
      const token = await h.auth.tokens.getAccessToken()
      const refreshToken = await h.secrets.get('refreshToken')
      h.sandbox.setBehaviours({ rejectRefresh: true })
      h.sandbox.expireAccessTokens()
      const error = await rejection(h.auth.tokens.handleUnauthorized(token))
      expect(error).toMatchObject({
        code: 'not-signed-in',
        message: 'Your sign-in has expired. Sign in again to continue.',
      })
      expect(h.auth.getState()).toMatchObject({
        status: 'signed-out',
        error: 'Your sign-in has expired. Sign in again to continue.',
      })
      expect(h.states.at(-1)).toEqual(h.auth.getState())
      for (const key of ['accessToken', 'refreshToken', 'accessTokenExpiresAt', 'tokenContext'] as const) {
        expect(await h.secrets.get(key)).toBeUndefined()
      }
      expect((await rejection(h.auth.tokens.getAccessToken())).code).toBe('not-signed-in')
      await h.expectNoLeaks([token, refreshToken!])
    } finally {
      await h.close()
    }
  })
})
