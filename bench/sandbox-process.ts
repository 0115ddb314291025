import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { AccessTokenSource } from '../src/main/core/api/access-token-source'
import type { FetchLike } from '../src/main/core/api/fetch-like'
import { resolveNodeNetwork } from '../src/main/core/net/network-options'
import { createNodeFetch } from '../src/main/core/net/node-fetch'

const ROOT = join(__dirname, '..')

/** The sandbox running as its own process (`npm run sandbox`), so its work does not share the client's thread. */
export interface SandboxProcess {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly redirectUri: string
  readonly tenantId: string
  /**
   * The fetch every bench reaches the sandbox with: the CLI's (`createNodeFetch`: undici's own fetch, Node's
   * bundled certificates and the OS store), always direct. The environment's proxy is not read: the sandbox is on
   * loopback, and a proxy a developer has set would be measured instead of RosterDesk.
   */
  readonly fetch: FetchLike
  /** Stops the sandbox and closes the fetch's connections. */
  close(): Promise<void>
}

export async function startSandboxProcess(args: readonly string[]): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main/sandbox/cli.ts', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const values = await new Promise<Record<string, string>>((resolve, reject) => {
    let text = ''
    const found: Record<string, string> = {}
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8')
      for (const line of text.split('\n')) {
        const eq = line.indexOf('=')
        if (eq > 0) found[line.slice(0, eq)] = line.slice(eq + 1).trim()
      }
      if (found['tenantId'] !== undefined) resolve(found)
    })
    child.once('exit', (code) => reject(new Error(`the sandbox exited early (code ${code})`)))
  })
  const net = createNodeFetch(resolveNodeNetwork({ env: {} }))
  return {
    fetch: net.fetch,
    baseUrl: values['baseUrl'] ?? '',
    clientId: values['clientId'] ?? '',
    clientSecret: values['clientSecret'] ?? '',
    redirectUri: values['redirectUri'] ?? '',
    tenantId: values['tenantId'] ?? '',
    close: async () => {
      await net.close()
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
    },
  }
}

/** Signs in the way a browser would (consent page, Approve, code exchange) and returns a fixed token source. */
export async function signIn(sandbox: SandboxProcess): Promise<AccessTokenSource> {
  const fetch = sandbox.fetch
  const query = new URLSearchParams({
    responseType: 'code',
    clientId: sandbox.clientId,
    redirectUri: sandbox.redirectUri,
    scope: 'read',
    state: 'bench-state',
  })
  const page = await fetch(`${sandbox.baseUrl}/openapi/oauthv1/authorize?${query}`)
  const requestId = /name="requestId" value="([^"]+)"/.exec(await page.text())?.[1]
  if (requestId === undefined) throw new Error('bench: no consent page')
  const approved = await fetch(`${sandbox.baseUrl}/openapi/oauthv1/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ requestId, decision: 'approve' }),
    redirect: 'manual',
  })
  const code = new URL(approved.headers.get('location') ?? 'x:/').searchParams.get('code')
  if (code === null) throw new Error('bench: consent did not redirect with a code')
  const tokenResponse = await fetch(`${sandbox.baseUrl}/openapi/oauthv1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      code,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      redirectUri: sandbox.redirectUri,
      grantType: 'authorization_code',
    }),
  })
  const body = (await tokenResponse.json()) as Record<string, unknown>
  const token = body['access_token'] ?? body['accessToken']
  if (typeof token !== 'string') throw new Error('bench: no access token in the token response')
  return { getAccessToken: async () => token, handleUnauthorized: async () => token }
}
