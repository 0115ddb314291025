import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tokenFileSchema, type TokenFile } from '../../src/main/core/auth/token-file'
import type { SandboxBehavioursPatch, SandboxHandle } from '../../src/main/sandbox/index'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { sandboxServiceArgs, startCliProcess, type CliResult } from '../helpers/cli-process'
import { answerConsent } from '../helpers/consent'
import { useSandboxPerTest } from '../helpers/sandbox'

/**
 * `login` and `sync` from the CLI's bundle against odd sign-in answers (issue 32, points 1, 2 and 8): an absurd
 * lifetime is bounded to a year, a token a request header cannot carry is refused at once and never stored, a
 * refresh refused inside a 200 or redirected to single sign-on, and a sign-in answer that is not JSON, each end
 * in one precise sentence on stderr, no stack trace, the token file as it should be. A fresh data folder each.
 */

const YEAR_MS = 365 * 24 * 3600 * 1000
const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback'
const ACCESS_UNSENDABLE =
  "The payroll service's sign-in answer holds an access token with characters a request cannot carry. Send this message to your IT team."
const REFRESH_UNSENDABLE =
  "The payroll service's sign-in answer holds a refresh token with characters a request cannot carry. Send this message to your IT team."
const EXPIRED = 'Your sign-in has expired. Sign in again to continue.'

/** A stack trace's frame line, as Node prints it. */
const STACK_LINE = /^\s+at /m

describe('CLI: odd sign-in answers', () => {
  const startSandbox = useSandboxPerTest()
  let dir: string
  let cleanup: () => void

  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-token-answers-'))
  })
  afterEach(() => cleanup())

  const tokenFile = (): string => join(dir, 'tokens.json')
  const env = (sandbox: SandboxHandle, extra: Record<string, string> = {}): Record<string, string> => ({
    ROSTERDESK_CLIENT_SECRET: sandbox.credentials.clientSecret,
    ROSTERDESK_USER_DATA_DIR: dir,
    ...extra,
  })

  /** `login --no-open`, the consent approved over plain HTTP, the callback followed as a browser would. */
  async function login(sandbox: SandboxHandle, extraEnv: Record<string, string> = {}): Promise<CliResult> {
    const run = startCliProcess(
      [
        'login',
        ...sandboxServiceArgs(sandbox).slice(0, 4),
        '--redirect-uri',
        LOOPBACK_REDIRECT,
        '--tenant',
        sandbox.credentials.tenantId,
        '--token-file',
        tokenFile(),
        '--no-open',
      ],
      env(sandbox, extraEnv),
    )
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: run.child.stdout }).once('line', resolve)
      void run.done.then((result) => reject(new Error(`login ended first: ${result.stderr}`)))
    })
    const callback = await answerConsent(firstLine, 'approve')
    await fetch(callback).then((response) => response.text())
    return run.done
  }

  /** A token file as `login` writes it, with the sandbox's fresh tokens, its access token already expired. */
  async function writeExpiredTokenFile(sandbox: SandboxHandle): Promise<string> {
    const tokens = sandbox.issueTokens()
    const file: TokenFile = {
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.credentials.clientId,
      redirectUri: sandbox.credentials.redirectUri,
      tenantId: sandbox.credentials.tenantId,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    }
    const text = `${JSON.stringify(file, null, 2)}\n`
    await writeFile(tokenFile(), text, { mode: 0o600 })
    return text
  }

  function sync(sandbox: SandboxHandle, extraEnv: Record<string, string> = {}): Promise<CliResult> {
    return startCliProcess(
      ['sync', ...sandboxServiceArgs(sandbox), '--token-file', tokenFile(), '--db', join(dir, 'cache.db')],
      env(sandbox, extraEnv),
    ).done
  }

  async function readTokenFile(): Promise<TokenFile> {
    return tokenFileSchema.parse(JSON.parse(await readFile(tokenFile(), 'utf8')))
  }

  function expectNoStack(result: CliResult): void {
    expect(result.stderr).not.toMatch(STACK_LINE)
    expect(result.stdout).not.toMatch(STACK_LINE)
    expect(result.stderr).not.toContain('Something went wrong inside RosterDesk')
  }

  async function sandboxWith(behaviours: SandboxBehavioursPatch): Promise<SandboxHandle> {
    return startSandbox({ size: 30, seed: 32, behaviours })
  }

  describe('point 1: a lifetime is bounded to a year, never crashes', () => {
    it('login keeps 9223372036854775807 s as a year, says so in the log, and a sync with the file completes', async () => {
      const sandbox = await sandboxWith({ tokenExpiresInJson: '9223372036854775807' })
      const before = Date.now()
      const result = await login(sandbox, { ROSTERDESK_LOG_LEVEL: 'warn' })
      expectNoStack(result)
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toMatch(
        // The number as a double holds it (9223372036854775807 is 9223372036854775808 there).
        /the service gave the access token a lifetime of 9223372036854776000 seconds; RosterDesk counts it as 365 days/,
      )
      const expiresAt = Date.parse((await readTokenFile()).expiresAt ?? '')
      expect(expiresAt).toBeGreaterThanOrEqual(before + YEAR_MS)
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + YEAR_MS)

      const synced = await sync(sandbox)
      expectNoStack(synced)
      expect(synced.code, synced.stderr).toBe(0)
    })

    it('login holds huge floats, negative, zero and strings of digits: a year, unknown, or as said', async () => {
      const cases: ReadonlyArray<[string, 'year' | 'none' | number]> = [
        ['1e308', 'year'],
        ['1e400', 'year'],
        ['"9223372036854775807"', 'year'],
        ['-1', 'none'],
        ['0', 'none'],
        ['"3600"', 3600],
      ]
      const sandbox = await sandboxWith({})
      for (const [served, expected] of cases) {
        sandbox.setBehaviours({ tokenExpiresInJson: served })
        const before = Date.now()
        const result = await login(sandbox)
        expectNoStack(result)
        expect(result.code, `${served}: ${result.stderr}`).toBe(0)
        const { expiresAt } = await readTokenFile()
        if (expected === 'none') {
          expect(expiresAt, served).toBeNull()
          continue
        }
        const lifetime = expected === 'year' ? YEAR_MS : expected * 1000
        expect(Date.parse(expiresAt ?? ''), served).toBeGreaterThanOrEqual(before + lifetime - 1000)
        expect(Date.parse(expiresAt ?? ''), served).toBeLessThanOrEqual(Date.now() + lifetime)
      }
    })

    it('a sync whose refresh says 9223372036854775807 s completes, and writes the renewed tokens for a year', async () => {
      const sandbox = await sandboxWith({ tokenExpiresInJson: '9223372036854775807' })
      await writeExpiredTokenFile(sandbox)
      const before = Date.now()
      for (let run = 1; run <= 2; run++) {
        sandbox.expireAccessTokens()
        const result = await sync(sandbox)
        expectNoStack(result)
        expect(result.code, `run ${run}: ${result.stderr}`).toBe(0)
        const expiresAt = Date.parse((await readTokenFile()).expiresAt ?? '')
        expect(expiresAt).toBeGreaterThanOrEqual(before + YEAR_MS)
        expect(expiresAt).toBeLessThanOrEqual(Date.now() + YEAR_MS)
      }
      expect(sandbox.stats().refreshes).toBe(2)
    })
  })

  describe('point 2: a token a request cannot carry is refused at once and never stored', () => {
    const unsendable: ReadonlyArray<[string, string]> = [
      ['CR LF', '\r\nX-Injected: 1'],
      ['a control character', '\u0001'],
      ['DEL', '\u007f'],
      ['non-ASCII', 'é'],
      ['beyond Latin-1', '\u2028'],
    ]

    it('login refuses an access token with CR/LF, a control character or non-ASCII, and writes no token file', async () => {
      const sandbox = await sandboxWith({})
      for (const [name, insert] of unsendable) {
        sandbox.setBehaviours({ tokenCharacters: { token: 'access', insert } })
        const exchanges = sandbox.stats().codeExchanges
        const result = await login(sandbox)
        expectNoStack(result)
        expect(result.code, name).toBe(1)
        expect(result.stderr.trim(), name).toBe(ACCESS_UNSENDABLE)
        expect(existsSync(tokenFile()), name).toBe(false)
        expect(sandbox.stats().codeExchanges - exchanges, name).toBe(1)
      }
      expect(sandbox.stats().listRequests).toBe(0)
    })

    it('login refuses a refresh token with characters a request cannot carry, and writes no token file', async () => {
      const sandbox = await sandboxWith({ tokenCharacters: { token: 'refresh', insert: '\n' } })
      const result = await login(sandbox)
      expectNoStack(result)
      expect(result.code).toBe(1)
      expect(result.stderr.trim()).toBe(REFRESH_UNSENDABLE)
      expect(existsSync(tokenFile())).toBe(false)
    })

    it('a sync whose refresh brings such a token stops at once, with no retry, and leaves the token file as it was', async () => {
      const sandbox = await sandboxWith({})
      for (const [token, message] of [
        ['access', ACCESS_UNSENDABLE],
        ['refresh', REFRESH_UNSENDABLE],
      ] as const) {
        sandbox.setBehaviours({ tokenCharacters: { token, insert: '\r\n' } })
        // Tokens of its own each time: the sandbox retires a refresh token once it answered it.
        const written = await writeExpiredTokenFile(sandbox)
        const before = sandbox.stats()
        const result = await sync(sandbox)
        expectNoStack(result)
        expect(result.code, token).not.toBe(0)
        expect(result.stderr, token).toContain(message)
        expect(result.stderr, token).not.toContain('could not reach')
        expect(sandbox.stats().refreshes - before.refreshes, token).toBe(1)
        expect(sandbox.stats().listRequests - before.listRequests, token).toBe(0)
        expect(await readFile(tokenFile(), 'utf8'), token).toBe(written)
      }
    })
  })

  describe('point 8: a refused or redirected refresh, a sign-in answer that is not JSON', () => {
    it('a refresh answered 200 with invalid_grant says the sign-in expired on the first run, as a 400 does', async () => {
      for (const behaviours of [{ rejectRefresh: true }, { refreshErrorIn200: true }]) {
        const sandbox = await sandboxWith(behaviours)
        await writeExpiredTokenFile(sandbox)
        const result = await sync(sandbox)
        expectNoStack(result)
        expect(result.code, JSON.stringify(behaviours)).not.toBe(0)
        expect(result.stderr, JSON.stringify(behaviours)).toContain(EXPIRED)
        expect(result.stderr).not.toContain('no access token RosterDesk recognises')
        // Signed out: the token file of a refused sign-in is removed, whichever way the refusal came.
        expect(existsSync(tokenFile()), JSON.stringify(behaviours)).toBe(false)
        expect(sandbox.stats().listRequests).toBe(0)
      }
    })

    it('a refresh redirected (303) to a single sign-on page says the sign-in failed and to sign in again', async () => {
      const sandbox = await sandboxWith({ refreshRedirect: true })
      const written = await writeExpiredTokenFile(sandbox)
      const result = await sync(sandbox)
      expectNoStack(result)
      expect(result.code).not.toBe(0)
      expect(result.stderr).toContain(
        'The payroll service sent RosterDesk’s renewal of your sign-in to another page (HTTP 303), a single sign-on page perhaps, instead of renewing it. Sign in again to continue.',
      )
      expect(sandbox.stats().refreshes).toBe(1)
      expect(sandbox.stats().listRequests).toBe(0)
      expect(await readFile(tokenFile(), 'utf8')).toBe(written)
    })

    it('a sign-in answer that is not JSON says the sign-in failed and to sign in again', async () => {
      const sandbox = await sandboxWith({ exchangeNotJson: true })
      const result = await login(sandbox)
      expectNoStack(result)
      expect(result.code).toBe(1)
      expect(result.stderr.trim()).toBe(
        'The payroll service answered the sign-in with a web page titled “Service unavailable” instead of tokens, so the sign-in failed. Sign in again; if it happens again, send this message to your IT team.',
      )
      expect(existsSync(tokenFile())).toBe(false)
      expect(sandbox.stats().codeExchanges).toBe(1)
    })
  })
})
