/**
 * A profile's data identity: the environment, service address and tenant its saved employees were read from.
 * Changing any of them in a profile that holds saved employees must never show those employees under the new
 * name, so the change is made only one of two ways the clerk chose (decision 039). Zod-free, so the renderer's
 * form and the core's handler apply the one rule.
 */
import { formatNumber } from './locale-format'
import {
  environmentLabel,
  normalizeBaseUrl,
  normalizeProfileName,
  profileNameIsEnvironment,
  profileNameProblem,
  type Environment,
} from './settings-rules'

/** The settings fields that say whose employees a profile reads (a subset of `Settings`). */
export interface IdentitySettings {
  readonly environment: Environment
  readonly baseUrls: { readonly staging: string; readonly production: string }
  readonly tenantId: string
}

/**
 * What a profile's settings say its data is: Demo is its built-in sandbox whatever address or tenant the form
 * holds (they are not used), so only its environment counts; Staging and Production are their address and tenant.
 */
export function sourceKey(settings: IdentitySettings): string {
  if (settings.environment === 'demo') return 'demo'
  return JSON.stringify([settings.environment, settings.baseUrls[settings.environment], settings.tenantId])
}

/** Whether going from `before` to `after` changes whose employees the profile reads. */
export function identityChanges(before: IdentitySettings, after: IdentitySettings): boolean {
  return sourceKey(before) !== sourceKey(after)
}

/**
 * The two honest ways to change a profile's identity while it holds saved employees: a new profile with the new
 * settings (this one stays as it was), or this profile changed with its saved employees set aside (restorable
 * until its next complete sync).
 */
export const IDENTITY_CHOICES = ['new-profile', 'set-aside'] as const
export type IdentityChoice = (typeof IDENTITY_CHOICES)[number]

/**
 * A new profile's name for `environment`: "Staging", else "Staging 2", "Staging 3", … the first free one (names are
 * unique ignoring case).
 */
export function newProfileName(environment: Environment, taken: readonly string[]): string {
  const base = environmentLabel(environment)
  for (let n = 1; ; n += 1) {
    const name = normalizeProfileName(n === 1 ? base : `${base} ${n}`)
    if (profileNameProblem(name, taken) === undefined) return name
  }
}

/**
 * The name a profile changed in place ("set aside") takes, or undefined when it keeps its own. A profile still
 * named after the environment it read ("Demo" or "Staging 2", as the app names them) would name the old source beside the new
 * one's badge ("Demo · Staging"), so it takes the new environment's name (`newProfileName`); a name the clerk
 * chose ("Acme Ltd") stays, the badge beside it saying the environment. `taken`: the other profiles' names.
 */
export function setAsideRename(
  name: string,
  from: Environment,
  to: Environment,
  taken: readonly string[],
): string | undefined {
  if (from === to || !isEnvironmentName(name, from)) return undefined
  return newProfileName(to, taken)
}

/** Whether `name` is a name the app gives a profile of `environment`: "Staging", or "Staging 2" (ignoring case). */
function isEnvironmentName(name: string, environment: Environment): boolean {
  const numbered = /^(.*) \d+$/.exec(normalizeProfileName(name))
  return profileNameIsEnvironment(numbered?.[1] ?? name, environment)
}

/** The confirmation's first button: "Create a new profile for Staging". */
export function newProfileChoiceLabel(environment: Environment): string {
  return `Create a new profile for ${environmentLabel(environment)}`
}

/**
 * The confirmation's second button: "Change this profile and set its 100,000 saved employees aside", the count in
 * the clerk's regional formats (`locale`, shared/locale-format.ts).
 */
export function setAsideChoiceLabel(employeeCount: number, locale: string): string {
  const count = formatNumber(employeeCount, locale)
  return `Change this profile and set its ${count} saved ${employeeCount === 1 ? 'employee' : 'employees'} aside`
}

/** The refusal `settings:update` answers when the identity would change without a choice (count in `locale`). */
export function identityChoiceNeeded(employeeCount: number, locale: string): string {
  return (
    `This change points the profile at another source while it holds ${formatNumber(employeeCount, locale)} ` +
    'saved employees. Choose to create a new profile, or to change this one and set its saved employees aside.'
  )
}

/** Where the rows on screen came from, as their run log recorded it (absent fields were not recorded). */
export interface RowSource {
  readonly environment?: string
  readonly serviceAddress?: string
  readonly tenantId?: string
}

/** "Demo (sample data)", "Staging", "Production · tenant acme": the source of the rows shown, for labels. */
export function rowSourceLabel(source: RowSource): string {
  const env = source.environment
  const known = env === 'demo' || env === 'staging' || env === 'production'
  const name = known ? environmentLabel(env) : (env ?? 'an unrecorded source')
  const label = env === 'demo' ? `${name} (sample data)` : name
  return source.tenantId && env !== 'demo' ? `${label} · tenant ${source.tenantId}` : label
}

/**
 * Whether the rows a run recorded as read from `rows` are what `settings` read now, by `sourceKey`'s rule (Demo by
 * its environment alone; Staging and Production by address and tenant too, a tenant not recorded being none). A
 * source whose environment was not recorded is taken as the settings' own: nothing says otherwise.
 */
export function rowsFromSettingsSource(rows: RowSource, settings: IdentitySettings): boolean {
  if (rows.environment === undefined) return true
  if (rows.environment !== settings.environment) return false
  if (settings.environment === 'demo') return true
  const address = normalizeBaseUrl(settings.baseUrls[settings.environment])
  return (
    (rows.serviceAddress === undefined || normalizeBaseUrl(rows.serviceAddress) === address) &&
    (rows.tenantId ?? '') === settings.tenantId
  )
}

/** The source `settings` read, as a run would record it (Demo's own address and tenant are the app's, not these). */
export function settingsRowSource(settings: IdentitySettings): RowSource {
  if (settings.environment === 'demo') return { environment: 'demo' }
  const address = normalizeBaseUrl(settings.baseUrls[settings.environment])
  return {
    environment: settings.environment,
    ...(address === '' ? {} : { serviceAddress: address }),
    ...(settings.tenantId === '' ? {} : { tenantId: settings.tenantId }),
  }
}

/** The confirmation's title, naming where the saved employees came from: "…came from Demo (sample data)". */
export function identityChangeTitle(source: RowSource): string {
  return `These saved employees came from ${rowSourceLabel(source)}`
}
