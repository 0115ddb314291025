import { describe, expect, it } from 'vitest'
import { buildAuthorizeUrl } from '../../../../../src/main/core/auth/authorize-url'
import {
  isLoopbackRedirectUri,
  matchesRedirectUri,
  parseCallbackUrl,
  readCallbackPayload,
} from '../../../../../src/main/core/auth/callback-url'
import { STATE_BYTES, createOAuthState } from '../../../../../src/main/core/auth/random-source'

describe('buildAuthorizeUrl', () => {
  it("uses the service's camelCase parameters and the oauthv1 path", () => {
    const url = new URL(
      buildAuthorizeUrl({
        baseUrl: 'https://payroll.example/api/',
        clientId: 'client 1',
        redirectUri: 'com.rosterdesk.app:/oauth/callback',
        scope: 'read,write',
        state: 'abc_-',
      }),
    )
    expect(url.origin + url.pathname).toBe('https://payroll.example/api/openapi/oauthv1/authorize')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      responseType: 'code',
      clientId: 'client 1',
      redirectUri: 'com.rosterdesk.app:/oauth/callback',
      scope: 'read write',
      state: 'abc_-',
    })
  })
})

describe('createOAuthState', () => {
  it('encodes at least 128 random bits as base64url', () => {
    const state = createOAuthState()
    expect(STATE_BYTES * 8).toBeGreaterThanOrEqual(128)
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(createOAuthState()).not.toBe(state)
  })

  it('takes its bytes from the injected source', () => {
    expect(createOAuthState((size) => new Uint8Array(size).fill(255))).toBe(`${'_'.repeat(42)}8`)
    expect(() => createOAuthState(() => new Uint8Array(8))).toThrow(/128 bits/)
  })
})

describe('parseCallbackUrl', () => {
  it('reads the private-use scheme form: one slash, no host', () => {
    const parsed = parseCallbackUrl('com.rosterdesk.app:/oauth/callback?code=c&state=s')
    expect(parsed).toMatchObject({
      kind: 'custom-scheme',
      scheme: 'com.rosterdesk.app',
      path: '/oauth/callback',
    })
    expect(parsed.kind === 'custom-scheme' && parsed.params.get('code')).toBe('c')
    expect(parseCallbackUrl('COM.RosterDesk.App:///oauth/callback')).toMatchObject({
      kind: 'custom-scheme',
      scheme: 'com.rosterdesk.app',
      path: '/oauth/callback',
    })
  })

  it('reads loopback http addresses, with or without a port', () => {
    expect(parseCallbackUrl('http://127.0.0.1:8765/callback?code=c')).toMatchObject({
      kind: 'loopback',
      host: '127.0.0.1',
      port: 8765,
      path: '/callback',
    })
    expect(parseCallbackUrl('http://localhost/callback')).toMatchObject({ kind: 'loopback', port: 0 })
    expect(isLoopbackRedirectUri('http://127.0.0.1:1/cb')).toBe(true)
    expect(isLoopbackRedirectUri('com.rosterdesk.app:/oauth/callback')).toBe(false)
  })

  it('calls everything else unsupported', () => {
    for (const value of [
      'not a url',
      'https://evil.example/oauth/callback',
      'http://evil.example/callback',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'com.rosterdesk.app://oauth/callback',
    ]) {
      expect(parseCallbackUrl(value).kind).toBe('unsupported')
    }
  })
})

describe('matchesRedirectUri', () => {
  const custom = 'com.rosterdesk.app:/oauth/callback'
  it('compares scheme, host, port and path, not the query', () => {
    expect(matchesRedirectUri(parseCallbackUrl(`${custom}?code=1&state=2`), custom)).toBe(true)
    expect(matchesRedirectUri(parseCallbackUrl('com.rosterdesk.app:/oauth/other?code=1'), custom)).toBe(false)
    expect(matchesRedirectUri(parseCallbackUrl('com.evil.app:/oauth/callback?code=1'), custom)).toBe(false)
    const loopback = 'http://127.0.0.1:8765/callback'
    expect(matchesRedirectUri(parseCallbackUrl('http://127.0.0.1:8765/callback?code=1'), loopback)).toBe(true)
    expect(matchesRedirectUri(parseCallbackUrl('http://127.0.0.1:8766/callback?code=1'), loopback)).toBe(
      false,
    )
    expect(matchesRedirectUri(parseCallbackUrl('http://localhost:8765/callback?code=1'), loopback)).toBe(
      false,
    )
    expect(matchesRedirectUri(parseCallbackUrl('http://127.0.0.1:8765/callback?code=1'), custom)).toBe(false)
  })
})

describe('readCallbackPayload', () => {
  const read = (query: string) => readCallbackPayload(new URLSearchParams(query))
  it('reads a code with its state', () => {
    expect(read('code=abc&state=xyz')).toEqual({ type: 'code', code: 'abc', state: 'xyz' })
  })
  it('reads an OAuth error with its description', () => {
    expect(read('error=access_denied&error_description=The+user+denied+access&state=s')).toEqual({
      type: 'error',
      error: 'access_denied',
      description: 'The user denied access',
      state: 's',
    })
  })
  it('calls incomplete, contradictory or repeated parameters malformed', () => {
    for (const query of [
      'code=abc',
      'state=s',
      'code=&state=s',
      'code=a&error=x&state=s',
      'code=a&code=b&state=s',
      'code=a&state=s&state=t',
    ]) {
      expect(read(query)).toEqual({ type: 'malformed' })
    }
  })
})
