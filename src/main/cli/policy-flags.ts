import { normalizeBaseUrl, normalizeScopes } from '../../shared/settings-rules'
import type { NetworkLayer } from '../core/net/network-options'
import { NO_POLICY, type PolicyInForce } from '../core/policy/policy-in-force'
import { PolicyRules } from '../core/policy/policy-rules'
import type { LockableProfileField, PolicyProfile } from '../core/policy/policy-schema'
import { UsageError } from './cache-command-args'

/** The flag that gives each lockable policy field on the command line. */
const FLAG_OF: Readonly<Record<LockableProfileField, string>> = {
  environment: '--environment',
  baseUrl: '--base-url',
  clientId: '--client-id',
  redirectUri: '--redirect-uri',
  tenantId: '--tenant',
  scopes: '--scope',
  syncScope: '--sync-scope',
}

/** The CLI's flags that name what a policy profile may lock, as given (undefined: not given). */
export type LockableFlags = Partial<Record<LockableProfileField, string | undefined>>

/** The machine policy's rules as the CLI applies them (`CliIo.policy`; absent: none). */
export function cliPolicyRules(policy: PolicyInForce | undefined): PolicyRules {
  return new PolicyRules(policy ?? NO_POLICY)
}

/**
 * The policy profile a command is for: the one named by --profile (ignoring case), else the one whose service
 * address the policy sets to --base-url's, so a command without --profile obeys the same locks as the app's
 * profile for that service. When several policy profiles share that address (one service, several tenants),
 * --tenant says which (the one whose tenant it is exactly); a command that leaves it open is refused (UsageError,
 * exit 2) naming the candidates, never given the first one's locks and secret.
 */
export function policyProfileFor(
  rules: PolicyRules,
  profileName: string | undefined,
  baseUrl: string | undefined,
  tenant: string | undefined,
): PolicyProfile | undefined {
  if (profileName !== undefined) return rules.profileFor(profileName)
  if (baseUrl === undefined) return undefined
  const wanted = normalizeBaseUrl(baseUrl)
  const sameAddress = (rules.policy?.profiles ?? []).filter(
    (profile) => profile.baseUrl !== undefined && normalizeBaseUrl(profile.baseUrl) === wanted,
  )
  if (sameAddress.length <= 1) return sameAddress[0]
  const sameTenant =
    tenant === undefined ? [] : sameAddress.filter((profile) => profile.tenantId === tenant.trim())
  if (sameTenant.length === 1) return sameTenant[0]
  const candidates = (sameTenant.length > 1 ? sameTenant : sameAddress)
    .map(
      (profile) =>
        `"${profile.name}"${profile.tenantId === undefined ? '' : ` (tenant ${profile.tenantId})`}`,
    )
    .join(', ')
  throw new UsageError(
    `--base-url: the machine policy (${rules.inForce.source ?? ''}) has several profiles for ${wanted}: ${candidates}. Say which with --profile NAME${sameTenant.length > 1 ? '' : ' or --tenant'}.`,
  )
}

/**
 * The client secret `profile` gives a command that talks to `baseUrl`: only when that is the policy profile's own
 * address (as the app answers it only while the profile's address is the policy's, `PolicyRules.clientSecretFor`),
 * so a command pointed elsewhere never sends it there.
 */
export function policySecretFor(profile: PolicyProfile | undefined, baseUrl: string): string | undefined {
  if (profile?.clientSecret === undefined || profile.baseUrl === undefined) return undefined
  return normalizeBaseUrl(baseUrl) === normalizeBaseUrl(profile.baseUrl) ? profile.clientSecret : undefined
}

/**
 * Refuses (UsageError, exit 2) a flag that contradicts a value `profile` locks, naming the policy's source: the
 * app's `settings:update` refuses the same change (PolicyRules.checkWrite), in the same words.
 */
export function refuseLockedFlags(
  rules: PolicyRules,
  profile: PolicyProfile | undefined,
  flags: LockableFlags,
): void {
  if (profile === undefined) return
  const contradicted = (profile.locked ?? []).filter((field) => {
    const given = flags[field]
    const locked = profile[field]
    return given !== undefined && locked !== undefined && !sameValue(field, given, locked)
  })
  if (contradicted.length === 0) return
  const said = contradicted
    .map((field) => `${FLAG_OF[field]} (it is ${lockedText(profile, field)})`)
    .join(', ')
  throw new UsageError(
    `${said}: your organisation sets ${contradicted.length === 1 ? 'this' : 'these'} for "${profile.name}" in the machine policy (${rules.inForce.source ?? ''}), and a command may not change ${contradicted.length === 1 ? 'it' : 'them'}. Leave the flag out, or ask IT.`,
  )
}

/**
 * Whether a flag gives the locked value, as the app compares them (`PolicyRules.checkWrite`): exactly, the flag's
 * surrounding spaces aside (the setting's own rule trims them); only the address and the scopes go through their
 * normalisers. A client ID, tenant or redirect URI in another case is another value.
 */
function sameValue(field: LockableProfileField, given: string, locked: string): boolean {
  if (field === 'baseUrl') return normalizeBaseUrl(given) === normalizeBaseUrl(locked)
  if (field === 'scopes') return normalizeScopes(given) === normalizeScopes(locked)
  return given.trim() === locked
}

/** A locked value as a refusal may say it: never the secret (not lockable), the address, ids and scopes. */
function lockedText(profile: PolicyProfile, field: LockableProfileField): string {
  return String(profile[field] ?? '')
}

/**
 * The machine policy's network as `resolveNodeNetwork`'s `policy` layer (over the command line, the environment
 * and the profile); --proxy or --ca-file against what it sets is refused (exit 2) naming the policy. A PAC file
 * cannot be used under plain Node: the layer then names no proxy and `note` says so.
 */
export function policyNetworkLayer(
  rules: PolicyRules,
  flags: { readonly proxy: string | undefined; readonly caFile: string | undefined },
): { layer: NetworkLayer | undefined; note: string | undefined } {
  const network = rules.policy?.network
  if (network === undefined) return { layer: undefined, note: undefined }
  const source = rules.inForce.source ?? ''
  if (flags.proxy !== undefined && network.proxyMode !== undefined)
    throw new UsageError(
      `--proxy: your organisation sets the proxy in the machine policy (${source}); a command may not change it. Leave --proxy out.`,
    )
  if (flags.caFile !== undefined && network.extraCertificatesFile !== undefined)
    throw new UsageError(
      `--ca-file: your organisation sets the trusted certificates in the machine policy (${source}); a command may not change them. Leave --ca-file out.`,
    )
  const layer: { proxy?: string; proxyBypass?: string; caFile?: string } = {}
  let note: string | undefined
  if (network.proxyMode === 'fixed' && network.proxyUrl !== undefined) {
    layer.proxy = network.proxyUrl
    layer.proxyBypass = network.proxyBypass ?? ''
  } else if (network.proxyMode === 'none') {
    layer.proxy = 'none'
  } else if (network.proxyMode === 'pac') {
    note = `The machine policy's PAC file (${network.pacUrl ?? ''}) is not supported on the command line: the environment's proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) are used.`
  }
  if (network.extraCertificatesFile !== undefined && network.extraCertificatesFile !== '')
    layer.caFile = network.extraCertificatesFile
  return { layer: Object.keys(layer).length === 0 ? undefined : layer, note }
}
