import { resolve } from 'node:path'
import type { AccessTokenSource } from '../core/api/access-token-source'
import type { FetchLike } from '../core/api/fetch-like'
import { openTokenFileSession } from '../core/auth/token-file'
import { TokenManager } from '../core/auth/token-manager'
import { systemClock } from '../core/clock'
import { RosterDeskError } from '../core/errors'
import type { Logger } from '../core/log/logger'
import { MemorySecretStore } from '../core/secrets/secret-store'
import { DEFAULT_SETTINGS } from '../core/settings/settings-defaults'
import { isHeaderValueCarried } from '../../shared/header-value'
import { normalizeBaseUrl, normalizeScopes, type SyncLimitSetting } from '../../shared/settings-rules'
import { serviceAddressSchema, settingsSchema } from '../../shared/settings-schema'
import { requiredOption, stringOption, UsageError, type ParsedValues } from './cache-command-args'
import { appFolders, readCliProfile, refuseOtherSource, type CliProfile } from './profile-flag'
import { settingFlag } from './setting-flags'
import type { PolicyInForce } from '../core/policy/policy-in-force'
import type { PolicyProfile } from '../core/policy/policy-schema'
import { cliPolicyRules, policyProfileFor, policySecretFor, refuseLockedFlags } from './policy-flags'

/**
 * The flags that say which service a command talks to, as `sync` and `check` read them: `--profile NAME
 * [--data-dir DIR]` fills in what the app's settings of that profile say, and `--base-url`, `--client-id`,
 * `--redirect-uri`, `--tenant`, `--token-file` (given as well) win. Each value is checked by its setting's rule.
 */
export const SERVICE_OPTIONS = {
  profile: { type: 'string' },
  'data-dir': { type: 'string' },
  'base-url': { type: 'string' },
  'client-id': { type: 'string' },
  'redirect-uri': { type: 'string' },
  tenant: { type: 'string' },
  'token-file': { type: 'string' },
} as const

export interface ServiceFlags {
  /** The profile named by --profile, when one was. */
  readonly profile: CliProfile | undefined
  /**
   * The machine policy's profile for this command (--profile's, else the one for --base-url's address): what it
   * sets fills in what the flags and the app's profile leave out, as the app's settings have it.
   */
  readonly policyProfile: PolicyProfile | undefined
  /**
   * The client secret the machine policy gives this service's profile, when `baseUrl` is its address
   * (`policySecretFor`); undefined: none, and
   * ROSTERDESK_CLIENT_SECRET is used. A secret: never printed or logged.
   */
  readonly clientSecret: string | undefined
  readonly baseUrl: string
  /** '' when not required and not given. */
  readonly clientId: string
  readonly redirectUri: string
  readonly tenant: string | undefined
  readonly tokenFile: string | undefined
}

/**
 * Reads the service flags. `required` (the sync's case) makes --client-id and --redirect-uri required when no
 * profile gives them; `check` may run with a base URL alone. Throws UsageError naming the flag.
 */
export function parseServiceFlags(
  values: ParsedValues,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  options: {
    readonly command: string
    readonly required: boolean
    readonly policy?: PolicyInForce | undefined
  },
): ServiceFlags {
  const fields = settingsSchema.shape
  const profileName = stringOption(values, 'profile')
  // The machine policy first: a flag against a value it locks is refused naming the policy, as the app does.
  const rules = cliPolicyRules(options.policy)
  const policyProfile = policyProfileFor(
    rules,
    profileName,
    stringOption(values, 'base-url'),
    stringOption(values, 'tenant'),
  )
  refuseLockedFlags(rules, policyProfile, {
    baseUrl: stringOption(values, 'base-url'),
    clientId: stringOption(values, 'client-id'),
    redirectUri: stringOption(values, 'redirect-uri'),
    tenantId: stringOption(values, 'tenant'),
    scopes: stringOption(values, 'scope'),
    syncScope: stringOption(values, 'sync-scope'),
  })
  const profile =
    profileName === undefined
      ? undefined
      : readCliProfile(
          profileName,
          appFolders(stringOption(values, 'data-dir'), env, platform),
          options.policy,
        )
  if (profile !== undefined) {
    refuseOtherSource(profile, {
      baseUrl: stringOption(values, 'base-url'),
      tenant: stringOption(values, 'tenant'),
    })
  }
  if (
    profile !== undefined &&
    profile.baseUrl === undefined &&
    stringOption(values, 'base-url') === undefined
  ) {
    throw new UsageError(
      `--profile: "${profile.name}" uses Demo, the app's built-in sandbox; give --base-url to ${options.command} a sandbox.`,
    )
  }
  // Without --profile, the policy's profile for this address fills in what the flags leave out.
  const given = profile?.settings
  const policyValue = (field: 'clientId' | 'redirectUri' | 'tenantId'): string | undefined =>
    given?.[field] ?? policyProfile?.[field]
  const option = (name: string, fromProfile: string | undefined, required: boolean): string =>
    stringOption(values, name) ?? fromProfile ?? (required ? requiredOption(values, name) : '')
  // An optional flag left out stays empty; one given is checked like any other.
  const checked = (
    name: string,
    field: 'clientId' | 'redirectUri',
    fromProfile: string | undefined,
  ): string => {
    const raw = option(name, fromProfile, options.required)
    return raw === '' && !options.required ? '' : settingFlag(name, fields[field], raw)
  }
  const tenant = stringOption(values, 'tenant') ?? (policyValue('tenantId') || undefined)
  const baseUrl = settingFlag('base-url', serviceAddressSchema, option('base-url', profile?.baseUrl, true))
  return {
    profile,
    policyProfile,
    clientSecret: policySecretFor(policyProfile, baseUrl),
    baseUrl,
    clientId: checked('client-id', 'clientId', policyValue('clientId')),
    redirectUri: checked('redirect-uri', 'redirectUri', policyValue('redirectUri')),
    tenant: tenant === undefined ? undefined : settingFlag('tenant', fields.tenantId, tenant),
    tokenFile: stringOption(values, 'token-file'),
  }
}

/** One of the sync's limits (--request-timeout, --run-deadline, --max-employees): flag, profile, default. */
export function syncLimitFlag(
  values: ParsedValues,
  profile: CliProfile | undefined,
  flag: string,
  setting: SyncLimitSetting,
): number {
  return settingFlag(
    flag,
    settingsSchema.shape[setting],
    stringOption(values, flag) ?? profile?.settings[setting] ?? DEFAULT_SETTINGS[setting],
  )
}

/** `--scope`: the flag, else the profile's scopes, else the app's default; sent space-separated. */
export function scopeFlag(values: ParsedValues, profile: CliProfile | undefined): string {
  const raw = stringOption(values, 'scope') ?? profile?.settings.scopes ?? DEFAULT_SETTINGS.scopes
  return normalizeScopes(settingFlag('scope', settingsSchema.shape.scopes, raw)) || 'read'
}

/**
 * The tokens for a run: a token file written by `login` (refreshed tokens are written back to it), or an access
 * token (and optional refresh token) from the environment, refreshed in memory only; undefined when neither is
 * given. A token file written for another service is refused.
 */
export async function cliTokenSource(
  flags: ServiceFlags,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  fetch: FetchLike,
): Promise<{ tokens: AccessTokenSource; tenantId: string } | undefined> {
  // The machine policy's secret for this service wins, as in the app (policy-secrets.ts).
  const clientSecret = flags.clientSecret ?? env.ROSTERDESK_CLIENT_SECRET ?? ''
  if (flags.tokenFile !== undefined && flags.tokenFile.trim() !== '') {
    const session = await openTokenFileSession({
      path: resolve(flags.tokenFile),
      clientSecret,
      fetch,
      clock: systemClock,
      logger,
    })
    if (
      normalizeBaseUrl(session.file.baseUrl) !== flags.baseUrl ||
      session.file.clientId !== flags.clientId
    ) {
      throw new RosterDeskError(
        'not-signed-in',
        `The token file was written for ${session.file.baseUrl} (client ${session.file.clientId}), not for this service. Run "login" for it.`,
      )
    }
    return { tokens: session.tokens, tenantId: flags.tenant ?? session.file.tenantId }
  }
  const accessToken = env.ROSTERDESK_ACCESS_TOKEN ?? ''
  if (accessToken === '') return undefined
  const refreshToken = env.ROSTERDESK_REFRESH_TOKEN ?? ''
  for (const [name, token] of [
    ['ROSTERDESK_ACCESS_TOKEN', accessToken],
    ['ROSTERDESK_REFRESH_TOKEN', refreshToken],
  ] as const) {
    if (token !== '' && !isHeaderValueCarried(token))
      throw new RosterDeskError(
        'config',
        `${name} holds characters a request cannot carry (a line break, a control character or one outside visible ASCII). Set it to the token alone.`,
      )
  }
  const manager = new TokenManager({
    fetch,
    clock: systemClock,
    secrets: new MemorySecretStore(),
    logger,
    environment: () => ({ baseUrl: flags.baseUrl, clientId: flags.clientId, redirectUri: flags.redirectUri }),
    clientSecret: async () => clientSecret,
    onSignedOut: () => undefined,
  })
  await manager.store(
    { accessToken, ...(refreshToken === '' ? {} : { refreshToken }) },
    { baseUrl: flags.baseUrl, clientId: flags.clientId },
  )
  return { tokens: manager, tenantId: flags.tenant ?? '' }
}
