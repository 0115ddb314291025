/**
 * The settings rules as plain functions: how each value is normalised and, in words a clerk can act on, why it
 * cannot be used. `settings-schema.ts` wraps them into the one zod schema; the auth code and the CLI use the
 * normalisers directly. No zod here, so a module that needs only a normaliser pulls in nothing else.
 */
import { isHeaderValueCarried } from './header-value'

export const ENVIRONMENTS = ['demo', 'staging', 'production'] as const
export type Environment = (typeof ENVIRONMENTS)[number]

// A Record keyed by the environment, so a new environment fails to compile until it has a label.
const ENVIRONMENT_LABELS: Readonly<Record<Environment, string>> = {
  demo: 'Demo',
  staging: 'Staging',
  production: 'Production',
}

/** The environment as the clerk reads it. */
export function environmentLabel(environment: Environment): string {
  return ENVIRONMENT_LABELS[environment]
}

/**
 * Which employees a sync keeps: everyone, or for a large employer only the active ones, which the service
 * filters for RosterDesk (`statusFilter=1`, the one status code the spec shows).
 */
export const SYNC_SCOPES = ['all', 'active'] as const
export type SyncScope = (typeof SYNC_SCOPES)[number]
/** Off by default: a cache of everyone is what a clerk expects until someone chooses otherwise. */
export const DEFAULT_SYNC_SCOPE: SyncScope = 'all'

export interface WholeNumberRange {
  readonly min: number
  readonly max: number
}

/** The ranges the numeric settings allow; the form's hints and the messages both read them. */
export const SETTINGS_LIMITS = {
  pageSize: { min: 1, max: 10_000 },
  concurrency: { min: 1, max: 16 },
  /** Up to 30 days: a longer silence is no longer a warning anyone acts on. */
  staleAfterHours: { min: 1, max: 720 },
  /** 0 is off; at most a day, since syncs run only while the app is open. */
  syncEveryHours: { min: 0, max: 24 },
} as const satisfies Record<string, WholeNumberRange>

/**
 * The bounds a sync holds a service to (issue 12): how long one request and the whole run may take, how large a
 * page's answer and one field may be, and how many employees a list may claim. Each is a whole number in its
 * unit; the sync engine checks an option with the same field schema (`syncLimitSchemas`) and uses the default
 * when none is given.
 */
export const SYNC_LIMITS = {
  requestTimeoutSeconds: { min: 1, max: 600 },
  syncDeadlineMinutes: { min: 1, max: 1440 },
  /** A ceiling on `totalCount`: past it the envelope is not believed (nor sized by). */
  maxEmployees: { min: 1, max: 1_000_000_000 },
  maxPageMegabytes: { min: 1, max: 1024 },
  maxFieldCharacters: { min: 100, max: 1_000_000 },
} as const satisfies Record<string, WholeNumberRange>

export const SYNC_LIMIT_DEFAULTS = {
  requestTimeoutSeconds: 30,
  syncDeadlineMinutes: 120,
  maxEmployees: 5_000_000,
  maxPageMegabytes: 64,
  maxFieldCharacters: 10_000,
} as const satisfies Record<keyof typeof SYNC_LIMITS, number>

export type SyncLimitKey = keyof typeof SYNC_LIMITS

/**
 * Each bound's name as Settings and the sync's own messages say it ("raise “Longest sync” in Settings"), with
 * its unit; `syncLimitLabel` joins the two for the field's label and its range message.
 */
export const SYNC_LIMIT_NAMES = {
  requestTimeoutSeconds: { name: 'Longest wait for an answer', unit: 'seconds' },
  syncDeadlineMinutes: { name: 'Longest sync', unit: 'minutes' },
  maxEmployees: { name: 'Most employees', unit: undefined },
  maxPageMegabytes: { name: 'Largest page', unit: 'MB' },
  maxFieldCharacters: { name: 'Longest field', unit: 'characters' },
} as const satisfies Record<SyncLimitKey, { readonly name: string; readonly unit: string | undefined }>

/** "Longest sync (minutes)", "Most employees". */
export function syncLimitLabel(key: SyncLimitKey): string {
  const { name, unit } = SYNC_LIMIT_NAMES[key]
  return unit === undefined ? name : `${name} (${unit})`
}

/**
 * The bounds a clerk (or IT) can change in Settings, under "Advanced": how long to wait for one answer and for
 * the whole run, and how many employees a list may claim. The page and field sizes stay at their defaults.
 */
export const SYNC_LIMIT_SETTINGS = ['requestTimeoutSeconds', 'syncDeadlineMinutes', 'maxEmployees'] as const
export type SyncLimitSetting = (typeof SYNC_LIMIT_SETTINGS)[number]

/** The defaults of those settings: the sync's own, so a run without settings and a first-run app agree. */
export const SYNC_LIMIT_SETTING_DEFAULTS = {
  requestTimeoutSeconds: SYNC_LIMIT_DEFAULTS.requestTimeoutSeconds,
  syncDeadlineMinutes: SYNC_LIMIT_DEFAULTS.syncDeadlineMinutes,
  maxEmployees: SYNC_LIMIT_DEFAULTS.maxEmployees,
} as const satisfies Record<SyncLimitSetting, number>

/**
 * How fresh the cache is kept, by default. Automatic syncs start off in every environment: on Production a sync is
 * real traffic to the payroll service, so a clerk or their IT team turns it on knowingly in Settings, and the
 * banner still warns once the data is a day old. The main process's defaults and the test fakes both read these.
 */
export const FRESHNESS_DEFAULTS = {
  staleAfterHours: 24,
  syncOnLaunch: false,
  syncEveryHours: 0,
} as const

/** "1 to 10,000": a range as a clerk reads it (digits grouped without depending on the OS locale). */
export function rangeText(range: WholeNumberRange): string {
  const grouped = (value: number): string => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${grouped(range.min)} to ${grouped(range.max)}`
}

/**
 * The page-size setting in words, once, for Settings' form, the schema's messages and the CLI's `sync` usage.
 * Since issue 13 a sync asks the service for its largest page; the setting is only what it falls back to.
 */
export const PAGE_SIZE_SETTING = {
  label: 'Page size',
  help:
    'Used only when the service refuses larger pages: RosterDesk asks for the largest page the service serves, ' +
    `and otherwise for this many employees per request, ${rangeText(SETTINGS_LIMITS.pageSize)}.`,
} as const

/** A service address without the trailing slash, so paths can be appended as `${base}/employees/list`. */
export function normalizeBaseUrl(value: string): string {
  return value.trim().replace(/\/+$/, '')
}

/** Scopes as the spec allows them (spaces or commas), normalised to single spaces without repeats. */
export function normalizeScopes(value: string): string {
  const seen = new Set<string>()
  for (const scope of value.split(/[\s,]+/)) if (scope !== '') seen.add(scope)
  return [...seen].join(' ')
}

/** Pay cycle IDs trimmed, without blanks or repeats, in the order given. */
export function normalizePayCycles(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ''))]
}

/** True for hosts that can only mean this computer, where plain http cannot be intercepted on the network. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]'
}

/**
 * Why a normalised service address cannot be used, or undefined when it can (empty included: not configured
 * yet). `label` names the address in the message: "Staging", "Production", "service".
 */
export function baseUrlProblem(value: string, label: string): string | undefined {
  if (value === '') return undefined
  if (value.length > 500) return `The ${label} address is too long.`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `The ${label} address must be a full web address such as https://payroll.example.com.`
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return `The ${label} address must start with https:// (plain http is allowed only for this computer).`
  }
  if (url.username !== '' || url.password !== '') {
    return `The ${label} address must not contain a user name or password.`
  }
  if (url.search !== '' || url.hash !== '') return `The ${label} address must not contain ? or #.`
  return undefined
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

/** Why a trimmed client ID cannot be used, or undefined. */
export function clientIdProblem(value: string): string | undefined {
  if (value.length > 200) return 'The client ID is too long (at most 200 characters).'
  if (/[\s\p{Cc}]/u.test(value)) return 'The client ID must not contain spaces.'
  return undefined
}

/** Why a normalised scope list cannot be used, or undefined. */
export function scopesProblem(value: string): string | undefined {
  if (value === '') return 'Enter at least one scope, for example read.'
  if (value.length > 500) return 'The scope list is too long.'
  // OAuth's scope-token grammar (RFC 6749 §3.3): printable ASCII except space, " and \.
  if (!/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(value) || /["\\]/.test(value)) {
    return 'Scopes are words such as read and write, separated by spaces or commas.'
  }
  return undefined
}

/** Why a trimmed tenant ID cannot be used, or undefined (empty: a single-tenant service). */
export function tenantIdProblem(value: string): string | undefined {
  if (value.length > 200) return 'The tenant ID is too long (at most 200 characters).'
  // It travels as the vnd.a1.tenant-id header value (isHeaderValueCarried), and a tenant ID has no spaces.
  if (value !== '' && (!isHeaderValueCarried(value) || /[ \t]/.test(value))) {
    return 'The tenant ID must not contain spaces or accented letters.'
  }
  return undefined
}

/**
 * How pay data shows (issue 24, point 4): the currency an amount is written in when its row names none (an ISO
 * 4217 code; '' for none, since the spec names no currency), and whether money columns are hidden on screen and
 * on the printed page ("Hide pay", for a screen read over the clerk's shoulder).
 */
export const PAY_DISPLAY_DEFAULTS = {
  currency: '',
  hidePay: false,
} as const

/** A currency code as stored: trimmed, upper case ("eur" → "EUR"). */
export function normalizeCurrency(value: string): string {
  return value.trim().toUpperCase()
}

/** Why a normalised currency setting cannot be used, or undefined ('' is none). */
export function currencyProblem(value: string): string | undefined {
  if (value === '' || /^[A-Z]{3}$/.test(value)) return undefined
  return 'Enter a three-letter currency code, such as EUR, GBP or USD, or leave it empty for none.'
}

/** Why a normalised list of tracked pay cycles cannot be used, or undefined. */
export function payCyclesProblem(values: readonly string[]): string | undefined {
  if (values.some((value) => value.length > 100)) return 'A pay cycle ID is at most 100 characters.'
  if (values.length > 100) return 'Track at most 100 pay cycles.'
  return undefined
}

/** Why `environment` cannot be used with the address it would talk to, or undefined. Demo needs none. */
export function environmentAddressProblem(
  environment: Environment,
  baseUrls: Readonly<Record<Exclude<Environment, 'demo'>, string>>,
): string | undefined {
  if (environment === 'demo' || baseUrls[environment] !== '') return undefined
  const label = environmentLabel(environment)
  return `Enter the ${label} address to use the ${label} environment.`
}

/** A profile's name: what the header and every export's About sheet show. */
export const PROFILE_NAME_MAX_LENGTH = 40

/** Trims and collapses spaces, so "Acme  Ltd " and "Acme Ltd" are one name. */
export function normalizeProfileName(name: string): string {
  return name.trim().replace(/\s+/g, ' ')
}

/**
 * The first profile's id. It owns the storage a single-environment release used (the bare secret names,
 * `<dataDir>/cache`, the window's unkeyed column list), so an upgrade moves, copies and decrypts nothing: the old
 * data simply is profile 1's.
 */
export const FIRST_PROFILE_ID = 'p1'

/**
 * Why a (normalized) profile name cannot be used, worded for a clerk, or undefined. Names are unique ignoring
 * case, because a clerk picks a profile by its name and two alike would hide which data is on screen.
 */
export function profileNameProblem(name: string, otherNames: readonly string[]): string | undefined {
  if (name === '') return 'Enter a name for the profile.'
  if (name.length > PROFILE_NAME_MAX_LENGTH) {
    return `Use at most ${PROFILE_NAME_MAX_LENGTH} characters for the profile's name.`
  }
  const lower = name.toLowerCase()
  if (otherNames.some((other) => other.toLowerCase() === lower)) return `A profile named "${name}" exists.`
  return undefined
}

/** Whether a profile's name already says its environment ("Demo" on Demo), so repeating it adds nothing. */
export function profileNameIsEnvironment(name: string, environment: Environment): boolean {
  return normalizeProfileName(name).toLowerCase() === environmentLabel(environment).toLowerCase()
}

/**
 * A profile as the header's switcher lists it: "Acme Ltd (Staging)", or "Demo" alone when its name is its
 * environment, so two client companies on Staging are told apart by name and none reads "Demo (Demo)".
 */
export function profileLabel(profile: { readonly name: string; readonly environment: Environment }): string {
  return profileNameIsEnvironment(profile.name, profile.environment)
    ? profile.name
    : `${profile.name} (${environmentLabel(profile.environment)})`
}

// ---- Network (Settings → Network) -----------------------------------------------------------------------

/**
 * How RosterDesk reaches the service: through the OS's proxy settings (system settings, PAC, WPAD; the default),
 * directly, through one proxy, or through a PAC file. The machine policy, a command-line flag and the
 * environment all come before the profile's choice (decision 037, `effectiveProxyChoice`).
 */
export const PROXY_MODES = ['system', 'none', 'fixed', 'pac'] as const
export type ProxyMode = (typeof PROXY_MODES)[number]

/** Each choice in the clerk's words, for Settings, the check report and the CLI. */
export const PROXY_MODE_LABELS: Readonly<Record<ProxyMode, string>> = {
  system: "Use the system's settings",
  none: 'No proxy',
  fixed: 'This proxy',
  pac: 'This PAC file',
}

export const NETWORK_DEFAULTS = {
  proxyMode: 'system' as ProxyMode,
  proxyUrl: '',
  proxyBypass: '',
  pacUrl: '',
  extraCertificatesFile: '',
  clientCertificateSubject: '',
  clientCertificateIssuer: '',
}

/**
 * Why a proxy address cannot be used, or undefined (empty is "not set"; the schema asks for one when "This
 * proxy" is chosen). A proxy is http://host:port (or https://, socks5://); a user name or password in it is
 * refused, since settings files and command lines are readable: a proxy's password is asked for when it asks.
 */
export function proxyUrlProblem(value: string): string | undefined {
  if (value === '') return undefined
  if (value.length > 500) return 'The proxy address is too long.'
  let url: URL
  try {
    url = new URL(value.includes('://') ? value : `http://${value}`)
  } catch {
    return 'The proxy address must look like http://proxy.example.com:8080.'
  }
  if (!['http:', 'https:', 'socks5:', 'socks4:', 'socks:'].includes(url.protocol)) {
    return 'The proxy address must start with http://, https:// or socks5://.'
  }
  if (url.username !== '' || url.password !== '') {
    return 'The proxy address must not contain a user name or password: RosterDesk asks for them when the proxy does.'
  }
  if (url.hostname === '')
    return 'The proxy address must name a host, for example http://proxy.example.com:8080.'
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return 'The proxy address is a host and port only, for example http://proxy.example.com:8080.'
  }
  return undefined
}

/** A proxy address as stored: trimmed, `http://` added when no scheme was typed, no trailing slash. */
export function normalizeProxyUrl(value: string): string {
  const trimmed = value.trim()
  if (trimmed === '') return ''
  return (trimmed.includes('://') ? trimmed : `http://${trimmed}`).replace(/\/+$/, '')
}

/** Why a PAC file address cannot be used, or undefined (empty: not set). */
export function pacUrlProblem(value: string): string | undefined {
  if (value === '') return undefined
  if (value.length > 1000) return 'The PAC file address is too long.'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'The PAC file address must be a full address such as http://wpad.example.com/proxy.pac.'
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) {
    return 'The PAC file address must start with http://, https:// or file://.'
  }
  return undefined
}

/** The bypass list as stored: entries split on commas, semicolons or spaces, joined with ", ". */
export function normalizeProxyBypass(value: string): string {
  return [...new Set(value.split(/[\s,;]+/).filter((entry) => entry !== ''))].join(', ')
}

/** Why a normalised bypass list cannot be used, or undefined. */
export function proxyBypassProblem(value: string): string | undefined {
  if (value.length > 2000) return 'The list of addresses that bypass the proxy is too long.'
  // Host patterns as Chromium's proxy rules and NO_PROXY read them: *.example.com, .example.com, 10.0.0.0/8, <local>.
  const bad = value
    .split(', ')
    .find((entry) => entry !== '' && !/^(<local>|<-loopback>|[\w*.:[\]/-]+)$/.test(entry))
  return bad === undefined
    ? undefined
    : `“${bad.slice(0, 60)}” is not a host name, a pattern such as *.example.com, or an address range.`
}

/**
 * Why an extra-certificates file path cannot be used, or undefined (empty: none). The file is read when used.
 * Local files only (issue 31, point 2): a path starting with two slashes of either kind is a network share
 * (`\\server\share`, `//server/share`) or a Windows device path (`\\?\UNC\…`, `\\.\…`, `\\?\C:\…`), which
 * Windows would open over SMB, handing the share the clerk's credentials; a mapped network drive is caught where
 * the file is read (network-settings.ts, `localCertificateFile`).
 */
export function certificatesFileProblem(value: string): string | undefined {
  if (value.length > 1000) return 'The certificate file path is too long.'
  // eslint-disable-next-line no-control-regex -- a path with control characters is no file a clerk chose
  if (/[\u0000-\u001f]/.test(value))
    return 'The certificate file path contains characters a path cannot have.'
  if (/^[\\/]{2}/.test(value)) return NOT_LOCAL_CERTIFICATES
  return undefined
}

/** Why `settings:update` refuses a patch naming the certificate file: main's open dialog alone sets it. */
export const CERTIFICATES_BY_DIALOG =
  'The extra trusted certificates are chosen with “Choose file…” in Settings → Network, never by a settings change.'

/** The refusal of a certificate file that is not on this computer (certificatesFileProblem). */
export const NOT_LOCAL_CERTIFICATES =
  'The certificate file must be on this computer: RosterDesk reads none from a network share (\\\\server\\share) or a device path.'

/**
 * Why a client certificate's subject or issuer cannot be used, or undefined ('' is "none"). Each is the name the
 * OS's certificate store shows for it (its common name, else its organisation), as Electron's Certificate gives
 * it (`subjectName`, `issuerName`); they compare ignoring case. A certificate is named by both or neither.
 */
export function certificateNameProblem(value: string): string | undefined {
  if (value.length > 200) return 'The certificate name is too long.'
  // eslint-disable-next-line no-control-regex -- no certificate's name holds control characters
  if (/[\u0000-\u001f\u007f]/.test(value))
    return 'The certificate name contains characters a name cannot have.'
  return undefined
}

/** The cross-field rule of a client certificate: its subject and its issuer, both or neither. */
export function clientCertificateProblem(subject: string, issuer: string): string | undefined {
  return (subject === '') === (issuer === '')
    ? undefined
    : 'Enter both the certificate’s name (issued to) and its issuer (issued by), or neither.'
}

/**
 * Regional formats (Settings → Regional formats): how numbers, dates and times are written on screen and on the
 * printed page. 'system' follows the computer's regional settings (Electron's `app.getSystemLocale()`); the
 * others are the locales a clerk may choose instead. UI text stays English whichever is chosen, and exports keep
 * real numbers and dates.
 */
export const FORMAT_LOCALES = [
  'system',
  'en-US',
  'en-GB',
  'en-AU',
  'en-CA',
  'en-IE',
  'en-IN',
  'de-DE',
  'de-AT',
  'de-CH',
  'fr-FR',
  'fr-BE',
  'fr-CA',
  'fr-CH',
  'nl-NL',
  'nl-BE',
  'it-IT',
  'es-ES',
  'es-MX',
  'pt-PT',
  'pt-BR',
  'da-DK',
  'sv-SE',
  'nb-NO',
  'fi-FI',
  'pl-PL',
  'cs-CZ',
  'ja-JP',
] as const
export type FormatLocaleSetting = (typeof FORMAT_LOCALES)[number]
/** The computer's regional settings, until a clerk chooses otherwise. */
export const DEFAULT_FORMAT_LOCALE: FormatLocaleSetting = 'system'
