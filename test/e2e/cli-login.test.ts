import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tokenFileSchema } from '../../src/main/core/auth/token-file'
import { useTestSandbox } from '../helpers/sandbox'

/**
 * `cli login` as a script would use it: spawned with --no-open, the authorize URL read from the first line of
 * stdout and followed with a plain HTTP client playing the browser, the tokens checked in the file it wrote.
 */

const ROOT = resolve(__dirname, '..', '..')
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx')
const getSandbox = useTestSandbox({ size: 25 })
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rosterdesk-cli-login-'))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

interface Run {
  readonly child: ChildProcessWithoutNullStreams
  /** The first line of stdout. */
  readonly firstLine: Promise<string>
  /** Exit code with everything written, once the process ended. */
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>
}

function runCli(args: readonly string[], env: Record<string, string | undefined>): Run {
  const child = spawn(TSX, ['src/main/cli/index.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const lines = createInterface({ input: child.stdout })
  const firstLine = new Promise<string>((resolveLine, reject) => {
    lines.once('line', resolveLine)
    child.once('exit', () => reject(new Error(`the CLI exited before printing a line: ${stderr}`)))
  })
  firstLine.catch(() => undefined)
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveDone) => {
    child.once('close', (code) => resolveDone({ code, stdout, stderr }))
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000)
  void done.then(() => clearTimeout(timer))
  return { child, firstLine, done }
}

/** The browser's part over plain HTTP: consent page, the button, then the redirect to the CLI's loopback port. */
async function answer(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<string> {
  const consent = await fetch(authorizeUrl)
  expect(consent.status).toBe(200)
  const requestId = /name="requestId" value="([^"]+)"/.exec(await consent.text())?.[1]
  expect(requestId).toBeDefined()
  const posted = await fetch(new URL('/openapi/oauthv1/authorize', authorizeUrl), {
    method: 'POST',
    body: new URLSearchParams({ requestId: requestId!, decision }),
    redirect: 'manual',
  })
  expect(posted.status).toBe(302)
  const location = posted.headers.get('location')!
  const landing = await fetch(location)
  return landing.text()
}

/** No port in the redirect URI: the CLI listens on whichever port the OS gives it (RFC 8252 §7.3). */
const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback'

function loginArgs(tokenFile: string): string[] {
  const sandbox = getSandbox()
  return [
    'login',
    '--base-url',
    sandbox.baseUrl,
    '--client-id',
    sandbox.credentials.clientId,
    '--redirect-uri',
    LOOPBACK_REDIRECT,
    '--token-file',
    tokenFile,
    '--tenant',
    sandbox.credentials.tenantId,
    '--no-open',
  ]
}

describe('cli login', () => {
  it('prints the authorize URL first, receives the callback on the loopback port and writes a 0600 token file', async () => {
    const sandbox = getSandbox()
    const tokenFile = join(dir, 'tokens.json')
    const run = runCli(loginArgs(tokenFile), {
      ROSTERDESK_CLIENT_SECRET: sandbox.credentials.clientSecret,
    })

    const authorizeUrl = new URL(await run.firstLine)
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(
      `${sandbox.baseUrl}/openapi/oauthv1/authorize`,
    )
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      responseType: 'code',
      clientId: 'rosterdesk-demo',
      scope: 'read',
    })
    // The port the CLI actually listens on, read back from what it sent.
    expect(authorizeUrl.searchParams.get('redirectUri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    const landing = await answer(authorizeUrl.toString(), 'approve')
    expect(landing).toContain('You are signed in to RosterDesk. You can close this tab.')

    const result = await run.done
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines.at(-1)).toBe(`Signed in. Tokens written to ${tokenFile}.`)

    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600)
    const file = tokenFileSchema.parse(JSON.parse(await readFile(tokenFile, 'utf8')))
    expect(Object.keys(JSON.parse(await readFile(tokenFile, 'utf8')))).toEqual([
      'baseUrl',
      'clientId',
      'redirectUri',
      'tenantId',
      'accessToken',
      'refreshToken',
      'expiresAt',
    ])
    expect(file).toMatchObject({
      baseUrl: sandbox.baseUrl,
      clientId: 'rosterdesk-demo',
      redirectUri: LOOPBACK_REDIRECT,
      tenantId: 'tenant-demo',
    })
    expect(file.refreshToken).not.toBeNull()
    const expiresIn = Date.parse(file.expiresAt!) - Date.now()
    expect(expiresIn).toBeGreaterThan(3_500_000)
    expect(expiresIn).toBeLessThanOrEqual(3_600_000)

    const list = await fetch(`${sandbox.baseUrl}/employees/list?page=1&limit=10`, {
      headers: {
        Authorization: `Bearer ${file.accessToken}`,
        Accept: 'application/json',
        'vnd.a1.tenant-id': file.tenantId,
      },
    })
    expect(list.status).toBe(200)
    const body = (await list.json()) as { rows: unknown[]; totalCount: number }
    expect(body.rows).toHaveLength(10)
    expect(body.totalCount).toBe(25)

    // Nothing secret on the terminal.
    const printed = result.stdout + result.stderr
    expect(printed).not.toContain(sandbox.credentials.clientSecret)
    expect(printed).not.toContain(file.accessToken)
    expect(printed).not.toContain(file.refreshToken!)
  })

  it('under a machine policy, takes the tenant and scopes left out from the policy’s profile, and its secret', async () => {
    const sandbox = getSandbox()
    const policyFile = join(dir, 'policy.json')
    await writeFile(
      policyFile,
      JSON.stringify({
        profiles: [
          {
            name: 'Payroll',
            environment: 'production',
            baseUrl: sandbox.baseUrl,
            clientId: sandbox.credentials.clientId,
            clientSecret: sandbox.credentials.clientSecret,
            tenantId: sandbox.credentials.tenantId,
            scopes: 'read',
            locked: ['baseUrl', 'clientId', 'tenantId', 'scopes'],
          },
        ],
      }),
    )
    const tokenFile = join(dir, 'policy-tokens.json')
    const args = loginArgs(tokenFile)
    args.splice(args.indexOf('--tenant'), 2)
    // No ROSTERDESK_CLIENT_SECRET: the policy's secret is the one sent.
    const run = runCli(args, { ROSTERDESK_POLICY_FILE: policyFile, ROSTERDESK_CLIENT_SECRET: '' })
    const authorizeUrl = new URL(await run.firstLine)
    expect(authorizeUrl.searchParams.get('scope')).toBe('read')
    await answer(authorizeUrl.toString(), 'approve')
    const result = await run.done
    expect(result.code, result.stderr).toBe(0)
    const file = tokenFileSchema.parse(JSON.parse(await readFile(tokenFile, 'utf8')))
    expect(file.tenantId).toBe(sandbox.credentials.tenantId)
  })

  it('exits 1 with one clear line when the clerk denies access, writing no file', async () => {
    const sandbox = getSandbox()
    const tokenFile = join(dir, 'denied.json')
    const run = runCli(loginArgs(tokenFile), {
      ROSTERDESK_CLIENT_SECRET: sandbox.credentials.clientSecret,
    })
    const landing = await answer(await run.firstLine, 'deny')
    expect(landing).toContain('You declined access in the browser.')
    const result = await run.done
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('You declined access in the browser. Sign in again when ready.\n')
    await expect(stat(tokenFile)).rejects.toThrow(/ENOENT/)
  })

  it('refuses to start without the client secret or with a redirect URI it cannot receive (exit 2)', async () => {
    const args = loginArgs(join(dir, 'y.json'))
    args[args.indexOf('--redirect-uri') + 1] = 'com.rosterdesk.app:/oauth/callback'
    const [missingSecret, customScheme] = await Promise.all([
      runCli(loginArgs(join(dir, 'x.json')), { ROSTERDESK_CLIENT_SECRET: '' }).done,
      runCli(args, { ROSTERDESK_CLIENT_SECRET: 'x' }).done,
    ])
    expect(missingSecret.code).toBe(2)
    expect(missingSecret.stdout).toBe('')
    expect(missingSecret.stderr).toBe(
      'Set ROSTERDESK_CLIENT_SECRET to the client secret (it is never taken as an argument).\n',
    )

    expect(customScheme.code).toBe(2)
    expect(customScheme.stderr.trim().split('\n')).toEqual([
      'login needs a loopback redirect URI such as http://127.0.0.1:8765/callback (RFC 8252 §7.3); the command line cannot receive custom-scheme links.',
    ])
  })
})
