import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { parseCliArgs, UsageError } from '../../../../src/main/sandbox/cli-args'
import { createTestCa } from '../../../helpers/test-ca'

const TSX = 'node_modules/.bin/tsx'
const CLI = 'src/main/sandbox/cli.ts'

function run(args: string[]): ChildProcess {
  return spawn(TSX, [CLI, ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] })
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })
}

async function firstLines(child: ChildProcess, count: number): Promise<string[]> {
  const lines: string[] = []
  const reader = createInterface({ input: child.stdout! })
  for await (const line of reader) {
    lines.push(line)
    if (lines.length === count) break
  }
  return lines
}

describe('npm run sandbox (src/main/sandbox/cli.ts)', () => {
  let child: ChildProcess | null = null
  afterEach(async () => {
    if (child !== null && child.exitCode === null) {
      child.kill('SIGTERM')
      await exited(child)
    }
    child = null
  })

  it('prints the five connection lines and serves a full authorize, token and list round trip', async () => {
    child = run(['--port', '0', '--lifetime', '30', '--size', '40'])
    const lines = await firstLines(child, 5)
    expect(lines.map((line) => line.split('=')[0])).toEqual([
      'baseUrl',
      'clientId',
      'clientSecret',
      'redirectUri',
      'tenantId',
    ])
    const config = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    )
    expect(config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const { baseUrl, tenantId, tokens } = await signInThrough(config)
    const list = await fetch(`${baseUrl}/employees/list?limit=5`, {
      headers: {
        authorization: `Bearer ${String(tokens['access_token'])}`,
        accept: 'application/json',
        'vnd.a1.tenant-id': tenantId,
      },
    })
    expect(list.status).toBe(200)
    expect(await list.json()).toMatchObject({ totalCount: 40, totalPages: 8, limit: 5, currentPage: 1 })
  })

  it('behaves as its options say: default size, token style, tenant header required, page-size cap, latency', async () => {
    child = run([
      '--lifetime',
      '30',
      '--token-style',
      'camel',
      '--tenant-required',
      '--max-page-size',
      '3',
      '--latency',
      '150',
    ])
    const lines = await firstLines(child, 5)
    const config = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    )
    const { baseUrl, tenantId, tokens } = await signInThrough(config)
    expect(tokens).toHaveProperty('accessToken')
    expect(tokens).not.toHaveProperty('access_token')
    const headers = { authorization: `Bearer ${String(tokens['accessToken'])}`, accept: 'application/json' }
    const refused = await fetch(`${baseUrl}/employees/list?limit=10`, { headers })
    expect(refused.status).toBe(403)
    const started = performance.now()
    const list = await fetch(`${baseUrl}/employees/list?limit=10`, {
      headers: { ...headers, 'vnd.a1.tenant-id': tenantId },
    })
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    const envelope = (await list.json()) as { rows: unknown[]; totalCount: number; limit: number }
    expect(envelope).toMatchObject({ totalCount: 2500, limit: 3, totalPages: 834 })
    expect(envelope.rows).toHaveLength(3)
  })

  it('exits with code 2 and a one-line message for a bad option', async () => {
    child = run(['--token-style', 'xml'])
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    expect(await exited(child)).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/token-style/)
  })
})

/** Plays the browser and the app against a sandbox started from the command line: consent, approve, code exchange. */
async function signInThrough(
  config: Record<string, string>,
): Promise<{ baseUrl: string; tenantId: string; tokens: Record<string, unknown> }> {
  const get = (key: string): string => config[key] ?? ''
  const [baseUrl, clientId, clientSecret, redirectUri, tenantId] = [
    'baseUrl',
    'clientId',
    'clientSecret',
    'redirectUri',
    'tenantId',
  ].map(get) as [string, string, string, string, string]

  const query = new URLSearchParams({
    responseType: 'code',
    clientId,
    redirectUri,
    scope: 'read',
    state: 'cli-state',
  })
  const page = await fetch(`${baseUrl}/openapi/oauthv1/authorize?${query}`, { redirect: 'manual' })
  const requestId = /name="requestId" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  const approved = await fetch(`${baseUrl}/openapi/oauthv1/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ requestId, decision: 'approve' }),
    redirect: 'manual',
  })
  const callback = new URL(approved.headers.get('location') ?? '')
  expect(callback.searchParams.get('state')).toBe('cli-state')

  const tokenResponse = await fetch(`${baseUrl}/openapi/oauthv1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      code: callback.searchParams.get('code'),
      clientId,
      clientSecret,
      redirectUri,
      grantType: 'authorization_code',
    }),
  })
  const tokens = (await tokenResponse.json()) as Record<string, unknown>
  return { baseUrl, tenantId, tokens }
}

describe('sandbox command-line parsing', () => {
  it('maps every option onto sandbox options', () => {
    const options = parseCliArgs([
      '--port=4100',
      '--size=10',
      '--seed=3',
      '--token-style=wrapped',
      '--token-ttl=2',
      '--max-page-size=50',
      '--latency=5',
      '--rate-limit=0.1',
      '--retry-after=3',
      '--fail-5xx=0.2',
      '--truncate=0.3',
      '--churn=4,2,6',
      '--mutate=7,2',
      '--tenant-required',
      '--reject-refresh',
      '--no-rotate-refresh',
      '--redirect-uri=app:/a',
      '--redirect-uri=http://127.0.0.1/b',
      '--lifetime=1.5',
      '--log',
    ])
    expect(options).toMatchObject({
      port: 4100,
      size: 10,
      seed: 3,
      redirectUris: ['app:/a', 'http://127.0.0.1/b'],
      lifetimeMs: 1500,
      log: expect.any(Function),
      behaviours: {
        tokenStyle: 'wrapped',
        accessTokenTtlSeconds: 2,
        maxPageSize: 50,
        latencyMs: 5,
        faults: { rateLimit: 0.1, rateLimitRetryAfterSeconds: 3, serverErrorHtml: 0.2, truncatedJson: 0.3 },
        churn: { add: 4, remove: 2, listRequests: 6 },
        mutate: { rows: 7, listRequests: 2 },
        tenantRequired: true,
        rejectRefresh: true,
        refreshTokenOnRefresh: false,
      },
    })
  })

  it('rejects unknown options, bad numbers and malformed churn or mutate', () => {
    for (const args of [
      ['--nope'],
      ['--port', 'x'],
      ['--rate-limit', '2'],
      ['--churn', '1,2'],
      ['--mutate', '3'],
      ['extra'],
    ]) {
      expect(() => parseCliArgs(args)).toThrow(UsageError)
    }
  })

  it('reads --tls-cert and --tls-key as PEM text, both or neither', () => {
    const ca = createTestCa()
    try {
      const keyFile = join(ca.dir, 'server.key')
      const options = parseCliArgs(['--tls-cert', ca.server.certFile, '--tls-key', keyFile])
      expect(options).toMatchObject({ tls: { cert: ca.server.cert, key: ca.server.key } })
      expect(() => parseCliArgs(['--tls-cert', ca.server.certFile])).toThrow(
        '--tls-cert and --tls-key go together',
      )
      expect(() => parseCliArgs(['--tls-cert', join(ca.dir, 'none.pem'), '--tls-key', keyFile])).toThrow(
        /--tls-cert: cannot read/,
      )
    } finally {
      ca.cleanup()
    }
  })
})
