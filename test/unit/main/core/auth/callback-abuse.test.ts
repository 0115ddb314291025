import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AuthState } from '../../../../../src/shared/domain/auth'
import { AuthService } from '../../../../../src/main/core/auth/auth-service'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { answerConsent } from '../../../../helpers/consent'
import { useTestSandbox } from '../../../../helpers/sandbox'
import { CaptureLogger } from '../../../../helpers/capture-logger'
import { FakeClock } from '../../../../helpers/fake-clock'
import { until } from '../../../../helpers/until'

const REDIRECT = 'com.rosterdesk.app:/oauth/callback'
const getSandbox = useTestSandbox({ size: 10 })

async function setup() {
  const sandbox = getSandbox()
  const secrets = new MemorySecretStore()
  await secrets.set('clientSecret', sandbox.credentials.clientSecret)
  const opened: string[] = []
  const states: AuthState[] = []
  const auth = await AuthService.create({
    fetch,
    clock: new FakeClock(),
    secrets,
    environment: () => ({
      environment: 'staging',
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.credentials.clientId,
      redirectUri: REDIRECT,
      scopes: 'read',
      tenantId: sandbox.credentials.tenantId,
    }),
    openExternal: async (url) => {
      opened.push(url)
    },
    logger: new CaptureLogger(),
  })
  auth.onChange((state) => states.push(state))
  return { auth, opened, states, secrets }
}

/** Forgeries of a callback for the pending `state`: every part bent one way or another, some oversized. */
function forgedCallbacks(state: string, code: string): fc.Arbitrary<string> {
  const text = fc.string({ unit: 'binary', maxLength: 40 })
  const param = (name: string, value: fc.Arbitrary<string>) =>
    value.map((v) => `${name}=${encodeURIComponent(v)}`)
  const anyQuery = fc
    .array(
      fc.oneof(
        param(
          'state',
          fc.oneof(
            text,
            fc.constant(state.slice(0, -1)),
            fc.constant(`${state}x`),
            fc.constant(state.toUpperCase()),
          ),
        ),
        param('code', fc.oneof(text, fc.constant(code))),
        param('error', fc.constantFrom('access_denied', 'server_error', '')),
        fc.constant(`state=${state}&state=${state}`),
        fc.constant(`junk=${'j'.repeat(300_000)}`),
      ),
      { maxLength: 4 },
    )
    .map((parts) => parts.join('&'))
  return fc.oneof(
    // The right scheme, host and path with a wrong or missing state.
    anyQuery.map((query) => `${REDIRECT}?${query}`),
    // The right state and code on another scheme, host or path.
    fc
      .constantFrom(
        'com.rosterdesk.evil:/oauth/callback',
        'com.rosterdesk.app://oauth/callback',
        'com.rosterdesk.app:/oauth/callback/',
        'com.rosterdesk.app:/oauth/CALLBACK',
        'http://127.0.0.1/oauth/callback',
        'https://attacker.example/oauth/callback',
        'javascript:alert(1)//',
        'file:///etc/passwd',
      )
      .map((base) => `${base}?code=${code}&state=${state}`),
    // Not URLs at all, or enormous ones (with the right state: a code that long is never sent to the service).
    fc.oneof(text, fc.constant(''), fc.constant(`${REDIRECT}?state=${state}&code=${'x'.repeat(2_000_000)}`)),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
  )
}

describe('sign-in callbacks under abuse', () => {
  it('refuses hundreds of forged and oversized callbacks without crashing, then accepts the real one once', async () => {
    const { auth, opened, states } = await setup()
    const signingIn = auth.signIn()
    await until(() => opened.length === 1)
    const authorize = new URL(opened[0] ?? '')
    const state = authorize.searchParams.get('state') ?? ''
    const real = await answerConsent(authorize.toString(), 'approve')
    const code = new URL(real).searchParams.get('code') ?? ''
    expect(code).not.toBe('')

    let tried = 0
    await fc.assert(
      fc.asyncProperty(forgedCallbacks(state, code), async (url) => {
        tried++
        expect(await auth.handleCallbackUrl(url)).toBe(false)
        expect(auth.getState().status).toBe('signing-in')
      }),
      { numRuns: 400 },
    )
    expect(tried).toBe(400)

    expect(await auth.handleCallbackUrl(real)).toBe(true)
    expect((await signingIn).status).toBe('signed-in')
    // Replayed: single use, whether the same URL or the same code and state again.
    expect(await auth.handleCallbackUrl(real)).toBe(false)
    expect(await auth.handleCallbackUrl(`${REDIRECT}?code=${code}&state=${state}`)).toBe(false)
    expect(states.filter((s) => s.status === 'signed-in')).toHaveLength(1)
  }, 60_000)

  it('refuses a callback after cancel, and one for an older sign-in after a newer began', async () => {
    const { auth, opened } = await setup()
    const first = auth.signIn()
    await until(() => opened.length === 1)
    const firstCallback = await answerConsent(opened[0] ?? '', 'approve')
    auth.cancelSignIn()
    expect((await first).status).not.toBe('signed-in')
    expect(await auth.handleCallbackUrl(firstCallback)).toBe(false)
    expect(auth.getState().status).toBe('signed-out')

    const second = auth.signIn()
    await until(() => opened.length === 2)
    const secondCallback = await answerConsent(opened[1] ?? '', 'approve')
    const third = auth.signIn()
    await until(() => opened.length === 3)
    // The second was replaced by the third: its callback, and the cancelled first's, are refused.
    expect(await auth.handleCallbackUrl(secondCallback)).toBe(false)
    expect(await auth.handleCallbackUrl(firstCallback)).toBe(false)
    expect(auth.getState().status).toBe('signing-in')
    await second.catch(() => undefined)
    const thirdCallback = await answerConsent(opened[2] ?? '', 'approve')
    expect(await auth.handleCallbackUrl(thirdCallback)).toBe(true)
    expect((await third).status).toBe('signed-in')
    for (const stale of [firstCallback, secondCallback, thirdCallback]) {
      expect(await auth.handleCallbackUrl(stale)).toBe(false)
    }
  }, 60_000)
})
