import { ENVIRONMENTS, type Settings } from '../../../shared/domain'
import { DEFAULT_SETTINGS } from './settings-defaults'

/** Field names as the UI addresses them; the two service addresses are separate fields. */
export type SettingsField = Exclude<keyof Settings, 'baseUrls'> | 'baseUrls.staging' | 'baseUrls.production'

export type SettingsValidation =
  { ok: true; settings: Settings } | { ok: false; fieldErrors: Partial<Record<SettingsField, string>> }

type FieldResult<T> = { ok: true; value: T } | { ok: false; error: string }

const SETTINGS_KEYS = new Set<string>([
  'environment',
  'baseUrls',
  'clientId',
  'redirectUri',
  'scopes',
  'tenantId',
  'pageSize',
  'concurrency',
  'trackedPayCycles',
])

/**
 * Checks and normalises a change to the settings, merged over `current`. Every problem comes back against its
 * field in words the clerk can act on, all at once, so the form can mark each field. Fields the schema does not
 * know (a `clientSecret`, say) are refused: the settings store never holds secrets.
 */
export function validateSettingsPatch(
  patch: unknown,
  current: Settings = DEFAULT_SETTINGS,
): SettingsValidation {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    return { ok: false, fieldErrors: { environment: 'RosterDesk received settings it cannot read.' } }
  }
  const input = patch as Record<string, unknown>
  const next: Settings = structuredClone(current)
  const errors: Partial<Record<SettingsField, string>> = {}
  const unknownKeys = Object.keys(input).filter((key) => !SETTINGS_KEYS.has(key))
  if (unknownKeys.length > 0) {
    // Names only: an unknown key may be a misplaced secret, and its value must not travel into a message.
    return {
      ok: false,
      fieldErrors: {
        environment: `These are not RosterDesk settings: ${unknownKeys.slice(0, 5).join(', ')}.`,
      },
    }
  }

  const apply = <K extends SettingsField, T>(
    field: K,
    raw: unknown,
    check: (raw: unknown) => FieldResult<T>,
    set: (value: T) => void,
  ): void => {
    if (raw === undefined) return
    const result = check(raw)
    if (result.ok) set(result.value)
    else errors[field] = result.error
  }

  apply('environment', input.environment, checkEnvironment, (v) => (next.environment = v))
  if (input.baseUrls !== undefined) {
    if (typeof input.baseUrls !== 'object' || input.baseUrls === null || Array.isArray(input.baseUrls)) {
      errors['baseUrls.staging'] = 'RosterDesk received service addresses it cannot read.'
    } else {
      const urls = input.baseUrls as Record<string, unknown>
      apply(
        'baseUrls.staging',
        urls.staging,
        (raw) => checkBaseUrl(raw, 'Staging'),
        (v) => (next.baseUrls.staging = v),
      )
      apply(
        'baseUrls.production',
        urls.production,
        (raw) => checkBaseUrl(raw, 'Production'),
        (v) => (next.baseUrls.production = v),
      )
    }
  }
  apply('clientId', input.clientId, checkClientId, (v) => (next.clientId = v))
  apply('redirectUri', input.redirectUri, checkRedirectUri, (v) => (next.redirectUri = v))
  apply('scopes', input.scopes, checkScopes, (v) => (next.scopes = v))
  apply('tenantId', input.tenantId, checkTenantId, (v) => (next.tenantId = v))
  apply(
    'pageSize',
    input.pageSize,
    (raw) => checkInteger(raw, 1, 10_000, 'Page size'),
    (v) => (next.pageSize = v),
  )
  apply(
    'concurrency',
    input.concurrency,
    (raw) => checkInteger(raw, 1, 16, 'Parallel requests'),
    (v) => (next.concurrency = v),
  )
  apply('trackedPayCycles', input.trackedPayCycles, checkPayCycles, (v) => (next.trackedPayCycles = v))

  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors }
  return { ok: true, settings: next }
}

/** Scopes as the spec allows them (spaces or commas), normalised to single spaces without repeats. */
export function normalizeScopes(value: string): string {
  const seen = new Set<string>()
  for (const scope of value.split(/[\s,]+/)) if (scope !== '') seen.add(scope)
  return [...seen].join(' ')
}

/** A service address without the trailing slash, so paths can be appended as `${base}/employees/list`. */
export function normalizeBaseUrl(value: string): string {
  return value.trim().replace(/\/+$/, '')
}

/** True for hosts that can only mean this computer, where plain http cannot be intercepted on the network. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]'
}

function checkEnvironment(raw: unknown): FieldResult<Settings['environment']> {
  const found = ENVIRONMENTS.find((env) => env === raw)
  return found ? { ok: true, value: found } : { ok: false, error: 'Choose Demo, Staging or Production.' }
}

function checkBaseUrl(raw: unknown, label: string): FieldResult<string> {
  if (typeof raw !== 'string') return { ok: false, error: `Enter the ${label} address as text.` }
  const value = normalizeBaseUrl(raw)
  if (value === '') return { ok: true, value }
  if (value.length > 500) return { ok: false, error: `The ${label} address is too long.` }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return {
      ok: false,
      error: `The ${label} address must be a full web address such as https://payroll.example.com.`,
    }
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return {
      ok: false,
      error: `The ${label} address must start with https:// (plain http is allowed only for this computer).`,
    }
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, error: `The ${label} address must not contain a user name or password.` }
  }
  if (url.search !== '' || url.hash !== '') {
    return { ok: false, error: `The ${label} address must not contain ? or #.` }
  }
  return { ok: true, value }
}

function checkClientId(raw: unknown): FieldResult<string> {
  if (typeof raw !== 'string') return { ok: false, error: 'Enter the client ID as text.' }
  const value = raw.trim()
  if (value.length > 200) return { ok: false, error: 'The client ID is too long (at most 200 characters).' }
  if (/[\s\p{Cc}]/u.test(value)) return { ok: false, error: 'The client ID must not contain spaces.' }
  return { ok: true, value }
}

function checkRedirectUri(raw: unknown): FieldResult<string> {
  if (typeof raw !== 'string') return { ok: false, error: 'Enter the redirect URI as text.' }
  const value = raw.trim()
  const problem = redirectUriProblem(value)
  return problem === undefined ? { ok: true, value } : { ok: false, error: problem }
}

/**
 * Why a redirect URI cannot work for a desktop app, or undefined when it can. RFC 8252 allows two kinds: a
 * private-use scheme in reverse-domain form (§7.1) and a loopback http address (§7.3).
 */
export function redirectUriProblem(value: string): string | undefined {
  if (value === '')
    return 'Enter the redirect URI registered for RosterDesk, for example com.rosterdesk.app:/oauth/callback.'
  if (value.length > 500) return 'The redirect URI is too long.'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'The redirect URI is not a valid address.'
  }
  if (url.hash !== '') return 'The redirect URI must not contain #.'
  if (url.protocol === 'http:') {
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      return 'A web redirect URI must point at this computer: http://127.0.0.1:PORT/path.'
    }
    return undefined
  }
  if (url.protocol === 'https:')
    return 'RosterDesk cannot receive an https redirect; use com.rosterdesk.app:/oauth/callback.'
  const scheme = url.protocol.slice(0, -1)
  if (!scheme.includes('.')) {
    return 'The redirect URI scheme must be in reverse-domain form, for example com.rosterdesk.app:/oauth/callback.'
  }
  if (url.host !== '')
    return 'A custom-scheme redirect URI has a single slash after the colon, e.g. com.rosterdesk.app:/oauth/callback.'
  return undefined
}

function checkScopes(raw: unknown): FieldResult<string> {
  if (typeof raw !== 'string') return { ok: false, error: 'Enter the scopes as text.' }
  const value = normalizeScopes(raw)
  if (value === '') return { ok: false, error: 'Enter at least one scope, for example read.' }
  if (value.length > 500) return { ok: false, error: 'The scope list is too long.' }
  if (!/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(value) || /["\\]/.test(value)) {
    return { ok: false, error: 'Scopes are words such as read and write, separated by spaces or commas.' }
  }
  return { ok: true, value }
}

function checkTenantId(raw: unknown): FieldResult<string> {
  if (typeof raw !== 'string') return { ok: false, error: 'Enter the tenant ID as text.' }
  const value = raw.trim()
  if (value.length > 200) return { ok: false, error: 'The tenant ID is too long (at most 200 characters).' }
  // It travels as the vnd.a1.tenant-id header value, where spaces and control characters are not allowed.
  if (!/^[\x21-\x7e]*$/.test(value))
    return { ok: false, error: 'The tenant ID must not contain spaces or accented letters.' }
  return { ok: true, value }
}

function checkInteger(raw: unknown, min: number, max: number, label: string): FieldResult<number> {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return { ok: false, error: `${label} must be a whole number from ${min} to ${max}.` }
  }
  return { ok: true, value }
}

function checkPayCycles(raw: unknown): FieldResult<string[]> {
  if (!Array.isArray(raw)) return { ok: false, error: 'Tracked pay cycles must be a list.' }
  const seen = new Set<string>()
  for (const item of raw) {
    if (typeof item !== 'string') return { ok: false, error: 'Each tracked pay cycle must be text.' }
    const value = item.trim()
    if (value === '') continue
    if (value.length > 100) return { ok: false, error: 'A pay cycle ID is at most 100 characters.' }
    seen.add(value)
  }
  if (seen.size > 100) return { ok: false, error: 'Track at most 100 pay cycles.' }
  return { ok: true, value: [...seen] }
}
