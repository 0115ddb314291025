import { describe, expect, it } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import {
  describeFieldNames,
  expiryAfter,
  expiryText,
  MAX_TOKEN_LIFETIME_SECONDS,
  parseTokenResponse,
} from '../../../../../src/main/core/auth/token-response'

/** Java's Long.MAX_VALUE, a common "never expires", as a double holds it (2^63). */
const LONG_MAX = Number('9223372036854775807')

describe('parseTokenResponse', () => {
  it('reads snake_case (RFC 6749)', () => {
    expect(
      parseTokenResponse({ access_token: 'a', refresh_token: 'r', expires_in: 3600, token_type: 'Bearer' }),
    ).toEqual({ accessToken: 'a', refreshToken: 'r', expiresInSeconds: 3600 })
  })

  it('reads camelCase, with the lifetime as a numeric string', () => {
    expect(parseTokenResponse({ accessToken: 'a', refreshToken: 'r', expiresIn: '120' })).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      expiresInSeconds: 120,
    })
  })

  it('reads tokens wrapped in data or result', () => {
    expect(
      parseTokenResponse({ code: 0, message: 'success', data: { accessToken: 'a', expiresIn: 60 } }),
    ).toEqual({
      accessToken: 'a',
      expiresInSeconds: 60,
    })
    expect(parseTokenResponse({ result: { access_token: 'a', refresh_token: 'r' } })).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
    })
  })

  it('treats a missing, zero or unreadable lifetime as unknown', () => {
    expect(parseTokenResponse({ accessToken: 'a' })).toEqual({ accessToken: 'a' })
    expect(parseTokenResponse({ accessToken: 'a', expiresIn: 0 })).toEqual({ accessToken: 'a' })
    expect(parseTokenResponse({ accessToken: 'a', expiresIn: 'soon' })).toEqual({ accessToken: 'a' })
  })

  it('fails naming the fields it received, top level and nested, never their values', () => {
    let error: unknown
    try {
      parseTokenResponse({ result: { tkn: 'secret-token-value' }, status: 'status-value-xyz' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(RosterDeskError)
    const message = (error as RosterDeskError).message
    expect(message).toContain('fields received: result, result.tkn, status')
    expect(message).not.toContain('secret-token-value')
    expect(message).not.toContain('status-value-xyz')
    expect((error as RosterDeskError).code).toBe('service')
  })

  it('describes bodies that are not objects', () => {
    expect(describeFieldNames(undefined)).toBe('none')
    expect(describeFieldNames([1])).toBe('a list instead of an object')
    expect(describeFieldNames({})).toBe('none')
    expect(() => parseTokenResponse('access_token=a')).toThrow(/fields received: none/)
  })
})

describe('a lifetime from the service (issue 32, point 1)', () => {
  const NOW = Date.parse('2026-12-07T10:00:00.000Z')
  const YEAR_MS = MAX_TOKEN_LIFETIME_SECONDS * 1000

  it('keeps absurd lifetimes as said, for expiryAfter to bound: Long.MAX_VALUE, huge floats, 1e400', () => {
    expect(parseTokenResponse({ accessToken: 'a', expiresIn: LONG_MAX }).expiresInSeconds).toBe(LONG_MAX)
    expect(parseTokenResponse({ accessToken: 'a', expiresIn: '9223372036854775807' }).expiresInSeconds).toBe(
      LONG_MAX,
    )
    expect(parseTokenResponse({ accessToken: 'a', expires_in: '1e308' }).expiresInSeconds).toBe(1e308)
    expect(parseTokenResponse(JSON.parse('{"accessToken":"a","expiresIn":1e400}')).expiresInSeconds).toBe(
      Infinity,
    )
    expect(parseTokenResponse({ accessToken: 'a', expiresIn: -5 })).toEqual({ accessToken: 'a' })
  })

  it('counts anything past a year as a year, and says it did', () => {
    expect(expiryAfter(NOW, 3600)).toEqual({ expiresAt: NOW + 3_600_000, bounded: false })
    expect(expiryAfter(NOW, MAX_TOKEN_LIFETIME_SECONDS)).toEqual({ expiresAt: NOW + YEAR_MS, bounded: false })
    for (const seconds of [MAX_TOKEN_LIFETIME_SECONDS + 1, LONG_MAX, 1e308, Infinity]) {
      expect(expiryAfter(NOW, seconds), String(seconds)).toEqual({ expiresAt: NOW + YEAR_MS, bounded: true })
    }
    expect(expiryText(expiryAfter(NOW, LONG_MAX).expiresAt)).toBe('2027-12-07T10:00:00.000Z')
  })

  it('writes an expiry as text only when a Date holds it, never throwing', () => {
    expect(expiryText(undefined)).toBeNull()
    expect(expiryText(NOW)).toBe('2026-12-07T10:00:00.000Z')
    for (const ms of [9.3e21, 8.64e15 + 1, Infinity, NaN, -Infinity])
      expect(expiryText(ms), String(ms)).toBeNull()
  })
})

describe('a token a request cannot carry (issue 32, point 2)', () => {
  const refusal = (body: unknown): RosterDeskError => {
    try {
      parseTokenResponse(body)
    } catch (error) {
      if (error instanceof RosterDeskError) return error
    }
    throw new Error('expected a refusal')
  }

  it('refuses an access token with CR/LF, control characters or non-ASCII at once, naming it, never its value', () => {
    for (const token of ['abc\r\nX-Evil: 1', 'abc\u0000', 'abc\u007f', 'abcé', ' abc', 'abc\t']) {
      const error = refusal({ access_token: token, refresh_token: 'r' })
      expect(error.message).toBe(
        "The payroll service's sign-in answer holds an access token with characters a request cannot carry. Send this message to your IT team.",
      )
      expect(error).toMatchObject({ code: 'service', retryable: false })
      expect(error.detail).toMatch(/^token response: accessToken of \d+ characters /)
      expect(error.detail).not.toContain('abc')
    }
    expect(refusal({ accessToken: 'a\nb' }).detail).toBe(
      'token response: accessToken of 3 characters holds U+000A at 1',
    )
  })

  it('refuses a refresh token so too, wrapped or not', () => {
    expect(refusal({ data: { accessToken: 'a', refreshToken: 'r\u2028' } }).message).toBe(
      "The payroll service's sign-in answer holds a refresh token with characters a request cannot carry. Send this message to your IT team.",
    )
  })

  it('takes tokens of visible ASCII, JWTs included', () => {
    expect(parseTokenResponse({ access_token: 'eyJ0.eyJ1.c2ln-_~+/=', refresh_token: 'r r' })).toEqual({
      accessToken: 'eyJ0.eyJ1.c2ln-_~+/=',
      refreshToken: 'r r',
    })
  })
})
