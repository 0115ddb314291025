import type { TokenStyle } from './behaviours'
import type { IssuedTokens } from './grants'

/**
 * The spec does not show the token response's field names, so each plausible shape can be served. A
 * null refresh token (refresh without rotation) leaves the field out rather than sending null.
 */
export function tokenResponseBody(style: TokenStyle, tokens: IssuedTokens): Record<string, unknown> {
  const refresh = tokens.refreshToken
  switch (style) {
    case 'snake':
      return {
        access_token: tokens.accessToken,
        ...(refresh === null ? {} : { refresh_token: refresh }),
        token_type: 'Bearer',
        expires_in: tokens.expiresIn,
        scope: tokens.scope,
      }
    case 'camel':
      return {
        accessToken: tokens.accessToken,
        ...(refresh === null ? {} : { refreshToken: refresh }),
        tokenType: 'Bearer',
        expiresIn: tokens.expiresIn,
      }
    case 'wrapped':
      return {
        code: 0,
        message: 'success',
        data: {
          accessToken: tokens.accessToken,
          ...(refresh === null ? {} : { refreshToken: refresh }),
          expiresIn: tokens.expiresIn,
        },
      }
    case 'no-expiry':
      return {
        accessToken: tokens.accessToken,
        ...(refresh === null ? {} : { refreshToken: refresh }),
        tokenType: 'Bearer',
      }
    case 'unrecognised':
      return { result: { tkn: tokens.accessToken } }
  }
}
