import { POLICY_LOCKED_LABEL, type PolicyLockedField, type PolicyView } from '../../../shared/policy-view'
import { normalizeBaseUrl, normalizeProfileName } from '../../../shared/settings-rules'
import type { Settings, SettingsField, SettingsFieldErrors } from '../../../shared/settings-schema'
import { RosterDeskError } from '../errors'
import { exportRulesOf, exportRulesView } from './export-rules'
import { NO_POLICY, type PolicyInForce } from './policy-in-force'
import type { LockableProfileField, MachinePolicy, PolicyProfile } from './policy-schema'

type NetworkPolicy = NonNullable<MachinePolicy['network']>
/** The settings fields the policy's `network` sets for every profile. */
export const NETWORK_FIELDS = [
  'proxyMode',
  'proxyUrl',
  'proxyBypass',
  'pacUrl',
  'extraCertificatesFile',
  'clientCertificateSubject',
  'clientCertificateIssuer',
] as const

/** The settings field a lockable policy field fills (`baseUrl` is the address of the profile's environment). */
export function lockedSettingsField(field: LockableProfileField, profile: PolicyProfile): SettingsField {
  if (field === 'baseUrl')
    return profile.environment === 'production' ? 'baseUrls.production' : 'baseUrls.staging'
  return field
}

/**
 * The fields of `profile` the policy locks: those its `locked` lists, and `environment` whenever `baseUrl` is
 * locked, since the address locked is one environment's (`baseUrls.<environment>`) and a clerk who could switch
 * environment could give the other one any address and take the policy's client secret there.
 */
export function lockedProfileFields(profile: PolicyProfile): LockableProfileField[] {
  const locked = profile.locked ?? []
  return locked.includes('baseUrl') && !locked.includes('environment')
    ? [...locked, 'environment']
    : [...locked]
}

/**
 * The machine policy's rules over the settings, in one place (decision 042): which profile a policy profile is
 * (by name, ignoring case), the values it locks and the network it sets, applied to a profile's settings on every
 * read and checked on every write (ProfileStore), and the refusal's words, which the app and the CLI share.
 */
export class PolicyRules {
  constructor(readonly inForce: PolicyInForce = NO_POLICY) {}

  get policy(): MachinePolicy | undefined {
    return this.inForce.policy
  }

  /** The policy's profile named `name` (ignoring case), if any. */
  profileFor(name: string): PolicyProfile | undefined {
    const wanted = normalizeProfileName(name).toLowerCase()
    return this.policy?.profiles?.find((profile) => profile.name.toLowerCase() === wanted)
  }

  /** Whether the profile named `name` is the policy's: it cannot be renamed or deleted. */
  isManaged(name: string): boolean {
    return this.profileFor(name) !== undefined
  }

  /** The policy's network fields in force on every profile. */
  get network(): Partial<Pick<Settings, (typeof NETWORK_FIELDS)[number]>> {
    const network: NetworkPolicy = this.policy?.network ?? {}
    return Object.fromEntries(
      NETWORK_FIELDS.flatMap((key) => (network[key] === undefined ? [] : [[key, network[key]]])),
    )
  }

  /** Whether the policy sets the proxy (its choice then takes `proxySourceInForce`'s `policy` slot). */
  get setsProxy(): boolean {
    return this.policy?.network?.proxyMode !== undefined
  }

  /** The settings fields of profile `name` the policy sets and locks (its locked fields and every network field). */
  lockedFields(name: string): SettingsField[] {
    const profile = this.profileFor(name)
    const fields: SettingsField[] =
      profile === undefined
        ? []
        : lockedProfileFields(profile).map((field) => lockedSettingsField(field, profile))
    return [...new Set([...fields, ...(Object.keys(this.network) as SettingsField[])])]
  }

  /** `settings` of profile `name` with the policy's locked values and network in force: what every read returns. */
  apply(name: string, settings: Settings): Settings {
    const profile = this.profileFor(name)
    const applied: Settings = { ...settings, baseUrls: { ...settings.baseUrls }, ...this.network }
    if (profile !== undefined)
      for (const field of lockedProfileFields(profile)) setValue(applied, profile, field)
    return applied
  }

  /** Profile `name`'s settings at creation: the defaults with every value the policy gives (locked or not). */
  initialSettings(profile: PolicyProfile, defaults: Settings): Settings {
    const settings: Settings = { ...defaults, baseUrls: { ...defaults.baseUrls } }
    const given: LockableProfileField[] = [
      'environment',
      'baseUrl',
      'clientId',
      'redirectUri',
      'tenantId',
      'scopes',
      'syncScope',
    ]
    for (const field of given) setValue(settings, profile, field)
    return this.apply(profile.name, settings)
  }

  /**
   * The policy's client secret for profile `name` whose settings in force are `settings`, only while they point at
   * the policy's service: its environment and that environment's address are the policy profile's. A policy
   * profile without a `baseUrl` names no service, so its secret is never answered; neither is it once the clerk
   * has moved an unlocked address elsewhere (the secret is the policy's service's, never another's).
   */
  clientSecretFor(name: string, settings: Pick<Settings, 'environment' | 'baseUrls'>): string | undefined {
    const profile = this.profileFor(name)
    if (profile?.clientSecret === undefined || !pointsAtPolicyService(profile, settings)) return undefined
    return profile.clientSecret
  }

  /**
   * Refuses `next` for profile `name` when it changes a field the policy locks: a 'validation' error with each such
   * field's fieldError in the organisation's words (`lockedFieldMessage`).
   */
  checkWrite(name: string, next: Settings): void {
    const current = this.apply(name, next)
    const fieldErrors: SettingsFieldErrors = {}
    for (const field of this.lockedFields(name)) {
      if (fieldValue(next, field) !== fieldValue(current, field))
        fieldErrors[field] = lockedFieldMessage(this.inForce.source)
    }
    const fields = Object.keys(fieldErrors)
    if (fields.length === 0) return
    throw new RosterDeskError(
      'validation',
      `${fields.join(', ')}: ${lockedFieldMessage(this.inForce.source)}`,
      {
        fieldErrors: fieldErrors as Record<string, string>,
      },
    )
  }

  /**
   * What the renderer may see for a profile (its name, its settings in force): never a value, never the
   * secret (only `clientSecret` among the locked fields while the policy's secret is in force), the export rules, and `notices`, what the policy's rules did at
   * this start (personal-data.ts), told once.
   */
  view(
    {
      name,
      settings,
    }: { readonly name: string; readonly settings: Pick<Settings, 'environment' | 'baseUrls'> },
    notices: readonly string[] = [],
  ): PolicyView {
    // The secret is the organisation's only while the profile points at the policy's service (clientSecretFor);
    // moved elsewhere, the clerk may store the other service's own.
    const secret: PolicyLockedField[] =
      this.clientSecretFor(name, settings) === undefined ? [] : ['clientSecret']
    return {
      source: this.inForce.source,
      lockedFields: [...this.lockedFields(name), ...secret],
      managedProfile: this.isManaged(name),
      problem: this.inForce.problem?.message,
      exports: exportRulesView(exportRulesOf(this.inForce)),
      notices: [...notices],
      ...(this.inForce.policy?.personalData?.clearOnSignOut === true ? { clearsOnSignOut: true } : {}),
      ...(this.inForce.policy?.personalData?.maskSensitiveColumns === true
        ? { maskSensitiveColumns: true }
        : {}),
    }
  }
}

/** No policy at all (a core without one: tests, benchmarks). */
export const NO_POLICY_RULES = new PolicyRules(NO_POLICY)

/** The words of a refusal of a locked value, for a field beside the form and the CLI alike. */
export function lockedFieldMessage(source: string | undefined): string {
  return `${POLICY_LOCKED_LABEL} (machine policy ${source ?? ''}): it cannot be changed here.`
}

/** A managed profile's refusal to be renamed or deleted. */
export function managedProfileError(
  name: string,
  what: 'renamed' | 'deleted',
  source: string | undefined,
): RosterDeskError {
  return new RosterDeskError(
    'validation',
    `"${name}" is set by your organisation (machine policy ${source ?? ''}) and cannot be ${what}.`,
  )
}

/** Whether `settings` are for `profile`'s service: its environment, and that environment's address, the policy's. */
export function pointsAtPolicyService(
  profile: PolicyProfile,
  settings: Pick<Settings, 'environment' | 'baseUrls'>,
): boolean {
  if (profile.baseUrl === undefined || settings.environment !== profile.environment) return false
  const address =
    settings.environment === 'production' ? settings.baseUrls.production : settings.baseUrls.staging
  return normalizeBaseUrl(address) === normalizeBaseUrl(profile.baseUrl)
}

function setValue(settings: Settings, profile: PolicyProfile, field: LockableProfileField): void {
  switch (field) {
    case 'baseUrl':
      if (profile.baseUrl !== undefined)
        settings.baseUrls[profile.environment === 'production' ? 'production' : 'staging'] = normalizeBaseUrl(
          profile.baseUrl,
        )
      return
    case 'environment':
      if (profile.environment !== undefined) settings.environment = profile.environment
      return
    case 'syncScope':
      if (profile.syncScope !== undefined) settings.syncScope = profile.syncScope
      return
    default:
      if (profile[field] !== undefined) settings[field] = profile[field]
  }
}

function fieldValue(settings: Settings, field: SettingsField): unknown {
  if (field === 'baseUrls.staging') return settings.baseUrls.staging
  if (field === 'baseUrls.production') return settings.baseUrls.production
  const value = settings[field]
  return Array.isArray(value) ? value.join('\n') : value
}
