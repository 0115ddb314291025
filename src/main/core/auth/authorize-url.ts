import { normalizeBaseUrl, normalizeScopes } from '../../../shared/settings-rules'

/** Path of the authorization endpoint (spec 4.1). */
export const AUTHORIZE_PATH = '/openapi/oauthv1/authorize'

export interface AuthorizeUrlParams {
  readonly baseUrl: string
  readonly clientId: string
  readonly redirectUri: string
  /** Space- or comma-separated; sent space-separated. */
  readonly scope: string
  readonly state: string
}

/**
 * The address the clerk's browser opens. The service spells its parameters in camelCase (`responseType`,
 * `clientId`, `redirectUri`), not RFC 6749's snake_case; we follow the service.
 */
export function buildAuthorizeUrl(params: AuthorizeUrlParams): string {
  const url = new URL(`${normalizeBaseUrl(params.baseUrl)}${AUTHORIZE_PATH}`)
  url.searchParams.set('responseType', 'code')
  url.searchParams.set('clientId', params.clientId)
  url.searchParams.set('redirectUri', params.redirectUri)
  url.searchParams.set('scope', normalizeScopes(params.scope))
  url.searchParams.set('state', params.state)
  return url.toString()
}
