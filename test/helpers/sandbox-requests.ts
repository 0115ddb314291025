import type { EmployeeRow, SandboxHandle } from '../../src/main/sandbox/index'

export interface Envelope {
  rows: EmployeeRow[]
  totalCount: number
  totalPages: number
  limit: number
  currentPage: number
}

export interface RawResponse {
  status: number
  headers: Headers
  text: string
}

export type Query = Record<string, string | number>

export async function getList(
  sandbox: SandboxHandle,
  token: string | null,
  query: Query = {},
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))
  const response = await fetch(`${sandbox.baseUrl}/employees/list?${params}`, {
    headers: {
      accept: 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** Lists and insists on a 200 with a JSON envelope. */
export async function listOk(sandbox: SandboxHandle, token: string, query: Query = {}): Promise<Envelope> {
  const response = await getList(sandbox, token, query)
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${response.text}`)
  return JSON.parse(response.text) as Envelope
}

export async function postJson(
  url: string,
  body: unknown,
  contentType = 'application/json',
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text) as Record<string, unknown>,
  }
}

export function authorizeUrl(sandbox: SandboxHandle, overrides: Record<string, string | null> = {}): string {
  const params: Record<string, string | null> = {
    responseType: 'code',
    clientId: sandbox.credentials.clientId,
    redirectUri: sandbox.credentials.redirectUri,
    scope: 'read',
    state: 'state-123',
    ...overrides,
  }
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== null) query.append(key, value)
  return `${sandbox.baseUrl}/openapi/oauthv1/authorize?${query}`
}

export function consentRequestId(html: string): string {
  const id = /name="requestId" value="([^"]+)"/.exec(html)?.[1]
  if (id === undefined) throw new Error('no consent request id in the page')
  return id
}

/** Opens the consent page for `overrides` and presses a button; returns the raw response. */
export async function decide(
  sandbox: SandboxHandle,
  decision: 'approve' | 'deny',
  overrides: Record<string, string | null> = {},
): Promise<Response> {
  const page = await fetch(authorizeUrl(sandbox, overrides), { redirect: 'manual' })
  const requestId = consentRequestId(await page.text())
  return fetch(`${sandbox.baseUrl}/openapi/oauthv1/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ requestId, decision }),
    redirect: 'manual',
  })
}

export function codeExchangeBody(
  sandbox: SandboxHandle,
  code: string,
  redirectUri?: string,
): Record<string, string> {
  const { clientId, clientSecret } = sandbox.credentials
  return {
    code,
    clientId,
    clientSecret,
    redirectUri: redirectUri ?? sandbox.credentials.redirectUri,
    grantType: 'authorization_code',
  }
}

export function refreshBody(sandbox: SandboxHandle, refreshToken: string): Record<string, string> {
  const { clientId, clientSecret, redirectUri } = sandbox.credentials
  return { clientId, clientSecret, redirectUri, grantType: 'authorization_code', refreshToken }
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}
