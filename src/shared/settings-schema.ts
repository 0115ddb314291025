import * as z from 'zod/mini'
import {
  ENVIRONMENTS,
  FORMAT_LOCALES,
  PAGE_SIZE_SETTING,
  PROXY_MODES,
  certificatesFileProblem,
  certificateNameProblem,
  clientCertificateProblem,
  normalizeProxyBypass,
  normalizeProxyUrl,
  pacUrlProblem,
  proxyBypassProblem,
  proxyUrlProblem,
  SETTINGS_LIMITS,
  SYNC_LIMITS,
  SYNC_SCOPES,
  baseUrlProblem,
  currencyProblem,
  normalizeCurrency,
  clientIdProblem,
  environmentAddressProblem,
  environmentLabel,
  normalizeBaseUrl,
  normalizePayCycles,
  normalizeScopes,
  payCyclesProblem,
  rangeText,
  redirectUriProblem,
  scopesProblem,
  syncLimitLabel,
  tenantIdProblem,
  type SyncLimitKey,
  type WholeNumberRange,
} from './settings-rules'

/**
 * The one settings schema. Main's SettingsStore and its migrations, the renderer's settings form, the CLI's flags
 * and the sync engine's option checks all parse with it, so a rule and its message exist once. Each field
 * normalises its value (trims, drops a trailing slash, joins scopes with spaces) and words every problem for a
 * clerk; zod reports every field's problem in one pass, which is what a form that marks each field needs.
 *
 * Written with zod/mini because the renderer bundles this file: its functions tree-shake, where classic zod's
 * methods bring the whole library along. Mini and classic schemas compose, so the domain schemas (domain/*.ts) nest these as they are.
 */

/** A check that reports `find`'s message, if it finds a problem, against the value being checked. */
function problem<T>(find: (value: T) => string | undefined) {
  return z.superRefine<T>((value, ctx) => {
    const message = find(value)
    if (message !== undefined) ctx.addIssue({ code: 'custom', message })
  })
}

function textSetting(
  notText: string,
  normalize: (value: string) => string,
  find: (value: string) => string | undefined,
) {
  return z.string({ error: notText }).check(z.overwrite(normalize), problem(find))
}

/**
 * A whole number within `range`; digits typed as text count, because form fields and CLI flags are text. The
 * message is "<label> must be a whole number from <range>." unless the field needs its own words.
 */
function wholeNumberSetting(
  label: string,
  range: WholeNumberRange,
  message = `${label} must be a whole number from ${rangeText(range)}.`,
) {
  return z.pipe(
    z.union([z.number(), z.string()], { error: message }),
    z.transform((raw: number | string, ctx) => {
      const value = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw
      if (typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max) {
        return value
      }
      ctx.issues.push({ code: 'custom', message, input: raw })
      return z.NEVER
    }),
  )
}

const trim = (value: string): string => value.trim()

const environmentLabels = ENVIRONMENTS.map(environmentLabel)
/** "Choose Demo, Staging or Production.": the message names the environments the schema accepts. */
export const environmentSchema = z.enum(ENVIRONMENTS, {
  error: `Choose ${environmentLabels.slice(0, -1).join(', ')} or ${environmentLabels.at(-1)}.`,
})

/** One environment's service address; empty means not configured yet. */
export function baseUrlSchema(label: string) {
  return textSetting(`Enter the ${label} address as text.`, normalizeBaseUrl, (value) =>
    baseUrlProblem(value, label),
  )
}

/** The address a sync or a sign-in talks to (the CLI's --base-url, the sync engine's option): required. */
export const serviceAddressSchema = textSetting(
  'Enter the service address as text.',
  normalizeBaseUrl,
  (value) =>
    value === ''
      ? 'Enter the service address, for example https://payroll.example.com.'
      : baseUrlProblem(value, 'service'),
)

/** A sync bound (`SYNC_LIMITS`) under its clerk's label (`SYNC_LIMIT_NAMES`). */
function syncLimitSchema(key: SyncLimitKey) {
  return wholeNumberSetting(syncLimitLabel(key), SYNC_LIMITS[key])
}

/**
 * The sync's bounds (`SYNC_LIMITS`), each with its clerk's label: checked by the sync engine and the CLI, and the
 * three a clerk may change (`SYNC_LIMIT_SETTINGS`) by the settings schema below.
 */
export const syncLimitSchemas = {
  requestTimeoutSeconds: syncLimitSchema('requestTimeoutSeconds'),
  syncDeadlineMinutes: syncLimitSchema('syncDeadlineMinutes'),
  maxEmployees: syncLimitSchema('maxEmployees'),
  maxPageMegabytes: syncLimitSchema('maxPageMegabytes'),
  maxFieldCharacters: syncLimitSchema('maxFieldCharacters'),
}

/** Every setting by its own rules: what the settings file may hold and what the renderer is shown. */
export const settingsSchema = z.strictObject(
  {
    environment: environmentSchema,
    baseUrls: z.strictObject(
      { staging: baseUrlSchema('Staging'), production: baseUrlSchema('Production') },
      { error: 'RosterDesk received service addresses it cannot read.' },
    ),
    clientId: textSetting('Enter the client ID as text.', trim, clientIdProblem),
    redirectUri: textSetting('Enter the redirect URI as text.', trim, redirectUriProblem),
    /** Space- or comma-separated, as the spec allows; stored space-separated. */
    scopes: textSetting('Enter the scopes as text.', normalizeScopes, scopesProblem),
    tenantId: textSetting('Enter the tenant ID as text.', trim, tenantIdProblem),
    pageSize: wholeNumberSetting(PAGE_SIZE_SETTING.label, SETTINGS_LIMITS.pageSize),
    concurrency: wholeNumberSetting('Parallel requests', SETTINGS_LIMITS.concurrency),
    trackedPayCycles: z
      .array(z.string({ error: 'Each tracked pay cycle must be text.' }), {
        error: 'Tracked pay cycles must be a list.',
      })
      .check(z.overwrite(normalizePayCycles), problem(payCyclesProblem)),
    /** 'active': the sync asks the service for active employees only (statusFilter=1). */
    syncScope: z.enum(SYNC_SCOPES, {
      error: 'Choose whether to sync all employees or active employees only.',
    }),
    /** How old the saved employees may get before the app warns, in hours. */
    staleAfterHours: wholeNumberSetting(
      'Warn after',
      SETTINGS_LIMITS.staleAfterHours,
      `Enter how many hours old the data may get before RosterDesk warns: a whole number from ${rangeText(SETTINGS_LIMITS.staleAfterHours)}.`,
    ),
    /** Sync once when the app starts, if signed in. */
    syncOnLaunch: z.boolean({ error: 'Choose whether RosterDesk syncs when it starts: on or off.' }),
    /** Sync every this many hours while the app is open and signed in; 0 is off. */
    syncEveryHours: wholeNumberSetting(
      'Sync every',
      SETTINGS_LIMITS.syncEveryHours,
      `Enter how many hours apart automatic syncs run: a whole number from ${rangeText(SETTINGS_LIMITS.syncEveryHours)} (0 turns them off).`,
    ),
    /** The sync's bounds a clerk may change (`SYNC_LIMIT_SETTINGS`, the "Advanced" group of the form). */
    requestTimeoutSeconds: syncLimitSchemas.requestTimeoutSeconds,
    syncDeadlineMinutes: syncLimitSchemas.syncDeadlineMinutes,
    maxEmployees: syncLimitSchemas.maxEmployees,
    /** Settings → Network (settings-rules.ts, "Network"): how requests reach the service. */
    proxyMode: z.enum(PROXY_MODES, {
      error:
        "Choose how RosterDesk reaches the service: the system's settings, no proxy, a proxy or a PAC file.",
    }),
    /** The proxy for "This proxy": http://host:port, never with credentials in it. */
    proxyUrl: textSetting('Enter the proxy address as text.', normalizeProxyUrl, proxyUrlProblem),
    /** Hosts that bypass "This proxy": *.example.com, 10.0.0.0/8, <local>; stored comma-separated. */
    proxyBypass: textSetting('Enter the bypass list as text.', normalizeProxyBypass, proxyBypassProblem),
    /** The PAC file for "This PAC file". */
    pacUrl: textSetting('Enter the PAC file address as text.', trim, pacUrlProblem),
    /** A PEM file of certificates trusted besides the OS's store (a company's TLS inspection root); '' for none. */
    extraCertificatesFile: textSetting('Enter the certificate file as text.', trim, certificatesFileProblem),
    /**
     * The clerk's own certificate, sent when the service asks for one (a smart card, a company's client
     * certificate): its subject and issuer as the OS's store names them, '' for none (issue 31, point 9).
     */
    clientCertificateSubject: textSetting(
      'Enter the certificate’s name as text.',
      trim,
      certificateNameProblem,
    ),
    clientCertificateIssuer: textSetting(
      'Enter the certificate’s issuer as text.',
      trim,
      certificateNameProblem,
    ),
    /** Regional formats: 'system' (the computer's) or one of `FORMAT_LOCALES`; UI text stays English. */
    formatLocale: z.enum(FORMAT_LOCALES, {
      error: "Choose the regional formats: the computer's (System) or one from the list.",
    }),
    /** The currency of amounts whose row names none (PAY_DISPLAY_DEFAULTS): an ISO 4217 code, '' for none. */
    currency: textSetting('Enter the currency as text.', normalizeCurrency, currencyProblem),
    /** "Hide pay": money columns left off the screen and the printed page. */
    hidePay: z.boolean({ error: 'Choose whether pay is hidden: on or off.' }),
  },
  {
    // Names only: an unknown key may be a misplaced secret, and its value must not travel into a message.
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `These are not RosterDesk settings: ${issue.keys.slice(0, 5).join(', ')}.`
        : 'RosterDesk received settings it cannot read.',
  },
)
export type Settings = z.output<typeof settingsSchema>
/** A change to the settings: only the fields that change (the addresses travel together). */
export type SettingsPatch = Partial<Settings>

/**
 * What a save must satisfy: every field's rule, and an address for the environment chosen. Loading a stored file
 * uses `settingsSchema` alone, so a file saved before the cross-field rule existed still loads whole.
 */
export const settingsToSaveSchema = settingsSchema.check(
  z.superRefine(
    (settings, ctx) => {
      const message = environmentAddressProblem(settings.environment, settings.baseUrls)
      if (message !== undefined)
        ctx.addIssue({ code: 'custom', path: ['baseUrls', settings.environment], message })
      if (settings.proxyMode === 'fixed' && settings.proxyUrl === '')
        ctx.addIssue({
          code: 'custom',
          path: ['proxyUrl'],
          message: 'Enter the proxy address, for example http://proxy.example.com:8080.',
        })
      const certificate = clientCertificateProblem(
        settings.clientCertificateSubject,
        settings.clientCertificateIssuer,
      )
      if (certificate !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [
            settings.clientCertificateSubject === '' ? 'clientCertificateSubject' : 'clientCertificateIssuer',
          ],
          message: certificate,
        })
      if (settings.proxyMode === 'pac' && settings.pacUrl === '')
        ctx.addIssue({
          code: 'custom',
          path: ['pacUrl'],
          message: 'Enter the PAC file address, for example http://wpad.example.com/proxy.pac.',
        })
    },
    // Only once the environment and both addresses are known good; a field's own problem is said first.
    {
      when: (payload) =>
        payload.issues.every((issue) => {
          const field = issue.path?.[0]
          return field !== undefined && field !== 'environment' && field !== 'baseUrls'
        }),
    },
  ),
)

/** Field names as the form and `settings:update`'s fieldErrors address them; the two addresses are separate. */
export type SettingsField = Exclude<keyof Settings, 'baseUrls'> | `baseUrls.${keyof Settings['baseUrls']}`
export type SettingsFieldErrors = Partial<Record<SettingsField, string>>
export type SettingsValidation =
  { ok: true; settings: Settings } | { ok: false; fieldErrors: SettingsFieldErrors }

function isSimpleField(key: unknown): key is Exclude<SettingsField, `baseUrls.${string}`> {
  return typeof key === 'string' && key !== 'baseUrls' && Object.hasOwn(settingsSchema.shape, key)
}

function fieldOf(path: readonly PropertyKey[]): SettingsField {
  const [key, inner] = path
  if (key === 'baseUrls') return inner === 'production' ? 'baseUrls.production' : 'baseUrls.staging'
  // A problem with the settings as a whole (not an object, unknown keys) has no field of its own: it goes to the
  // first field the form shows, the environment.
  return isSimpleField(key) ? key : 'environment'
}

/** Whole settings checked by `schema`: normalised settings, or each field's first problem, all at once. */
export function checkSettings(input: unknown, schema = settingsToSaveSchema): SettingsValidation {
  const result = schema.safeParse(input)
  if (result.success) return { ok: true, settings: result.data }
  const fieldErrors: SettingsFieldErrors = {}
  for (const issue of result.error.issues) fieldErrors[fieldOf(issue.path)] ??= issue.message
  return { ok: false, fieldErrors }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function definedEntries(record: Record<string, unknown>): Record<string, unknown> {
  // fromEntries defines own properties, so a "__proto__" key stays a key (and is refused as unknown).
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))
}

/**
 * `patch` over `current`, checked as a whole: fields the patch leaves out (or sets to undefined) keep their
 * value, and an address given alone keeps the other one. Keys that are not settings are refused by name.
 */
export function applySettingsPatch(
  patch: unknown,
  current: Settings,
  schema = settingsToSaveSchema,
): SettingsValidation {
  if (!isRecord(patch)) return checkSettings(patch, schema)
  const changes = definedEntries(patch)
  if (isRecord(changes.baseUrls))
    changes.baseUrls = { ...current.baseUrls, ...definedEntries(changes.baseUrls) }
  return checkSettings({ ...current, ...changes }, schema)
}

export type CheckedValue<T> = { ok: true; value: T } | { ok: false; problem: string }

/** One value checked by one of the schemas here (a CLI flag, a sync option): its normalised value or its problem. */
export function checkValue<S extends z.ZodMiniType>(schema: S, value: unknown): CheckedValue<z.output<S>> {
  const result = schema.safeParse(value)
  if (result.success) return { ok: true, value: result.data }
  return { ok: false, problem: result.error.issues[0]?.message ?? 'This value cannot be used.' }
}
