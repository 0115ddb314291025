import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess, type CliResult } from '../helpers/cli-process'
import { startForwardProxy, type ForwardProxy, type ForwardProxyOptions } from '../helpers/forward-proxy'
import { startHttpsTestSandbox, startTestSandbox } from '../helpers/sandbox'
import { createTestCa, EXTRA_SERVER_NAME, type TestCa } from '../helpers/test-ca'
import { fingerprintCache, makeTempDir, type CacheFingerprint } from '../helpers/cache-test-helpers'

const SIZE = 300
const MAX_PAGE = 100
const PROXY_USER = 'clerk.proxy'
const PROXY_PASSWORD = 'Pr0xy-S3cret!'

/**
 * The CLI's sync over HTTPS and through a forward proxy, as a process of its own (issue 22): the certificate
 * messages name the issuer and what to do, proxy credentials come from the environment and are never printed,
 * NO_PROXY bypasses the proxy, and no failing run changes the cache a complete one left.
 */
describe('CLI sync: certificates and proxies', () => {
  let ca: TestCa
  let sandbox: SandboxHandle
  let dir: string
  let cleanup: () => void
  let db: string
  /** A machine store with nothing in it, so only --ca-file (or a store a test names) can trust the test CA. */
  let emptyStore: Record<string, string>
  const started: Array<{ close(): Promise<void> }> = []

  beforeAll(async () => {
    ca = createTestCa()
    sandbox = await startHttpsTestSandbox(ca.server, {
      size: SIZE,
      seed: 7,
      behaviours: { maxPageSize: MAX_PAGE },
    })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-net-'))
    db = join(dir, 'cache.db')
    const emptyDir = join(dir, 'no-certificates')
    mkdirSync(emptyDir)
    writeFileSync(join(dir, 'no-certificates.pem'), '')
    emptyStore = { SSL_CERT_FILE: join(dir, 'no-certificates.pem'), SSL_CERT_DIR: emptyDir }
    // The cache every failing run below must leave as it is.
    const first = await sync(sandbox, ['--ca-file', ca.caFile])
    expect(first.code, first.stderr).toBe(0)
  })
  afterAll(async () => {
    await sandbox.close()
    ca.cleanup()
    cleanup()
  })
  afterEach(async () => {
    for (const item of started.splice(0)) await item.close()
  })

  /** `sync --json` of `service` into the shared cache, logging everything (so a leak would show on stderr). */
  function sync(
    service: SandboxHandle,
    extraArgs: readonly string[],
    env: Record<string, string> = {},
    baseUrl = service.baseUrl,
  ): Promise<CliResult> {
    const args = sandboxServiceArgs(service)
    args[1] = baseUrl
    return startCliProcess(['sync', ...args, '--db', db, '--json', ...extraArgs], {
      ...emptyStore,
      ROSTERDESK_LOG_LEVEL: 'info',
      ...sandboxCliEnv(service),
      ...env,
    }).done
  }
  async function proxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
    const forward = await startForwardProxy(options)
    started.push(forward)
    return forward
  }
  function status(result: CliResult): Record<string, unknown> {
    const lines = result.stdout.split('\n').filter((line) => line !== '')
    expect(lines, `stdout: ${result.stdout} stderr: ${result.stderr}`).toHaveLength(1)
    return JSON.parse(lines[0] ?? '') as Record<string, unknown>
  }
  function unchanged(before: CacheFingerprint): void {
    const after = fingerprintCache(db)
    expect(after.catalog).toBe(before.catalog)
    expect(after.snapshotPath).toBe(before.snapshotPath)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
  }
  function noCredentials(result: CliResult): void {
    for (const text of [result.stdout, result.stderr]) {
      expect(text).not.toContain(PROXY_PASSWORD)
      expect(text).not.toContain(encodeURIComponent(PROXY_PASSWORD))
      expect(text).not.toContain(PROXY_USER)
      expect(text).not.toContain(Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64'))
    }
  }

  it('fails without --ca-file with one line naming the issuer and what to do, and completes with it', async () => {
    const before = fingerprintCache(db)
    const refused = await sync(sandbox, [])
    expect(refused.code).toBe(1)
    expect(status(refused)).toMatchObject({ status: 'failed' })
    expect(status(refused)['error']).toBe(
      `The certificate of 127.0.0.1:${new URL(sandbox.baseUrl).port} is not trusted (issued by ${ca.issuerName}). ` +
        'If your company inspects secure connections, its certificate must be installed in the operating system, ' +
        'or chosen in Settings → Network (on the command line, --ca-file).',
    )
    unchanged(before)
    const text = await startCliProcess(['sync', ...sandboxServiceArgs(sandbox), '--db', db], {
      ...emptyStore,
      ...sandboxCliEnv(sandbox),
    }).done
    expect(text.code).toBe(1)
    expect(text.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Sync failed: The certificate of 127\.0\.0\.1:\d+ is not trusted \(issued by RosterDesk Test Root CA/,
      ),
    ])
    unchanged(before)
    const trusted = await sync(sandbox, ['--ca-file', ca.caFile])
    expect(trusted.code, trusted.stderr).toBe(0)
    expect(status(trusted)).toMatchObject({ status: 'complete', stored: SIZE })
  })

  it('trusts the OS store: a CA the machine trusts (SSL_CERT_FILE on Linux) needs no --ca-file', async () => {
    const result = await sync(sandbox, [], { SSL_CERT_FILE: ca.caFile })
    expect(result.code, result.stderr).toBe(0)
    expect(status(result)).toMatchObject({ status: 'complete', stored: SIZE })
  })

  it('says an expired certificate and a certificate for another host name as such, keeping the cache', async () => {
    const before = fingerprintCache(db)
    const expired = await startHttpsTestSandbox(ca.expired, { size: SIZE, seed: 7 })
    started.push(expired)
    const old = await sync(expired, ['--ca-file', ca.caFile])
    expect(old.code).toBe(1)
    expect(status(old)['error']).toMatch(
      /^The certificate of 127\.0\.0\.1:\d+, issued by RosterDesk Test Root CA \(RosterDesk Tests\), has expired \(valid until .+\) or is not valid yet\./,
    )
    const elsewhere = await startHttpsTestSandbox(ca.wrongHost, { size: SIZE, seed: 7 })
    started.push(elsewhere)
    const wrong = await sync(elsewhere, ['--ca-file', ca.caFile])
    expect(wrong.code).toBe(1)
    expect(status(wrong)['error']).toMatch(
      /^The certificate presented for 127\.0\.0\.1 is for another host name \(wrong-host\.example, issued by RosterDesk Test Root CA/,
    )
    unchanged(before)
  })

  it('syncs through HTTPS_PROXY with credentials in its URL, to a host only the proxy resolves, printing none', async () => {
    const forward = await proxy({
      credentials: { user: PROXY_USER, password: PROXY_PASSWORD },
      hosts: { [EXTRA_SERVER_NAME]: '127.0.0.1' },
    })
    const port = new URL(sandbox.baseUrl).port
    const refreshesBefore = sandbox.stats().refreshes
    const env = sandboxCliEnv(sandbox)
    // The access token has expired: the run refreshes it first, through the proxy like every page.
    sandbox.expireAccessTokens()
    const proxyUrl = `http://${encodeURIComponent(PROXY_USER)}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${forward.port}`
    const result = await sync(
      sandbox,
      ['--ca-file', ca.caFile],
      { ...env, HTTPS_PROXY: proxyUrl },
      `https://${EXTRA_SERVER_NAME}:${port}`,
    )
    expect(result.code, result.stderr).toBe(0)
    expect(status(result)).toMatchObject({ status: 'complete', stored: SIZE })
    expect(sandbox.stats().refreshes).toBe(refreshesBefore + 1)
    // The service's name resolves nowhere but in the proxy: every request, token and pages, went through it.
    expect(forward.requests.length).toBeGreaterThan(0)
    for (const request of forward.requests) {
      expect(request).toMatchObject({
        kind: 'connect',
        target: `${EXTRA_SERVER_NAME}:${port}`,
        credentials: 'right',
      })
    }
    expect(result.stderr).toContain(`Network: proxy 127.0.0.1:${forward.port}, from the environment`)
    noCredentials(result)
  })

  it('syncs through --proxy with ROSTERDESK_PROXY_USER / _PASSWORD, and the proxy sees every request', async () => {
    const plain = await startTestSandbox({ size: SIZE, seed: 7, behaviours: { maxPageSize: MAX_PAGE } })
    started.push(plain)
    const forward = await proxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } })
    const env = sandboxCliEnv(plain)
    plain.expireAccessTokens()
    const plainDb = join(dir, 'plain.db')
    const result = await startCliProcess(
      ['sync', ...sandboxServiceArgs(plain), '--db', plainDb, '--json', '--proxy', forward.url],
      {
        ...env,
        ROSTERDESK_LOG_LEVEL: 'info',
        ROSTERDESK_PROXY_USER: PROXY_USER,
        ROSTERDESK_PROXY_PASSWORD: PROXY_PASSWORD,
      },
    ).done
    expect(result.code, result.stderr).toBe(0)
    expect(status(result)).toMatchObject({ status: 'complete', stored: SIZE })
    const seen = forward.requests
    expect(seen.length).toBe(plain.stats().requests)
    expect(seen.every((request) => request.kind === 'http' && request.credentials === 'right')).toBe(true)
    const paths = seen.map((request) => `${request.method ?? ''} ${new URL(request.url ?? '').pathname}`)
    expect(paths).toContain('POST /openapi/oauth/token')
    expect(paths.filter((path) => path === 'GET /employees/list').length).toBe(plain.stats().listRequests)
    noCredentials(result)
  })

  it('goes direct to a NO_PROXY host', async () => {
    const forward = await proxy()
    const result = await sync(sandbox, ['--ca-file', ca.caFile], {
      HTTPS_PROXY: forward.url,
      NO_PROXY: '127.0.0.1',
    })
    expect(result.code, result.stderr).toBe(0)
    expect(status(result)).toMatchObject({ status: 'complete', stored: SIZE })
    expect(forward.requests).toEqual([])
  })

  it('says the proxy refused the credentials given, not a network error, and keeps the cache', async () => {
    const before = fingerprintCache(db)
    const forward = await proxy({ credentials: { user: PROXY_USER, password: 'the-right-one' } })
    const result = await sync(sandbox, ['--ca-file', ca.caFile, '--proxy', forward.url], {
      ROSTERDESK_PROXY_USER: PROXY_USER,
      ROSTERDESK_PROXY_PASSWORD: PROXY_PASSWORD,
    })
    expect(result.code).toBe(1)
    expect(status(result)['error']).toMatch(
      new RegExp(
        `^The proxy 127\\.0\\.0\\.1:${forward.port} refused the user name and password given \\(HTTP 407\\)`,
      ),
    )
    // The first round's requests (sent together) each got the 407; none was retried, none went through.
    expect(forward.requests.length).toBeGreaterThan(0)
    expect(forward.requests.every((request) => request.credentials === 'wrong' && !request.allowed)).toBe(
      true,
    )
    unchanged(before)
    noCredentials(result)
  })

  it('refuses a --proxy URL with credentials in it, without echoing them', async () => {
    const result = await sync(sandbox, [
      '--proxy',
      `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:9`,
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(
      /^--proxy: a proxy address must not contain a user name or password.*ROSTERDESK_PROXY_USER/,
    )
    noCredentials(result)
  })

  it('refuses a --ca-file that is missing or not PEM, saying which, and login’s --proxy with credentials', async () => {
    const missing = await sync(sandbox, ['--ca-file', join(dir, 'nowhere.pem')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^--ca-file: .*nowhere\.pem cannot be used: there is no such file\./)
    const notPem = join(dir, 'not-a-certificate.pem')
    writeFileSync(notPem, 'not a certificate')
    const wrong = await sync(sandbox, ['--ca-file', notPem])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/holds no certificate in PEM form/)
    const login = await startCliProcess(
      [
        'login',
        '--base-url',
        sandbox.baseUrl,
        '--client-id',
        sandbox.credentials.clientId,
        '--redirect-uri',
        'http://127.0.0.1/callback',
        '--token-file',
        join(dir, 'tokens.json'),
        '--no-open',
        '--proxy',
        `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:9`,
      ],
      { ROSTERDESK_CLIENT_SECRET: sandbox.credentials.clientSecret },
    ).done
    expect(login.code).toBe(2)
    expect(login.stderr).toMatch(/^--proxy: a proxy address must not contain a user name or password/)
    noCredentials(login)
  })
})
