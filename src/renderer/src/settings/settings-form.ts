import type { Environment, Settings, SettingsPatch } from '../../../shared/domain'
import { ENVIRONMENT_OPTIONS } from '../components/environment-label'

/** The settings form as the clerk types it: every field text, parsed only when saved. */
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
  readonly trackedPayCycles: string
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
}

/** Main's per-field messages (keyed by settings path) placed under the form fields they belong to. */
export function formErrorsFromMain(fieldErrors: Readonly<Record<string, string>>): SettingsFormErrors {
  const errors: Partial<Record<SettingsFormField, string>> = {}
  for (const [path, message] of Object.entries(fieldErrors)) {
    const field = FORM_FIELD_OF_SETTING[path]
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
    trackedPayCycles: settings.trackedPayCycles.join(', '),
  }
}

/** Pay cycle IDs from a comma- or line-separated list, without blanks or repeats. */
export function parsePayCycles(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ]
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]'
}

function baseUrlProblem(raw: string, label: string): string | undefined {
  const value = raw.trim().replace(/\/+$/, '')
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
  if (url.username !== '' || url.password !== '')
    return `The ${label} address must not contain a user name or password.`
  if (url.search !== '' || url.hash !== '') return `The ${label} address must not contain ? or #.`
  return undefined
}

function redirectUriProblem(raw: string): string | undefined {
  const value = raw.trim()
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
    return url.hostname === '127.0.0.1' || url.hostname === 'localhost'
      ? undefined
      : 'A web redirect URI must point at this computer: http://127.0.0.1:PORT/path.'
  }
  if (url.protocol === 'https:')
    return 'RosterDesk cannot receive an https redirect; use com.rosterdesk.app:/oauth/callback.'
  if (!url.protocol.slice(0, -1).includes('.')) {
    return 'The redirect URI scheme must be in reverse-domain form, for example com.rosterdesk.app:/oauth/callback.'
  }
  if (url.host !== '')
    return 'A custom-scheme redirect URI has a single slash after the colon, e.g. com.rosterdesk.app:/oauth/callback.'
  return undefined
}

function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

function integerProblem(raw: string, min: number, max: number, label: string): string | undefined {
  const value = Number(raw.trim())
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    return `${label} must be a whole number from ${min} to ${max}.`
  }
  return undefined
}

/**
 * The same checks main makes (src/main/core/settings/settings-validation.ts), so the clerk sees each problem next
 * to its field before saving; main checks again and its message is shown if it still refuses.
 */
export function validateForm(form: SettingsForm): SettingsFormErrors {
  const errors: SettingsFormErrors = {}
  const set = (field: SettingsFormField, problem: string | undefined): void => {
    if (problem !== undefined) errors[field] = problem
  }
  if (!ENVIRONMENT_OPTIONS.includes(form.environment))
    errors.environment = 'Choose Demo, Staging or Production.'
  set('stagingUrl', baseUrlProblem(form.stagingUrl, 'Staging'))
  set('productionUrl', baseUrlProblem(form.productionUrl, 'Production'))
  if (form.environment === 'staging' && form.stagingUrl.trim() === '' && !errors.stagingUrl) {
    errors.stagingUrl = 'Enter the Staging address to use the Staging environment.'
  }
  if (form.environment === 'production' && form.productionUrl.trim() === '' && !errors.productionUrl) {
    errors.productionUrl = 'Enter the Production address to use the Production environment.'
  }
  const clientId = form.clientId.trim()
  if (clientId.length > 200) errors.clientId = 'The client ID is too long (at most 200 characters).'
  else if (/\s/.test(clientId) || hasControlCharacter(clientId)) {
    errors.clientId = 'The client ID must not contain spaces.'
  }
  set('redirectUri', redirectUriProblem(form.redirectUri))
  const scopes = form.scopes.split(/[\s,]+/).filter((scope) => scope !== '')
  if (scopes.length === 0) errors.scopes = 'Enter at least one scope, for example read.'
  else if (scopes.some((scope) => !/^[\x21-\x7e]+$/.test(scope) || /["\\]/.test(scope))) {
    errors.scopes = 'Scopes are words such as read and write, separated by spaces or commas.'
  } else if (scopes.join(' ').length > 500) errors.scopes = 'The scope list is too long.'
  const tenantId = form.tenantId.trim()
  if (tenantId.length > 200) errors.tenantId = 'The tenant ID is too long (at most 200 characters).'
  else if (!/^[\x21-\x7e]*$/.test(tenantId))
    errors.tenantId = 'The tenant ID must not contain spaces or accented letters.'
  set('pageSize', integerProblem(form.pageSize, 1, 10_000, 'Page size'))
  set('concurrency', integerProblem(form.concurrency, 1, 16, 'Parallel requests'))
  const cycles = parsePayCycles(form.trackedPayCycles)
  if (cycles.some((cycle) => cycle.length > 100))
    errors.trackedPayCycles = 'A pay cycle ID is at most 100 characters.'
  else if (cycles.length > 100) errors.trackedPayCycles = 'Track at most 100 pay cycles.'
  return errors
}

/** Only what the clerk changed, as main's settings patch. Call after validateForm found no problem. */
export function toPatch(form: SettingsForm, saved: Settings): SettingsPatch {
  const patch: SettingsPatch = {}
  if (form.environment !== saved.environment) patch.environment = form.environment
  const staging = form.stagingUrl.trim()
  const production = form.productionUrl.trim()
  if (staging !== saved.baseUrls.staging || production !== saved.baseUrls.production) {
    patch.baseUrls = { staging, production }
  }
  if (form.clientId.trim() !== saved.clientId) patch.clientId = form.clientId.trim()
  if (form.redirectUri.trim() !== saved.redirectUri) patch.redirectUri = form.redirectUri.trim()
  if (form.scopes.trim() !== saved.scopes) patch.scopes = form.scopes.trim()
  if (form.tenantId.trim() !== saved.tenantId) patch.tenantId = form.tenantId.trim()
  if (Number(form.pageSize) !== saved.pageSize) patch.pageSize = Number(form.pageSize)
  if (Number(form.concurrency) !== saved.concurrency) patch.concurrency = Number(form.concurrency)
  const cycles = parsePayCycles(form.trackedPayCycles)
  if (cycles.join('\n') !== saved.trackedPayCycles.join('\n')) patch.trackedPayCycles = cycles
  return patch
}
