import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MemoryKeyValueBackend, SettingsStore } from '../../src/main/core/settings/settings-store'
import { connectionReportSchema, type ConnectionReport } from '../../src/shared/connection-report-schema'
import type { Settings } from '../../src/shared/settings-schema'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess, type CliResult } from '../helpers/cli-process'
import { startForwardProxy, type ForwardProxy, type ForwardProxyOptions } from '../helpers/forward-proxy'
import { startHttpsTestSandbox, startTestSandbox } from '../helpers/sandbox'
import { createTestCa, EXTRA_SERVER_NAME, type TestCa } from '../helpers/test-ca'
import { makeTempDir } from '../helpers/cache-test-helpers'

const SIZE = 37

function runCheck(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return startCliProcess(['check', ...args], env).done
}

/** stdout of `check --json`: exactly one JSON object. */
function report(result: CliResult): ConnectionReport {
  const lines = result.stdout.split('\n').filter((line) => line !== '')
  expect(lines, `stdout: ${result.stdout} stderr: ${result.stderr}`).toHaveLength(1)
  return JSON.parse(lines[0] ?? '') as ConnectionReport
}

function states(checked: ConnectionReport): string {
  return checked.steps.map((step) => `${step.id}:${step.state}`).join(' ')
}

function step(checked: ConnectionReport, id: string): ConnectionReport['steps'][number] {
  const found = checked.steps.find((candidate) => candidate.id === id)
  if (found === undefined) throw new Error(`no ${id} step`)
  return found
}

/** A port on 127.0.0.1 that nothing listens on: one the OS handed out, closed again. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('CLI: check', () => {
  let sandbox: SandboxHandle

  beforeAll(async () => {
    sandbox = await startTestSandbox({ size: SIZE, seed: 11 })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  it('passes every step against the plain sandbox, the list skipped until signed in', async () => {
    const result = await runCheck(sandboxServiceArgs(sandbox))
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[1]).toBe(`Service: ${sandbox.baseUrl}`)
    expect(lines.slice(2, 9).map((line) => line.slice(0, 1))).toEqual(['✓', '✓', '✓', '–', '✓', '✓', '–'])
    expect(result.stdout).toMatch(
      /^✓ Sign-in \(authorize\) endpoint answers \(\d+ ms\): HTTP 200 \(a web page\)$/m,
    )
    expect(result.stdout).toMatch(
      /^✓ Token endpoint answers JSON \(\d+ ms\): HTTP 400, JSON error invalid_request/m,
    )
    expect(result.stdout).toContain('– Employee list answers (page 1, limit 1): Sign in first')
    expect(lines.at(-1)).toBe(
      'Result: no step failed; “Employee list answers (page 1, limit 1)” was skipped (– above).',
    )
  })

  it('with tokens asks for one employee with the tenant header, and prints no secret', async () => {
    const env = sandboxCliEnv(sandbox)
    const result = await runCheck([...sandboxServiceArgs(sandbox), '--tenant', 'tenant-demo', '--json'], env)
    expect(result.code, result.stderr).toBe(0)
    const checked = report(result)
    expect(states(checked)).toBe('proxy:ok dns:ok tcp:ok tls:skipped authorize:ok token:ok list:ok')
    expect(step(checked, 'list').message).toBe(`answered with 1 of ${SIZE} employees (tenant tenant-demo)`)
    const everything = result.stdout + result.stderr
    for (const secret of [
      env['ROSTERDESK_ACCESS_TOKEN'],
      env['ROSTERDESK_REFRESH_TOKEN'],
      env['ROSTERDESK_CLIENT_SECRET'],
    ]) {
      expect(secret).toBeTruthy()
      expect(everything).not.toContain(secret)
    }
    // The list step counts employees; no name from the service reaches the report.
    const first = sandbox.allEmployees()[0]
    expect(first).toBeDefined()
    expect(everything).not.toContain(String(first?.['lastName']))
    expect(everything).not.toContain(String(first?.['UUID']))
  })

  it('a refused connection fails TCP and skips the service, exit 1', async () => {
    const port = await deadPort()
    const result = await runCheck(['--base-url', `http://127.0.0.1:${port}`, '--json'])
    expect(result.code).toBe(1)
    const checked = report(result)
    expect(checked.ok).toBe(false)
    expect(states(checked)).toBe(
      'proxy:ok dns:ok tcp:failed tls:skipped authorize:skipped token:skipped list:skipped',
    )
    expect(step(checked, 'tcp')).toMatchObject({ code: 'connection-refused' })
    expect(step(checked, 'tcp').message).toContain(`127.0.0.1:${port} was refused`)
  })

  it('a name that does not resolve fails DNS, exit 1, the text naming the host', async () => {
    const result = await runCheck(['--base-url', 'https://payroll.rosterdesk-check.invalid'])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(
      /^✗ DNS: payroll\.rosterdesk-check\.invalid \(\d+ ms\): The host name payroll\.rosterdesk-check\.invalid does not resolve\./m,
    )
    expect(result.stdout).toContain('– TCP: payroll.rosterdesk-check.invalid:443: The name')
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Result: the connection failed at “DNS: payroll.rosterdesk-check.invalid” (✗ above).',
    )
  })

  it('refuses bad flags as the other commands do, exit 2', async () => {
    const unknown = await runCheck(['--bogus'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("Unknown option '--bogus'")
    expect(unknown.stderr).toContain('Usage: check')
    const missing = await runCheck([])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('Missing --base-url.')
    expect(missing.stdout).toBe('')
  })
})

const PROXY_USER = 'clerk.proxy'
const PROXY_PASSWORD = 'Pr0xy-S3cret!'
const MARKS = '[✓✗–]'

/** The text report's line for the step whose label starts with `label` ("TLS:", "Proxy for"). */
function stepLine(result: CliResult, label: string): string {
  const found = result.stdout
    .split('\n')
    .find((line) => new RegExp(`^${MARKS} `).test(line) && line.slice(2).startsWith(label))
  if (found === undefined) throw new Error(`no "${label}" step in: ${result.stdout}${result.stderr}`)
  return found
}

/** The marks of the seven steps, in order: "✓✓✓✓✓✓–". */
function marks(result: CliResult): string {
  return result.stdout
    .split('\n')
    .filter((line) => new RegExp(`^${MARKS} `).test(line))
    .map((line) => line.slice(0, 1))
    .join('')
}

/** A timed step's line: mark, label, "(N ms)", then the message. */
function timed(mark: string, label: string, message: string): RegExp {
  const quote = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${quote(mark)} ${quote(label)} \\(\\d+(?:\\.\\d)? m?s\\): ${quote(message)}$`)
}

/**
 * `cli check` over HTTPS with a private CA and through a forward proxy (issue 22): the same network as the sync
 * (--proxy, --ca-file, HTTPS_PROXY / NO_PROXY, ROSTERDESK_PROXY_USER / _PASSWORD, the profile's settings), each
 * step asserted, and no secret (proxy password, client secret, tokens) in the output or the log (stderr, at info).
 */
describe('CLI check: certificates and proxies', () => {
  let ca: TestCa
  let sandbox: SandboxHandle
  let port: string
  let dir: string
  let cleanup: () => void
  /** A machine store with nothing in it, so only --ca-file (or the profile's file) trusts the test CA. */
  let emptyStore: Record<string, string>
  const started: Array<{ close(): Promise<void> }> = []

  beforeAll(async () => {
    ca = createTestCa()
    sandbox = await startHttpsTestSandbox(ca.server, { size: SIZE, seed: 11 })
    port = new URL(sandbox.baseUrl).port
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-check-net-'))
    const emptyDir = join(dir, 'no-certificates')
    mkdirSync(emptyDir)
    writeFileSync(join(dir, 'no-certificates.pem'), '')
    emptyStore = { SSL_CERT_FILE: join(dir, 'no-certificates.pem'), SSL_CERT_DIR: emptyDir }
  })
  afterAll(async () => {
    await sandbox.close()
    ca.cleanup()
    cleanup()
  })
  afterEach(async () => {
    for (const item of started.splice(0)) await item.close()
  })

  /** `check` of `service` with fresh tokens and the client secret, logging everything, then the secrets checked. */
  async function check(
    service: SandboxHandle,
    args: readonly string[],
    env: Record<string, string> = {},
    baseUrl = service.baseUrl,
  ): Promise<CliResult> {
    const serviceArgs = sandboxServiceArgs(service)
    serviceArgs[1] = baseUrl
    const secrets = sandboxCliEnv(service)
    const result = await startCliProcess(['check', ...serviceArgs, ...args], {
      ...emptyStore,
      ROSTERDESK_LOG_LEVEL: 'info',
      ...secrets,
      ...env,
    }).done
    noSecrets(result, Object.values(secrets))
    return result
  }
  function noSecrets(result: CliResult, secrets: readonly string[]): void {
    const everything = result.stdout + result.stderr
    for (const secret of [
      ...secrets,
      PROXY_PASSWORD,
      encodeURIComponent(PROXY_PASSWORD),
      PROXY_USER,
      Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64'),
    ]) {
      expect(secret.length).toBeGreaterThan(0)
      expect(everything).not.toContain(secret)
    }
  }
  async function proxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
    const forward = await startForwardProxy(options)
    started.push(forward)
    return forward
  }
  async function httpsSandbox(pair: TestCa['server']): Promise<SandboxHandle> {
    const other = await startHttpsTestSandbox(pair, { size: SIZE, seed: 11 })
    started.push(other)
    return other
  }

  it('without --ca-file: TLS ✗ naming the issuer in the sync’s words, the service not tried, exit 1', async () => {
    const result = await check(sandbox, [])
    expect(result.code).toBe(1)
    expect(marks(result)).toBe('✓✓✓✗–––')
    // A sync of the same service fails with the very same sentence.
    const sync = await startCliProcess(
      ['sync', ...sandboxServiceArgs(sandbox), '--db', join(dir, 'refused.db'), '--json'],
      { ...emptyStore, ...sandboxCliEnv(sandbox) },
    ).done
    expect(sync.code).toBe(1)
    const syncError = String((JSON.parse(sync.stdout) as Record<string, unknown>)['error'])
    expect(syncError).toBe(
      `The certificate of 127.0.0.1:${port} is not trusted (issued by ${ca.issuerName}). ` +
        'If your company inspects secure connections, its certificate must be installed in the operating system, ' +
        'or chosen in Settings → Network (on the command line, --ca-file).',
    )
    expect(stepLine(result, 'TLS:')).toMatch(timed('✗', `TLS: 127.0.0.1:${port}`, syncError))
    expect(result.stdout).toContain(
      '    CN=127.0.0.1, issued by CN=RosterDesk Test Root CA, O=RosterDesk Tests',
    )
    const notTried = 'Not tried: the TLS step failed, so the service cannot be reached.'
    expect(stepLine(result, 'Sign-in')).toBe(`– Sign-in (authorize) endpoint answers: ${notTried}`)
    expect(stepLine(result, 'Token')).toBe(`– Token endpoint answers JSON: ${notTried}`)
    expect(stepLine(result, 'Employee list')).toBe(`– Employee list answers (page 1, limit 1): ${notTried}`)
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      `Result: the connection failed at “TLS: 127.0.0.1:${port}” (✗ above).`,
    )
  })

  it('with --ca-file: every step ✓, the chain trusted by the set that includes the file', async () => {
    const result = await check(sandbox, ['--ca-file', ca.caFile])
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(marks(result)).toBe('✓✓✓✓✓✓✓')
    expect(stepLine(result, 'Proxy for')).toMatch(
      timed(
        '✓',
        `Proxy for ${sandbox.baseUrl}`,
        'none, connecting directly (no proxy is set: no --proxy, HTTPS_PROXY or HTTP_PROXY)',
      ),
    )
    expect(stepLine(result, 'TLS:')).toMatch(
      timed(
        '✓',
        `TLS: 127.0.0.1:${port}`,
        `TLSv1.3, the certificate chain is trusted by Node's bundled list and this computer's store and ${ca.caFile}`,
      ),
    )
    expect(stepLine(result, 'Employee list')).toMatch(
      timed(
        '✓',
        'Employee list answers (page 1, limit 1)',
        `answered with 1 of ${SIZE} employees (no tenant header)`,
      ),
    )
    expect(result.stderr).toContain(
      `Network: no proxy, from the environment (default); extra certificates from ${ca.caFile}`,
    )
  })

  it('says an expired certificate and one for another host name as such', async () => {
    const expired = await httpsSandbox(ca.expired)
    const old = await check(expired, ['--ca-file', ca.caFile])
    expect(old.code).toBe(1)
    expect(marks(old)).toBe('✓✓✓✗–––')
    expect(stepLine(old, 'TLS:')).toMatch(
      /^✗ TLS: 127\.0\.0\.1:\d+ \(\d+ ms\): The certificate of 127\.0\.0\.1:\d+, issued by RosterDesk Test Root CA \(RosterDesk Tests\), has expired \(valid until .+\) or is not valid yet\./,
    )
    const elsewhere = await httpsSandbox(ca.wrongHost)
    const wrong = await check(elsewhere, ['--ca-file', ca.caFile])
    expect(wrong.code).toBe(1)
    expect(marks(wrong)).toBe('✓✓✓✗–––')
    expect(stepLine(wrong, 'TLS:')).toMatch(
      /^✗ TLS: 127\.0\.0\.1:\d+ \(\d+ ms\): The certificate presented for 127\.0\.0\.1 is for another host name \(wrong-host\.example, issued by RosterDesk Test Root CA/,
    )
    expect(wrong.stdout).toContain('    CN=wrong-host.example, issued by CN=RosterDesk Test Root CA')
  })

  it('through HTTPS_PROXY with credentials in its URL: ✓, the proxy named without them, every request through it', async () => {
    const forward = await proxy({
      credentials: { user: PROXY_USER, password: PROXY_PASSWORD },
      hosts: { [EXTRA_SERVER_NAME]: '127.0.0.1' },
    })
    const listsBefore = sandbox.stats().listRequests
    const proxyUrl = `http://${encodeURIComponent(PROXY_USER)}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${forward.port}`
    const service = `https://${EXTRA_SERVER_NAME}:${port}`
    const result = await check(sandbox, ['--ca-file', ca.caFile], { HTTPS_PROXY: proxyUrl }, service)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(marks(result)).toBe('✓✓✓✓✓✓✓')
    expect(stepLine(result, 'Proxy for')).toMatch(
      timed('✓', `Proxy for ${service}`, `http://127.0.0.1:${forward.port} (HTTPS_PROXY)`),
    )
    expect(stepLine(result, 'DNS:')).toMatch(
      timed(
        '✓',
        'DNS: proxy 127.0.0.1',
        `the proxy's host resolves to 127.0.0.1 (the proxy looks up ${EXTRA_SERVER_NAME} itself)`,
      ),
    )
    expect(stepLine(result, 'TCP:')).toMatch(
      timed(
        '✓',
        `TCP: proxy 127.0.0.1:${forward.port}`,
        `connected to the proxy at 127.0.0.1:${forward.port} (the proxy connects to ${EXTRA_SERVER_NAME}:${port} itself)`,
      ),
    )
    expect(stepLine(result, 'TLS:')).toMatch(
      new RegExp(`^✓ TLS: ${EXTRA_SERVER_NAME.replace(/\./g, '\\.')}:${port} through the proxy `),
    )
    // The service's name resolves nowhere but in the proxy: the TLS look and every request went through it.
    expect(forward.requests.length).toBeGreaterThanOrEqual(2)
    for (const request of forward.requests) {
      expect(request).toMatchObject({
        kind: 'connect',
        target: `${EXTRA_SERVER_NAME}:${port}`,
        credentials: 'right',
      })
    }
    expect(sandbox.stats().listRequests).toBe(listsBefore + 1)
  })

  it('through --proxy with ROSTERDESK_PROXY_USER / _PASSWORD: the proxy saw the check’s requests', async () => {
    const plain = await startTestSandbox({ size: SIZE, seed: 11 })
    started.push(plain)
    const forward = await proxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } })
    const result = await check(plain, ['--proxy', forward.url], {
      ROSTERDESK_PROXY_USER: PROXY_USER,
      ROSTERDESK_PROXY_PASSWORD: PROXY_PASSWORD,
    })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(marks(result)).toBe('✓✓✓–✓✓✓')
    expect(stepLine(result, 'Proxy for')).toMatch(
      timed('✓', `Proxy for ${plain.baseUrl}`, `${forward.url} (--proxy)`),
    )
    const seen = forward.requests.map(
      (request) =>
        `${request.kind} ${request.credentials} ${request.method ?? ''} ${new URL(request.url ?? 'x:').pathname}`,
    )
    expect(seen).toEqual([
      'http right GET /openapi/oauthv1/authorize',
      'http right POST /openapi/oauthv1/token',
      'http right GET /employees/list',
    ])
  })

  it('goes direct to a NO_PROXY host and says why', async () => {
    const forward = await proxy()
    const result = await check(sandbox, ['--ca-file', ca.caFile], {
      HTTPS_PROXY: forward.url,
      NO_PROXY: '127.0.0.1',
    })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(marks(result)).toBe('✓✓✓✓✓✓✓')
    expect(stepLine(result, 'Proxy for')).toMatch(
      timed('✓', `Proxy for ${sandbox.baseUrl}`, 'none, connecting directly (NO_PROXY lists 127.0.0.1)'),
    )
    expect(stepLine(result, 'DNS:')).toMatch(timed('✓', 'DNS: 127.0.0.1', 'resolves to 127.0.0.1'))
    expect(forward.requests).toEqual([])
  })

  it('--json: wrong proxy credentials fail TLS and the service’s steps as proxy-auth, exit 1', async () => {
    const forward = await proxy({ credentials: { user: PROXY_USER, password: 'the-right-one' } })
    const result = await check(sandbox, ['--ca-file', ca.caFile, '--proxy', forward.url, '--json'], {
      ROSTERDESK_PROXY_USER: PROXY_USER,
      ROSTERDESK_PROXY_PASSWORD: PROXY_PASSWORD,
    })
    expect(result.code).toBe(1)
    const lines = result.stdout.split('\n').filter((line) => line !== '')
    expect(lines, result.stdout + result.stderr).toHaveLength(1)
    const checked = connectionReportSchema.parse(JSON.parse(lines[0] ?? ''))
    expect(checked.ok).toBe(false)
    expect(checked.runtime).toBe('cli')
    expect(checked.steps.map((step) => `${step.id}:${step.state}:${step.code ?? ''}`)).toEqual([
      'proxy:ok:',
      'dns:ok:',
      'tcp:ok:',
      'tls:failed:proxy-auth',
      'authorize:failed:proxy-auth',
      'token:failed:proxy-auth',
      'list:failed:proxy-auth',
    ])
    const refused = new RegExp(
      `^The proxy 127\\.0\\.0\\.1:${forward.port} refused the user name and password given \\(HTTP 407\\)`,
    )
    for (const failed of checked.steps.filter((step) => step.state === 'failed')) {
      expect(failed.message).toMatch(refused)
    }
    expect(checked.steps[0]?.message).toBe(`${forward.url} (--proxy)`)
    expect(forward.requests.length).toBeGreaterThan(0)
    expect(forward.requests.every((request) => request.credentials === 'wrong' && !request.allowed)).toBe(
      true,
    )
  })

  it('takes the profile’s proxy and certificates file, and says a PAC file is not supported as the sync does', async () => {
    const forward = await proxy()
    const dataDir = join(dir, 'profiles')
    mkdirSync(dataDir, { recursive: true })
    const backend = new MemoryKeyValueBackend()
    const settings = new SettingsStore(backend)
    const save = (name: string, network: Partial<Settings>): void => {
      const profile = settings.profiles.create(name)
      settings.profiles.setActive(profile.id)
      const saved = settings.update({
        environment: 'staging',
        baseUrls: { staging: sandbox.baseUrl },
        clientId: sandbox.credentials.clientId,
        redirectUri: sandbox.credentials.redirectUri,
        extraCertificatesFile: ca.caFile,
        ...network,
      })
      expect(saved.ok).toBe(true)
    }
    save('Office', { proxyMode: 'fixed', proxyUrl: forward.url })
    save('Wpad', { proxyMode: 'pac', pacUrl: 'http://wpad.corp.example/proxy.pac' })
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(Object.fromEntries(backend.values)))
    const run = (name: string): Promise<CliResult> =>
      startCliProcess(['check', '--profile', name, '--data-dir', dataDir], emptyStore).done

    const office = await run('Office')
    expect(office.code, office.stdout + office.stderr).toBe(0)
    expect(marks(office)).toBe('✓✓✓✓✓✓–')
    expect(stepLine(office, 'Proxy for')).toMatch(
      timed(
        '✓',
        `Proxy for ${sandbox.baseUrl}`,
        `${forward.url} (the profile's setting, Settings → Network)`,
      ),
    )
    expect(stepLine(office, 'TLS:')).toContain(
      `trusted by Node's bundled list and this computer's store and ${ca.caFile}`,
    )
    expect(forward.requests.length).toBeGreaterThanOrEqual(2)

    const wpad = await run('Wpad')
    const sync = await startCliProcess(['sync', '--profile', 'Wpad', '--data-dir', dataDir], emptyStore).done
    const note = (result: CliResult): string | undefined =>
      result.stderr.split('\n').find((line) => line.startsWith('Note: '))
    expect(note(wpad)).toMatch(
      /^Note: The profile's PAC file \(http:\/\/wpad\.corp\.example\/proxy\.pac\) is not supported on the command line/,
    )
    expect(note(wpad)).toBe(note(sync))
    expect(wpad.code, wpad.stdout + wpad.stderr).toBe(0)
    expect(stepLine(wpad, 'Proxy for')).toMatch(
      timed(
        '✓',
        `Proxy for ${sandbox.baseUrl}`,
        'none, connecting directly (no proxy is set: no --proxy, HTTPS_PROXY or HTTP_PROXY)',
      ),
    )
  })

  it('refuses a --proxy URL with credentials in it, without echoing them, exit 2', async () => {
    const result = await check(sandbox, [
      '--proxy',
      `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:9`,
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(
      /^--proxy: a proxy address must not contain a user name or password.*ROSTERDESK_PROXY_USER/,
    )
    expect(result.stderr).toContain('Usage: check')
    expect(result.stdout).toBe('')
  })
})
