import type { FetchLike } from '../api/fetch-like'
import { requestJson, statusError, type HttpJsonResponse } from '../api/http-json'
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
  const response = await requestJson(fetch, {
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
  if (!response.ok) throw exchangeError(response)
  return parseTokenResponse(response.body)
}

/**
 * Trades the refresh token for new tokens. The spec sends `grantType: 'authorization_code'` here too, with the
 * refresh token beside it; we follow it. A refusal naming `invalid_client` (RFC 6749 §5.2) is about the client ID
 * or secret, not the refresh token: an 'auth' error that keeps the tokens, since a corrected secret makes them
 * good again. Any other 400/401/403 means the refresh token is no longer accepted and becomes
 * RefreshRejectedError (sign in again); network failures and 5xx stay retryable and leave the clerk signed in.
 */
export async function refreshTokens(
  fetch: FetchLike,
  credentials: ClientCredentials,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<TokenSet> {
  const response = await requestJson(fetch, {
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
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    const code = oauthErrorCode(response.body)
    if (code === 'invalid_client') {
      throw clientRefusedError(`refresh refused with HTTP ${response.status} (invalid_client)`, 'signed-in')
    }
    throw new RefreshRejectedError(response.status)
  }
  if (!response.ok) throw statusError(response)
  return parseTokenResponse(response.body)
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
