import { RosterDeskError } from '../errors'
import { isHeaderValueCarried } from '../../../shared/header-value'

/** Tokens as the service issued them. */
export interface TokenSet {
  readonly accessToken: string
  /** Absent when the service issued none (a refresh then keeps the previous one). */
  readonly refreshToken?: string
  /**
   * Lifetime in seconds when the service said, as it said (possibly absurd: Infinity for 1e400); unknown
   * otherwise (then a 401 tells us it ended). Only `expiryAfter` turns it into a time.
   */
  readonly expiresInSeconds?: number
}

/** The longest lifetime RosterDesk believes of a token: a year. A longer one ("never expires") counts as a year. */
export const MAX_TOKEN_LIFETIME_SECONDS = 365 * 24 * 3600

/** The largest time value a `Date` holds (ECMA-262 §21.4.1.22): beyond it `toISOString` throws RangeError. */
const MAX_DATE_MS = 8.64e15

/**
 * When a token given `seconds` of life at `nowMs` expires (ms since the epoch): the one place a lifetime from the
 * service becomes a time. A lifetime past `MAX_TOKEN_LIFETIME_SECONDS` counts as that, and `bounded` says so (the
 * caller logs it), so every expiry is a time a `Date` can hold.
 */
export function expiryAfter(nowMs: number, seconds: number): { expiresAt: number; bounded: boolean } {
  const bounded = !(seconds <= MAX_TOKEN_LIFETIME_SECONDS)
  return { expiresAt: nowMs + (bounded ? MAX_TOKEN_LIFETIME_SECONDS : seconds) * 1000, bounded }
}

/** An expiry as ISO 8601 text, or null when it is not a time a `Date` holds (never a RangeError). */
export function expiryText(expiresAt: number | undefined): string | null {
  if (expiresAt === undefined || !isDateTime(expiresAt)) return null
  return new Date(expiresAt).toISOString()
}

/** True for milliseconds a `Date` holds: finite and within ±8.64e15. */
export function isDateTime(ms: number): boolean {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS
}

/** The tokens of a sign-in answer, as its messages name them. */
const TOKEN_NAMES = { accessToken: 'an access token', refreshToken: 'a refresh token' } as const

/**
 * The service's answer holds a token that cannot travel in a request as written (`isHeaderValueCarried`): the
 * service's fault, found before any request, final (a retry gets the same token). The token is never kept.
 */
export function unsendableTokenError(token: keyof typeof TOKEN_NAMES, value: string): RosterDeskError {
  return new RosterDeskError(
    'service',
    `The payroll service's sign-in answer holds ${TOKEN_NAMES[token]} with characters a request cannot carry. Send this message to your IT team.`,
    { retryable: false, detail: `token response: ${token} ${describeCharacters(value)}` },
  )
}

/** Where and what the first character a header cannot carry is (its code point only, never the token). */
function describeCharacters(value: string): string {
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '')
  if (trimmed !== value) return `of ${value.length} characters starts or ends with a space or tab`
  const at = value.search(/[^\x20-\x7e\t]/)
  const code = value.codePointAt(at) ?? 0
  return `of ${value.length} characters holds U+${code.toString(16).toUpperCase().padStart(4, '0')} at ${at}`
}

/** Wrappers some services put around their payload (`{code, message, data: {...}}`). */
const WRAPPERS = ['data', 'result'] as const
const ACCESS_TOKEN_FIELDS = ['access_token', 'accessToken'] as const
const REFRESH_TOKEN_FIELDS = ['refresh_token', 'refreshToken'] as const
const EXPIRES_IN_FIELDS = ['expires_in', 'expiresIn'] as const

/**
 * Reads a token response whatever its style, because the spec does not name the fields: snake_case (RFC 6749),
 * camelCase, or either inside a `data`/`result` wrapper. When no access token is found the error lists the field
 * names received, top level and nested, and never a value, so the clerk can pass it to IT without leaking tokens.
 */
export function parseTokenResponse(body: unknown): TokenSet {
  const candidates: Record<string, unknown>[] = []
  if (isRecord(body)) {
    candidates.push(body)
    for (const wrapper of WRAPPERS) {
      const inner = body[wrapper]
      if (isRecord(inner)) candidates.push(inner)
    }
  }
  for (const candidate of candidates) {
    const accessToken = firstString(candidate, ACCESS_TOKEN_FIELDS)
    if (accessToken === undefined) continue
    const refreshToken = firstString(candidate, REFRESH_TOKEN_FIELDS)
    if (!isHeaderValueCarried(accessToken)) throw unsendableTokenError('accessToken', accessToken)
    if (refreshToken !== undefined && !isHeaderValueCarried(refreshToken)) {
      throw unsendableTokenError('refreshToken', refreshToken)
    }
    const expiresInSeconds = firstLifetime(candidate, EXPIRES_IN_FIELDS)
    return {
      accessToken,
      ...(refreshToken === undefined ? {} : { refreshToken }),
      ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
    }
  }
  const fields = describeFieldNames(body)
  throw new RosterDeskError(
    'service',
    `The payroll service's sign-in answer has no access token RosterDesk recognises (fields received: ${fields}). ` +
      'Send this message to your IT team.',
    { detail: `token response fields: ${fields}` },
  )
}

/** Field names of a JSON value, nested ones as `parent.child`, two levels deep; values are never included. */
export function describeFieldNames(body: unknown): string {
  if (!isRecord(body)) return Array.isArray(body) ? 'a list instead of an object' : 'none'
  const names: string[] = []
  for (const [key, value] of Object.entries(body)) {
    names.push(safeName(key))
    if (isRecord(value))
      for (const inner of Object.keys(value)) names.push(`${safeName(key)}.${safeName(inner)}`)
  }
  return names.length === 0 ? 'none' : names.slice(0, 40).join(', ')
}

function firstString(record: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = record[field]
    if (typeof value === 'string' && value !== '') return value
  }
  return undefined
}

/**
 * Seconds as a positive number or a numeric string ("3600", "1e308"); anything else (zero, negative, text)
 * counts as unknown. A number too large for a double (1e400) arrives as Infinity and is kept: `expiryAfter`
 * bounds it.
 */
function firstLifetime(record: Record<string, unknown>, fields: readonly string[]): number | undefined {
  for (const field of fields) {
    const raw = record[field]
    const value = typeof raw === 'string' && /^\s*\d+(\.\d+)?(e[+-]?\d+)?\s*$/i.test(raw) ? Number(raw) : raw
    if (typeof value === 'number' && value > 0) return value
  }
  return undefined
}

/** A key as printable text of bounded length: names come from the network and go into a message. */
function safeName(key: string): string {
  const printable = key.replace(/[^\x20-\x7e]/g, '?')
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
