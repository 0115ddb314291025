import type { AccessTokenSource } from '../api/access-token-source'
import type { FetchLike } from '../api/fetch-like'
import { requestJson, statusError, type HttpJsonResponse } from '../api/http-json'
import { EMPLOYEE_LIST, ListClient } from '../api/list-client'
import { AUTHORIZE_PATH, buildAuthorizeUrl } from '../auth/authorize-url'
import { oauthErrorCode, TOKEN_ANSWER_MAX_BYTES, TOKEN_PATH } from '../auth/token-endpoint'
import { RosterDeskError } from '../errors'
import { classifyNetworkFailure, NetworkFailureError } from '../net/network-failure'
import type { ConnectionCheckDeps, ConnectionTarget } from './check-inputs'
import { failed, ok, type StepOutcome } from './step-outcome'
import { FALLBACK_FORMAT_LOCALE, formatNumber } from '../../../shared/locale-format'

/**
 * The service's own endpoints, asked through \`fetch\` with the sync's request code (http-json's timeouts, size
 * limits and redirect rule): sign-in's authorize page, the token endpoint, and one page of the employee list.
 */

/** The most read of the authorize endpoint's answer (a sign-in page): more is cut off, the status is what counts. */
export const AUTHORIZE_ANSWER_MAX_BYTES = 1024 * 1024

/**
 * The made-up authorization code the token step sends: the service must refuse it, and the refusal in JSON is
 * what proves its token endpoint answers. Named so a service's log shows at once what it was.
 */
export const CHECK_CODE = 'rosterdesk-connection-check-not-a-real-code'

/** The state sent with the authorize request (no sign-in follows, so nothing checks it). */
const CHECK_STATE = 'rosterdesk-connection-check'

/** A fetch that remembers the last answer's status and headers, for steps whose answer is not JSON by design. */
function observing(fetch: FetchLike): { fetch: FetchLike; last: () => Response | undefined } {
  let last: Response | undefined
  return {
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      last = response
      return response
    },
    last: () => last,
  }
}

function answerOf(response: Response): HttpJsonResponse {
  return {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    body: undefined,
    bodyIsJson: false,
  }
}

/**
 * GET of the authorize URL without following redirects: any answer but a 404 (no such endpoint: the address is
 * wrong), a 407 (a proxy wants credentials) or a 5xx (the service, or a gateway before it, failing) counts. The
 * answer is a sign-in page or a redirect to one by design, so a web page is what is expected here.
 */
export async function authorizeStep(
  deps: ConnectionCheckDeps,
  target: ConnectionTarget,
): Promise<StepOutcome> {
  const url = buildAuthorizeUrl({
    baseUrl: target.baseUrl,
    clientId: target.clientId,
    redirectUri: target.redirectUri,
    scope: target.scopes,
    state: CHECK_STATE,
  })
  const seen = observing(deps.fetch)
  let thrown: unknown
  try {
    await requestJson(seen.fetch, {
      url,
      method: 'GET',
      maxBodyBytes: AUTHORIZE_ANSWER_MAX_BYTES,
      ...requestOptions(deps, target),
    })
  } catch (error) {
    thrown = error
  }
  const response = seen.last()
  if (response === undefined) throw thrown
  const status = response.status
  const problem = answerProblem(response, AUTHORIZE_PATH, target.baseUrl)
  if (problem !== undefined) return failed(problem)
  const location = response.headers.get('location')
  if (status >= 300 && status < 400 && location !== null) {
    const to = redirectOrigin(location, url)
    return ok(`HTTP ${status}, redirecting to ${to}`)
  }
  const page = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/html')
    ? ' (a web page)'
    : ''
  return ok(`HTTP ${status}${page}`)
}

/**
 * POST of a made-up code to the token endpoint (spec 4.2), without the client secret (the check never sends a
 * secret to an address it is testing): a JSON answer, even an OAuth refusal such as invalid_grant or
 * invalid_client, proves the endpoint is there and answers JSON. A web page, a 404 or a 5xx does not.
 */
export async function tokenStep(deps: ConnectionCheckDeps, target: ConnectionTarget): Promise<StepOutcome> {
  const response = await requestJson(deps.fetch, {
    url: `${target.baseUrl.replace(/\/+$/, '')}${TOKEN_PATH}`,
    method: 'POST',
    json: {
      code: CHECK_CODE,
      clientId: target.clientId,
      redirectUri: target.redirectUri,
      grantType: 'authorization_code',
    },
    maxBodyBytes: TOKEN_ANSWER_MAX_BYTES,
    ...requestOptions(deps, target),
  })
  const problem = httpProblem(response, TOKEN_PATH, target.baseUrl)
  if (problem !== undefined) return failed(problem)
  if (!response.bodyIsJson || response.body === undefined) {
    return failed(
      new RosterDeskError(
        'web-page',
        `The token endpoint answered HTTP ${response.status} with ${response.body === undefined && response.bodyIsJson ? 'nothing' : 'a page that is not JSON'}: a proxy's block page or a wrong service address may be in the way.`,
        { detail: `HTTP ${response.status}: not JSON` },
      ),
    )
  }
  if (response.ok) return ok(`HTTP ${response.status}, JSON`)
  const code = oauthErrorCode(response.body)
  const said = code === undefined ? 'JSON' : `JSON error ${code}`
  return ok(
    `HTTP ${response.status}, ${said} (as expected: the check sends a made-up code and no client secret)`,
  )
}

/** One page of one employee, with the tenant header, through the sync's list client (one attempt, no retry). */
export async function listStep(
  deps: ConnectionCheckDeps,
  target: ConnectionTarget,
  tokens: AccessTokenSource,
): Promise<StepOutcome> {
  const client = new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl: target.baseUrl,
    tenantId: target.tenantId,
    fetch: deps.fetch,
    tokens,
    clock: deps.clock,
    random: () => 0.5,
    retry: { maxAttempts: 1 },
    maxResponseBytes: TOKEN_ANSWER_MAX_BYTES,
    ...(target.timeoutMs === undefined ? {} : { timeoutMs: target.timeoutMs }),
  })
  const page = await client.fetchPage({ page: 1, limit: 1 }, deps.signal)
  const count = (n: number): string => formatNumber(n, target.locale ?? FALLBACK_FORMAT_LOCALE)
  const tenant = target.tenantId.trim() === '' ? 'no tenant header' : `tenant ${target.tenantId.trim()}`
  return ok(`answered with ${count(page.rows.length)} of ${count(page.totalCount)} employees (${tenant})`)
}

function requestOptions(
  deps: ConnectionCheckDeps,
  target: ConnectionTarget,
): { timeoutMs?: number; signal?: AbortSignal } {
  return {
    ...(target.timeoutMs === undefined ? {} : { timeoutMs: target.timeoutMs }),
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
  }
}

/** 404, 407 and 5xx as their errors; undefined for any other status. */
function answerProblem(response: Response, path: string, url: string): RosterDeskError | undefined {
  return httpProblem(answerOf(response), path, url)
}

function httpProblem(response: HttpJsonResponse, path: string, url: string): RosterDeskError | undefined {
  const status = response.status
  if (status === 404) {
    return new RosterDeskError(
      'not-found',
      `The service has no ${path} at this address (HTTP 404). Check the service address.`,
      { detail: `HTTP 404 for ${path}` },
    )
  }
  // A proxy the runtime does not know of (a transparent one) answering for the service: the one classifier words it.
  if (status === 407)
    return classifyNetworkFailure(new NetworkFailureError('proxy-407', {}), {
      what: 'the payroll service',
      url,
    })
  if (status >= 500) return statusError(response)
  return undefined
}

/** Where a redirect leads, as an origin only (the rest of the address may carry the request's parameters). */
function redirectOrigin(location: string, from: string): string {
  try {
    return new URL(location, from).origin
  } catch {
    return 'an address RosterDesk cannot read'
  }
}
