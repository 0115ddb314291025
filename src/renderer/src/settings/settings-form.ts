import type { Environment, FormatLocaleSetting, ProxyMode } from '../../../shared/settings-rules'
import {
  checkSettings,
  type Settings,
  type SettingsField,
  type SettingsPatch,
} from '../../../shared/settings-schema'

/** The settings form as the clerk types it: every field text but the checkboxes, parsed only when saved. */
export interface SettingsForm {
  readonly environment: Environment
  readonly stagingUrl: string
  readonly productionUrl: string
  readonly clientId: string
  readonly redirectUri: string
  readonly scopes: string
  readonly tenantId: string
  readonly pageSize: string
  readonly concurrency: string
  /** Ticked in a list of the data's pay cycles (never typed), in the order shown. */
  readonly trackedPayCycles: readonly string[]
  /** The sync scope as its checkbox: on for 'active'. */
  readonly syncActiveOnly: boolean
  readonly staleAfterHours: string
  /** A checkbox, so already on or off. */
  readonly syncOnLaunch: boolean
  readonly syncEveryHours: string
  /** The sync limits of the "Advanced" group (`SYNC_LIMIT_SETTINGS`), typed as text. */
  readonly requestTimeoutSeconds: string
  readonly syncDeadlineMinutes: string
  readonly maxEmployees: string
  /** Settings → Network: how requests reach the service, chosen with radio buttons. */
  readonly proxyMode: ProxyMode
  /** Shown for "This proxy" only, with its bypass list. */
  readonly proxyUrl: string
  readonly proxyBypass: string
  /** Shown for "This PAC file" only. */
  readonly pacUrl: string
  /**
   * The extra trusted certificates' file, by its name only: never typed, never sent. Main sets it ("Choose
   * file…" asks for the file and checks it; "Remove" has its own channel; `settings:update` refuses it), so the
   * form follows the saved value (useSettingsForm) and its patch never holds it.
   */
  readonly extraCertificatesFile: string
  /** The client certificate sent to the service: its name (issued to) and issuer (issued by), both typed. */
  readonly clientCertificateSubject: string
  readonly clientCertificateIssuer: string
  /** Regional formats: 'system' or a locale, chosen from a list (regional-formats.tsx). */
  readonly formatLocale: FormatLocaleSetting
  /** Pay data: the currency of amounts whose row names none, typed ('' for none), and "Hide pay" as a checkbox. */
  readonly currency: string
  readonly hidePay: boolean
}

export type SettingsFormField = keyof SettingsForm
export type SettingsFormErrors = Partial<Record<SettingsFormField, string>>

const FORM_FIELD_OF_SETTING: Readonly<Record<string, SettingsFormField>> = {
  'baseUrls.staging': 'stagingUrl',
  'baseUrls.production': 'productionUrl',
  environment: 'environment',
  clientId: 'clientId',
  redirectUri: 'redirectUri',
  scopes: 'scopes',
  tenantId: 'tenantId',
  pageSize: 'pageSize',
  concurrency: 'concurrency',
  trackedPayCycles: 'trackedPayCycles',
  syncScope: 'syncActiveOnly',
  staleAfterHours: 'staleAfterHours',
  syncOnLaunch: 'syncOnLaunch',
  syncEveryHours: 'syncEveryHours',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  syncDeadlineMinutes: 'syncDeadlineMinutes',
  maxEmployees: 'maxEmployees',
  proxyMode: 'proxyMode',
  proxyUrl: 'proxyUrl',
  proxyBypass: 'proxyBypass',
  pacUrl: 'pacUrl',
  extraCertificatesFile: 'extraCertificatesFile',
  clientCertificateSubject: 'clientCertificateSubject',
  clientCertificateIssuer: 'clientCertificateIssuer',
  formatLocale: 'formatLocale',
  currency: 'currency',
  hidePay: 'hidePay',
} satisfies Record<SettingsField, SettingsFormField>

/** A field the machine policy may lock: a settings form field, or the client secret it supplies. */
export type LockableFormField = SettingsFormField | 'clientSecret'

/**
 * The form fields the machine policy locks, from the settings view's `policy.lockedFields` (settings fields such
 * as `clientId` or `baseUrls.staging`, and `clientSecret` when the policy supplies the secret). A name that matches
 * no field is ignored: a newer policy reader may lock what this form does not show.
 */
export function lockedFormFields(lockedFields: readonly string[]): ReadonlySet<LockableFormField> {
  const locked = new Set<LockableFormField>()
  for (const name of lockedFields) {
    if (name === 'clientSecret') locked.add('clientSecret')
    else if (Object.hasOwn(FORM_FIELD_OF_SETTING, name)) {
      const field = FORM_FIELD_OF_SETTING[name]
      if (field !== undefined) locked.add(field)
    }
  }
  return locked
}

/**
 * Per-field messages keyed by settings field (the schema's, whether found here or by main in `settings:update`)
 * placed under the form fields they belong to.
 */
export function toFormErrors(fieldErrors: Readonly<Record<string, string>>): SettingsFormErrors {
  const errors: SettingsFormErrors = {}
  for (const [path, message] of Object.entries(fieldErrors)) {
    const field = Object.hasOwn(FORM_FIELD_OF_SETTING, path) ? FORM_FIELD_OF_SETTING[path] : undefined
    if (field !== undefined) errors[field] = message
  }
  return errors
}

/** The form's starting values for the saved settings. */
export function toForm(settings: Settings): SettingsForm {
  return {
    environment: settings.environment,
    stagingUrl: settings.baseUrls.staging,
    productionUrl: settings.baseUrls.production,
    clientId: settings.clientId,
    redirectUri: settings.redirectUri,
    scopes: settings.scopes,
    tenantId: settings.tenantId,
    pageSize: String(settings.pageSize),
    concurrency: String(settings.concurrency),
    trackedPayCycles: [...settings.trackedPayCycles],
    syncActiveOnly: settings.syncScope === 'active',
    staleAfterHours: String(settings.staleAfterHours),
    syncOnLaunch: settings.syncOnLaunch,
    syncEveryHours: String(settings.syncEveryHours),
    requestTimeoutSeconds: String(settings.requestTimeoutSeconds),
    syncDeadlineMinutes: String(settings.syncDeadlineMinutes),
    maxEmployees: String(settings.maxEmployees),
    proxyMode: settings.proxyMode,
    proxyUrl: settings.proxyUrl,
    proxyBypass: settings.proxyBypass,
    pacUrl: settings.pacUrl,
    extraCertificatesFile: settings.extraCertificatesFile,
    clientCertificateSubject: settings.clientCertificateSubject,
    clientCertificateIssuer: settings.clientCertificateIssuer,
    formatLocale: settings.formatLocale,
    currency: settings.currency,
    hidePay: settings.hidePay,
  }
}

/** The network fields each proxy mode shows; the others are hidden while it is chosen. */
export const NETWORK_FIELDS_OF_MODE: Readonly<
  Record<ProxyMode, readonly ('proxyUrl' | 'proxyBypass' | 'pacUrl')[]>
> = {
  system: [],
  none: [],
  fixed: ['proxyUrl', 'proxyBypass'],
  pac: ['pacUrl'],
}

/**
 * The form as it is saved: a field not shown goes back to its saved value, so something typed there and then
 * hidden can neither block the save with a message the clerk cannot see nor be saved unseen. The saved value stays
 * for when it shows again. Hidden are the proxy fields the chosen mode does not use (the proxy address once "No
 * proxy" is chosen) and the address of each environment not chosen (Settings shows only the chosen one's).
 */
export function withHiddenFieldsSaved(form: SettingsForm, saved: Settings): SettingsForm {
  const shown = new Set(NETWORK_FIELDS_OF_MODE[form.proxyMode])
  const keep = (field: 'proxyUrl' | 'proxyBypass' | 'pacUrl'): string =>
    shown.has(field) ? form[field] : saved[field]
  return {
    ...form,
    proxyUrl: keep('proxyUrl'),
    proxyBypass: keep('proxyBypass'),
    pacUrl: keep('pacUrl'),
    stagingUrl: form.environment === 'staging' ? form.stagingUrl : saved.baseUrls.staging,
    productionUrl: form.environment === 'production' ? form.productionUrl : saved.baseUrls.production,
  }
}

export type FormCheck = { ok: true; settings: Settings } | { ok: false; errors: SettingsFormErrors }

/**
 * The form checked by the shared settings schema, the very one main applies to `settings:update`, so the clerk
 * sees every problem next to its field before saving, in main's words. Main checks again and its answer is
 * shown if it still refuses (the settings may have changed underneath).
 */
export function checkForm(form: SettingsForm): FormCheck {
  const checked = checkSettings({
    environment: form.environment,
    baseUrls: { staging: form.stagingUrl, production: form.productionUrl },
    clientId: form.clientId,
    redirectUri: form.redirectUri,
    scopes: form.scopes,
    tenantId: form.tenantId,
    pageSize: form.pageSize,
    concurrency: form.concurrency,
    trackedPayCycles: [...form.trackedPayCycles],
    syncScope: form.syncActiveOnly ? 'active' : 'all',
    staleAfterHours: form.staleAfterHours,
    syncOnLaunch: form.syncOnLaunch,
    syncEveryHours: form.syncEveryHours,
    requestTimeoutSeconds: form.requestTimeoutSeconds,
    syncDeadlineMinutes: form.syncDeadlineMinutes,
    maxEmployees: form.maxEmployees,
    proxyMode: form.proxyMode,
    proxyUrl: form.proxyUrl,
    proxyBypass: form.proxyBypass,
    pacUrl: form.pacUrl,
    extraCertificatesFile: form.extraCertificatesFile,
    clientCertificateSubject: form.clientCertificateSubject,
    clientCertificateIssuer: form.clientCertificateIssuer,
    formatLocale: form.formatLocale,
    currency: form.currency,
    hidePay: form.hidePay,
  })
  return checked.ok ? checked : { ok: false, errors: toFormErrors(checked.fieldErrors) }
}

/** Only what the clerk changed, as main's settings patch: checked settings compared with the saved ones. */
export function toPatch(next: Settings, saved: Settings): SettingsPatch {
  const patch: SettingsPatch = {}
  const compare = <K extends keyof Settings>(key: K): void => {
    // Values are plain JSON (strings, numbers, a list, the two addresses), so their JSON compares them.
    if (JSON.stringify(next[key]) !== JSON.stringify(saved[key])) patch[key] = next[key]
  }
  for (const key of Object.keys(next) as (keyof Settings)[]) compare(key)
  return patch
}
