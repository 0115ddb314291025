import { describe, expect, it } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { describeFieldNames, parseTokenResponse } from '../../../../../src/main/core/auth/token-response'

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
