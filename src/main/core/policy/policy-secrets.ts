import { FIRST_PROFILE_ID } from '../../../shared/settings-rules'
import type { Settings } from '../../../shared/settings-schema'
import { RosterDeskError } from '../errors'
import { profileSecretKey, type SecretVault, type StoredSecretKey } from '../secrets/secret-store'
import type { PolicyRules } from './policy-rules'
import type { MachinePolicy } from './policy-schema'

/**
 * The vault as the app core's profiles see it with the machine policy in force: a profile the policy gives a
 * client secret reads that secret while the profile's address is the policy's (`PolicyRules.clientSecretFor`: its
 * token requests use it, `hasClientSecret` is true) and may not store another then (`settings:set-client-secret`
 * is refused); a profile moved to another service never gets it. The secret stays in main/core: nothing here logs it, and the
 * settings view says only whether one is there.
 */
export function policySecrets(
  vault: SecretVault,
  rules: PolicyRules,
  profiles: {
    list(): ReadonlyArray<{
      readonly id: string
      readonly name: string
      readonly settings: Pick<Settings, 'environment' | 'baseUrls'>
    }>
  },
): SecretVault {
  const policySecretFor = (key: StoredSecretKey): { name: string; secret: string } | undefined => {
    for (const profile of profiles.list()) {
      if (profileSecretKey(profile.id, 'clientSecret', FIRST_PROFILE_ID) !== key) continue
      const secret = rules.clientSecretFor(profile.name, profile.settings)
      return secret === undefined ? undefined : { name: profile.name, secret }
    }
    return undefined
  }
  return {
    persistent: vault.persistent,
    get: async (key) => policySecretFor(key)?.secret ?? (await vault.get(key)),
    set: async (key, value) => {
      const fromPolicy = policySecretFor(key)
      if (fromPolicy !== undefined) {
        throw new RosterDeskError(
          'validation',
          `The client secret of "${fromPolicy.name}" is set by your organisation (machine policy ${rules.inForce.source ?? ''}) and cannot be changed here.`,
        )
      }
      await vault.set(key, value)
    },
    delete: (key) => vault.delete(key),
  }
}

/**
 * The policy as it may be shown (`cli policy --json`, a diagnostics file): every value but each profile's client
 * secret, which becomes `hasClientSecret`.
 */
export function policyWithoutSecrets(policy: MachinePolicy): unknown {
  return {
    ...policy,
    ...(policy.profiles === undefined
      ? {}
      : {
          profiles: policy.profiles.map(({ clientSecret, ...profile }) => ({
            ...profile,
            hasClientSecret: clientSecret !== undefined,
          })),
        }),
  }
}
