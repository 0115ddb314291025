import type { TokenAnswerBehaviours, TokenStyle } from './behaviours'
import type { IssuedTokens } from './grants'

/** Tokens as served: the lifetime may be a stand-in for raw JSON text (`tokenAnswerText`). */
type ServedTokens = Omit<IssuedTokens, 'expiresIn'> & { readonly expiresIn: number | string }

/**
 * The spec does not show the token response's field names, so each plausible shape can be served. A
 * null refresh token (refresh without rotation) leaves the field out rather than sending null.
 */
export function tokenResponseBody(style: TokenStyle, tokens: ServedTokens): Record<string, unknown> {
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

/** Stands for the lifetime in the serialised body until `tokenExpiresInJson` replaces it. */
const EXPIRES_IN_MARK = '\u0000expires-in\u0000'

/**
 * The token answer's JSON text as served, bent by the odd-answer behaviours (issue 32): the lifetime field
 * written as `tokenExpiresInJson` (raw JSON text, so 9223372036854775807 is served with every digit) and
 * `tokenCharacters.insert` put in the middle of the access or refresh token served.
 */
export function tokenAnswerText(
  style: TokenStyle,
  tokens: IssuedTokens,
  bend: Pick<TokenAnswerBehaviours, 'tokenExpiresInJson' | 'tokenCharacters'>,
): string {
  const withInsert = (token: string): string => {
    const middle = Math.floor(token.length / 2)
    return `${token.slice(0, middle)}${bend.tokenCharacters?.insert ?? ''}${token.slice(middle)}`
  }
  const served: ServedTokens = {
    ...tokens,
    accessToken:
      bend.tokenCharacters?.token === 'access' ? withInsert(tokens.accessToken) : tokens.accessToken,
    refreshToken:
      bend.tokenCharacters?.token === 'refresh' && tokens.refreshToken !== null
        ? withInsert(tokens.refreshToken)
        : tokens.refreshToken,
  }
  const expiresIn = bend.tokenExpiresInJson
  if (expiresIn === null) return JSON.stringify(tokenResponseBody(style, served))
  const text = JSON.stringify(tokenResponseBody(style, { ...served, expiresIn: EXPIRES_IN_MARK }))
  return text.replace(JSON.stringify(EXPIRES_IN_MARK), expiresIn)
}
