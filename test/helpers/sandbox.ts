import { afterAll, afterEach, beforeAll } from 'vitest'
import { startSandbox } from '../../src/main/sandbox/index'
import type { SandboxBehaviours, SandboxHandle, SandboxOptions } from '../../src/main/sandbox/index'

/** A forgotten close() must not keep a test run alive, so every test sandbox dies on its own. */
export const TEST_SANDBOX_LIFETIME_MS = 5 * 60_000

export function startTestSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ lifetimeMs: TEST_SANDBOX_LIFETIME_MS, ...options })
}

/**
 * A test sandbox serving HTTPS with `pair` (a certificate from test/helpers/test-ca.ts), its baseUrl on `host`
 * (default 127.0.0.1; a name the certificate holds, such as EXTRA_SERVER_NAME for a proxy that resolves it).
 */
export function startHttpsTestSandbox(
  pair: { readonly cert: string; readonly key: string },
  options: SandboxOptions = {},
  host?: string,
): Promise<SandboxHandle> {
  return startTestSandbox({
    ...options,
    tls: { cert: pair.cert, key: pair.key, ...(host === undefined ? {} : { host }) },
  })
}

/** Runs `use` against a fresh sandbox and closes it afterwards, whatever happens. */
export async function withSandbox<T>(
  options: SandboxOptions,
  use: (sandbox: SandboxHandle) => Promise<T>,
): Promise<T> {
  const sandbox = await startTestSandbox(options)
  try {
    return await use(sandbox)
  } finally {
    await sandbox.close()
  }
}

/**
 * One sandbox for the whole test file: started in beforeAll, closed in afterAll. Call the returned
 * function inside tests (not at module level) to get the handle.
 */
export function useTestSandbox(options: SandboxOptions = {}): () => SandboxHandle {
  let sandbox: SandboxHandle | null = null
  beforeAll(async () => {
    sandbox = await startTestSandbox(options)
  })
  afterAll(async () => {
    await sandbox?.close()
    sandbox = null
  })
  return () => {
    if (sandbox === null) throw new Error('useTestSandbox: the sandbox only exists while tests run')
    return sandbox
  }
}

/**
 * Sandboxes each test starts itself (with the behaviours it is about), closed after that test. The returned
 * function starts one.
 */
export function useSandboxPerTest(): (options: SandboxOptions) => Promise<SandboxHandle> {
  const started: SandboxHandle[] = []
  afterEach(async () => {
    for (const sandbox of started.splice(0)) await sandbox.close()
  })
  return async (options) => {
    const sandbox = await startTestSandbox(options)
    started.push(sandbox)
    return sandbox
  }
}

export interface ApprovedRedirect {
  /** The full Location the browser would have been sent to. */
  readonly location: string
  readonly code: string
  readonly state: string
  readonly redirectUri: string
}

/**
 * Plays the user's part without a browser: opens the consent page and presses Approve. For tests of
 * code that receives the redirect; tests of the consent UI itself should click the buttons instead.
 */
export async function approveViaHttp(
  sandbox: SandboxHandle,
  request: { redirectUri?: string; scope?: string; state?: string } = {},
): Promise<ApprovedRedirect> {
  const redirectUri = request.redirectUri ?? sandbox.credentials.redirectUri
  const state = request.state ?? `state-${Math.random().toString(36).slice(2)}`
  const query = new URLSearchParams({
    responseType: 'code',
    clientId: sandbox.credentials.clientId,
    redirectUri,
    scope: request.scope ?? 'read',
    state,
  })
  const page = await fetch(`${sandbox.baseUrl}/openapi/oauthv1/authorize?${query}`, { redirect: 'manual' })
  const html = await page.text()
  const requestId = /name="requestId" value="([^"]+)"/.exec(html)?.[1]
  if (page.status !== 200 || requestId === undefined) {
    throw new Error(`approveViaHttp: expected the consent page, got ${page.status}`)
  }
  const answer = await fetch(`${sandbox.baseUrl}/openapi/oauthv1/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ requestId, decision: 'approve' }),
    redirect: 'manual',
  })
  const location = answer.headers.get('location')
  const params = location === null ? null : new URL(location).searchParams
  const code = params?.get('code')
  if (location === null || params == null || code == null) {
    throw new Error(`approveViaHttp: expected a redirect with a code, got ${answer.status}`)
  }
  return { location, code, state: params.get('state') ?? '', redirectUri }
}

/** The whole authorization code flow over HTTP; returns the token response body as sent. */
export async function tokenResponseViaHttp(
  sandbox: SandboxHandle,
  request: { redirectUri?: string; scope?: string } = {},
): Promise<Record<string, unknown>> {
  const { code, redirectUri } = await approveViaHttp(sandbox, request)
  const { clientId, clientSecret } = sandbox.credentials
  const response = await fetch(`${sandbox.baseUrl}/openapi/oauthv1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, clientId, clientSecret, redirectUri, grantType: 'authorization_code' }),
  })
  if (response.status !== 200) throw new Error(`tokenResponseViaHttp: token endpoint said ${response.status}`)
  return (await response.json()) as Record<string, unknown>
}

/**
 * Changes the service's employees with one list request of its own (as a busy payroll day would between two
 * syncs), then stops: the app's next sync sees the changed list whole, never a list changing under its pages.
 */
export async function churnTheService(
  sandbox: SandboxHandle,
  change: {
    readonly churn?: Omit<NonNullable<SandboxBehaviours['churn']>, 'listRequests'>
    readonly mutate?: Omit<NonNullable<SandboxBehaviours['mutate']>, 'listRequests'>
  },
): Promise<void> {
  sandbox.setBehaviours({
    churn: change.churn === undefined ? null : { ...change.churn, listRequests: 1 },
    mutate: change.mutate === undefined ? null : { ...change.mutate, listRequests: 1 },
  })
  const { accessToken } = sandbox.issueTokens()
  const response = await fetch(`${sandbox.baseUrl}/employees/list?page=1&limit=1`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  await response.text()
  sandbox.setBehaviours({ churn: null, mutate: null })
}
