import type { FetchLike } from '../api/fetch-like'
import {
  NotJsonAnswerError,
  requestJson,
  statusError,
  type HttpJsonRequest,
  type HttpJsonResponse,
} from '../api/http-json'
import { RedirectRefusedError } from '../api/redirects'
import { RosterDeskError } from '../errors'
import { normalizeBaseUrl } from '../../../shared/settings-rules'
import { parseTokenResponse, type TokenSet } from './token-response'

/** Code exchange (spec 4.2) carries `oauthv1`; refresh (spec 4.3) carries `oauth` with no version. */
export const TOKEN_PATH = '/openapi/oauthv1/token'
export const REFRESH_PATH = '/openapi/oauth/token'

/**
 * The most a token answer may hold. Tokens and their fields take a few kilobytes (a JWT with many claims, tens);
 * a larger answer is refused as it arrives, never read whole (a compressed bomb once took 2.3 GB before failing).
 */
export const TOKEN_ANSWER_MAX_BYTES = 1024 * 1024

/** The application's registration with the service: what both token requests send besides the grant. */
export interface ClientCredentials {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly redirectUri: string
}

/** The service turned the refresh token down for good: the clerk must sign in again. */
export class RefreshRejectedError extends RosterDeskError {
  constructor(status: number) {
    super('not-signed-in', 'Your sign-in has expired. Sign in again to continue.', {
      detail: `refresh refused with HTTP ${status}`,
    })
    this.name = 'RefreshRejectedError'
  }
}

/**
 * Exchanges an authorization code for tokens: a JSON body with the service's camelCase names, not RFC 6749's
 * form-encoded snake_case.
 */
export async function exchangeAuthorizationCode(
  fetch: FetchLike,
  credentials: ClientCredentials,
  code: string,
  signal?: AbortSignal,
): Promise<TokenSet> {
  const response = await requestTokenAnswer(fetch, 'exchange', {
    url: `${normalizeBaseUrl(credentials.baseUrl)}${TOKEN_PATH}`,
    method: 'POST',
    json: {
      code,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      redirectUri: credentials.redirectUri,
      grantType: 'authorization_code',
    },
    maxBodyBytes: TOKEN_ANSWER_MAX_BYTES,
    signal,
  })
  if (!response.ok || refusalInside(response)) throw exchangeError(response)
  return parseTokenResponse(response.body)
}

/**
 * Trades the refresh token for new tokens. The spec sends `grantType: 'authorization_code'` here too, with the
 * refresh token beside it; we follow it. A refusal naming `invalid_client` (RFC 6749 §5.2) is about the client ID
 * or secret, not the refresh token: an 'auth' error that keeps the tokens, since a corrected secret makes them
 * good again. Any other 400/401/403 means the refresh token is no longer accepted and becomes
 * RefreshRejectedError (sign in again), as does a 200 that holds an OAuth `error` and no access token
 * (`refusalInside`); network failures and 5xx stay retryable and leave the clerk signed in.
 */
export async function refreshTokens(
  fetch: FetchLike,
  credentials: ClientCredentials,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<TokenSet> {
  const response = await requestTokenAnswer(fetch, 'refresh', {
    url: `${normalizeBaseUrl(credentials.baseUrl)}${REFRESH_PATH}`,
    method: 'POST',
    json: {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      redirectUri: credentials.redirectUri,
      grantType: 'authorization_code',
      refreshToken,
    },
    maxBodyBytes: TOKEN_ANSWER_MAX_BYTES,
    signal,
  })
  if (
    response.status === 400 ||
    response.status === 401 ||
    response.status === 403 ||
    refusalInside(response)
  ) {
    const code = oauthErrorCode(response.body)
    if (code === 'invalid_client') {
      throw clientRefusedError(`refresh refused with HTTP ${response.status} (invalid_client)`, 'signed-in')
    }
    throw new RefreshRejectedError(response.status)
  }
  if (!response.ok) throw statusError(response)
  return parseTokenResponse(response.body)
}

/**
 * A 2xx token answer that is a refusal: an OAuth `error` (RFC 6749 §5.2) and no access token, as services that
 * answer everything with 200 send. It means what the same body under a 400 means.
 */
function refusalInside(response: HttpJsonResponse): boolean {
  if (!response.ok || oauthErrorCode(response.body) === undefined) return false
  try {
    parseTokenResponse(response.body)
    return false
  } catch {
    return true
  }
}

/**
 * `requestJson` for a token request, its failures worded as a sign-in's: a 2xx answer to the code exchange that
 * is not JSON (a web page or other text), and a refresh answered 301, 302 or 303 (sent to a page, a single
 * sign-on page most often), which RosterDesk does not follow, fail the sign-in, final, and signing in again is the
 * way out. Other failures (the network, a timeout, a 307 or 308 elsewhere: a moved service, whose message says
 * where) are requestJson's.
 */
async function requestTokenAnswer(
  fetch: FetchLike,
  kind: 'exchange' | 'refresh',
  request: HttpJsonRequest,
): Promise<HttpJsonResponse> {
  try {
    return await requestJson(fetch, request)
  } catch (error) {
    if (error instanceof RedirectRefusedError && kind === 'refresh' && !KEEPS_METHOD.has(error.status)) {
      throw refreshRedirectedError(error)
    }
    if (error instanceof NotJsonAnswerError && kind === 'exchange') throw signInNotJsonError(error)
    throw error
  }
}

/** Redirects that keep the method and body (a moved service), worded as redirects.ts words them. */
const KEEPS_METHOD: ReadonlySet<number> = new Set([307, 308])

function refreshRedirectedError(error: RedirectRefusedError): RosterDeskError {
  return new RosterDeskError(
    'auth',
    `The payroll service sent RosterDesk’s renewal of your sign-in to another page (HTTP ${error.status}), a single sign-on page perhaps, instead of renewing it. Sign in again to continue.`,
    { retryable: false, detail: `refresh: ${error.detail ?? 'redirect not followed'}`, cause: error },
  )
}

function signInNotJsonError(error: NotJsonAnswerError): RosterDeskError {
  const answered =
    error.pageTitle === undefined
      ? 'The payroll service’s answer to the sign-in could not be read (it is not JSON)'
      : `The payroll service answered the sign-in with a web page${error.pageTitle === '' ? '' : ` titled “${error.pageTitle}”`} instead of tokens`
  return new RosterDeskError(
    'auth',
    `${answered}, so the sign-in failed. Sign in again; if it happens again, send this message to your IT team.`,
    { retryable: false, detail: `code exchange: ${error.detail ?? 'not JSON'}`, cause: error },
  )
}

/** The OAuth `error` code of an error body (RFC 6749 §5.2), top level or wrapped; undefined when absent. */
export function oauthErrorCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const record = body as Record<string, unknown>
  if (typeof record.error === 'string') return record.error.slice(0, 64)
  const data = record.data
  if (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as Record<string, unknown>).error === 'string'
  ) {
    return ((data as Record<string, unknown>).error as string).slice(0, 64)
  }
  return undefined
}

/**
 * The service refused the application (`invalid_client`): the client ID or secret is wrong. Signing in again does
 * not help until they are corrected; a refresh refused so keeps the clerk's sign-in.
 */
function clientRefusedError(detail: string, state: 'signed-in' | 'signing-in'): RosterDeskError {
  const then = state === 'signed-in' ? 'your sign-in is kept' : 'then sign in again'
  return new RosterDeskError(
    'auth',
    `The payroll service did not accept the client ID or client secret. Check them in Settings (the CLI: --client-id and ROSTERDESK_CLIENT_SECRET); ${then}.`,
    { detail },
  )
}

function exchangeError(response: HttpJsonResponse): RosterDeskError {
  const code = oauthErrorCode(response.body)
  const detail = `code exchange refused with HTTP ${response.status}${code ? ` (${code})` : ''}`
  if (code === 'invalid_client' || response.status === 401) return clientRefusedError(detail, 'signing-in')
  if (code === 'invalid_grant') {
    return new RosterDeskError(
      'auth',
      'The payroll service did not accept the sign-in (the code expired or was already used). Sign in again.',
      { detail },
    )
  }
  if (response.status >= 400 && response.status < 500) {
    return new RosterDeskError(
      'auth',
      `The payroll service refused the sign-in (HTTP ${response.status}${code ? `, ${code}` : ''}). Check the client ID, secret and redirect URI in Settings.`,
      { detail },
    )
  }
  return statusError(response)
}
