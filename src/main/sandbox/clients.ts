import { timingSafeEqual } from 'node:crypto'

/** The one registered application and how its redirect URIs are matched. */
export interface RegisteredClient {
  readonly clientId: string
  readonly clientSecret: string
  readonly redirectUris: readonly string[]
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?(.*)$/

/**
 * RFC 8252 §7.3: a native app's loopback redirect may use any port, because the port is picked at run
 * time. Everything else must match character for character; no normalisation, so no path tricks.
 */
export function redirectUriMatches(registered: string, candidate: string): boolean {
  if (registered === candidate) return true
  const reg = LOOPBACK.exec(registered)
  const cand = LOOPBACK.exec(candidate)
  if (reg === null || cand === null) return false
  if (reg[1] !== cand[1] || reg[3] !== cand[3]) return false
  const port = cand[2]
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535)
}

export function isRegisteredRedirect(client: RegisteredClient, candidate: string): boolean {
  return client.redirectUris.some((registered) => redirectUriMatches(registered, candidate))
}

/** Constant-time comparison so the secret cannot be guessed byte by byte from response times. */
export function secretMatches(client: RegisteredClient, secret: string): boolean {
  const expected = Buffer.from(client.clientSecret, 'utf8')
  const given = Buffer.from(secret, 'utf8')
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/** Appends parameters to a redirect URI, keeping any query it already has and custom schemes intact. */
export function withQuery(uri: string, params: Record<string, string>): string {
  const hash = uri.indexOf('#')
  const base = hash === -1 ? uri : uri.slice(0, hash)
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?'
  return `${base}${separator}${new URLSearchParams(params).toString()}`
}
