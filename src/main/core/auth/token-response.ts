import { RosterDeskError } from '../errors'

/** Tokens as the service issued them. */
export interface TokenSet {
  readonly accessToken: string
  /** Absent when the service issued none (a refresh then keeps the previous one). */
  readonly refreshToken?: string
  /** Lifetime in seconds when the service said; unknown otherwise (then a 401 tells us it ended). */
  readonly expiresInSeconds?: number
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

/** Seconds as a positive number or a numeric string ("3600"); anything else counts as unknown. */
function firstLifetime(record: Record<string, unknown>, fields: readonly string[]): number | undefined {
  for (const field of fields) {
    const raw = record[field]
    const value = typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value
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
