import { z } from 'zod'
import { FIRST_PROFILE_ID, normalizeBaseUrl } from '../../../shared/settings-rules'
import type { Settings } from '../../../shared/settings-schema'
import type { Logger } from '../log/logger'
import { profileSecretKey, type SecretVault, type StoredSecretKey } from './secret-store'

/** The service and client a stored client secret was entered for: it is sent to no other (issue 31, point 2). */
export interface SecretPair {
  /** The service address as `normalizeBaseUrl` writes it; `demo` in Demo, which never uses a stored secret. */
  readonly baseUrl: string
  readonly clientId: string
}

/** A profile as the binding reads it: its id and its settings in force (the machine policy applied). */
export interface BindingProfile {
  readonly id: string
  readonly settings: Pick<Settings, 'environment' | 'baseUrls' | 'clientId'>
}

/** Demo signs in with the sandbox's built-in secret: a secret entered there is bound to Demo and never sent. */
const DEMO_PAIR: SecretPair = { baseUrl: 'demo', clientId: 'demo' }

const pairSchema = z.strictObject({ baseUrl: z.string(), clientId: z.string() })

/** The pair a profile's settings point at now: its environment's address (normalised) and its client ID. */
export function secretPairOf(settings: BindingProfile['settings']): SecretPair {
  if (settings.environment === 'demo') return DEMO_PAIR
  return { baseUrl: normalizeBaseUrl(settings.baseUrls[settings.environment]), clientId: settings.clientId }
}

function samePair(a: SecretPair, b: SecretPair): boolean {
  return a.baseUrl === b.baseUrl && a.clientId === b.clientId
}

function readPair(text: string | undefined): SecretPair | undefined {
  if (text === undefined) return undefined
  try {
    return pairSchema.parse(JSON.parse(text))
  } catch {
    // Unreadable: matches no pair, so the secret is never sent; entering it again writes a good binding.
    return { baseUrl: '', clientId: '' }
  }
}

/**
 * The vault with each profile's client secret bound to `{service address, client ID}` (issue 31, point 2): the
 * secret is stored with the pair the profile pointed at when it was entered (`clientSecretBinding`), and read only
 * while the profile still points there. Once the address (of the environment in force) or the client ID changes,
 * the profile reads no secret (`hasClientSecret` false, sign-in asks for it, as a policy secret already does), so
 * no settings change, a compromised window's included, can send it to another service.
 *
 * The secret is kept bound to its pair, not discarded: back at that address and client ID it is used again
 * (switching Staging ↔ Production), and a window that changes the address cannot destroy it. One secret per
 * profile: entering a secret for the new pair replaces it. The secret is written before its binding, so a crash
 * between the two leaves a secret bound to the old pair (not used at the new one) or, for a first secret, unbound.
 *
 * Migration: a secret stored before the binding existed has none. It is bound to the profile's current pair by
 * `bindUnboundSecrets` at the app core's start, before any request from the window is served, and failing that at
 * its first read: a secret entered for one service stays that service's even if the window's first request moves
 * the address.
 */
export function boundClientSecrets(
  vault: SecretVault,
  profiles: { list(): readonly BindingProfile[] },
  logger?: Logger,
): SecretVault {
  const ownerOf = (key: StoredSecretKey): BindingProfile | undefined =>
    profiles.list().find((profile) => profileSecretKey(profile.id, 'clientSecret', FIRST_PROFILE_ID) === key)
  return {
    persistent: vault.persistent,
    get: async (key) => {
      if (!isClientSecretKey(key)) return vault.get(key)
      const owner = ownerOf(key)
      if (owner === undefined) return undefined
      const secret = await vault.get(key)
      if (secret === undefined) return undefined
      const current = secretPairOf(owner.settings)
      const bindingKey = profileSecretKey(owner.id, 'clientSecretBinding', FIRST_PROFILE_ID)
      const bound = readPair(await vault.get(bindingKey))
      if (bound === undefined) {
        await vault.set(bindingKey, JSON.stringify(current))
        logger?.info(
          `Secrets: the client secret of profile ${owner.id} is now bound to its service and client ID`,
        )
        return secret
      }
      return samePair(bound, current) ? secret : undefined
    },
    set: async (key, value) => {
      await vault.set(key, value)
      if (!isClientSecretKey(key)) return
      const owner = ownerOf(key)
      if (owner === undefined) return
      const bindingKey = profileSecretKey(owner.id, 'clientSecretBinding', FIRST_PROFILE_ID)
      await vault.set(bindingKey, JSON.stringify(secretPairOf(owner.settings)))
    },
    delete: async (key) => {
      await vault.delete(key)
      const owner = isClientSecretKey(key) ? ownerOf(key) : undefined
      if (owner !== undefined)
        await vault.delete(profileSecretKey(owner.id, 'clientSecretBinding', FIRST_PROFILE_ID))
    },
  }
}

function isClientSecretKey(key: StoredSecretKey): boolean {
  return key === 'clientSecret' || key.endsWith(':clientSecret')
}

/**
 * Binds every profile's client secret stored before the binding existed to that profile's current pair (the
 * migration `boundClientSecrets` describes); run once at start, before the window is served. Answers how many.
 */
export async function bindUnboundSecrets(
  vault: SecretVault,
  profiles: { list(): readonly BindingProfile[] },
  logger?: Logger,
): Promise<number> {
  let bound = 0
  for (const profile of profiles.list()) {
    const key = profileSecretKey(profile.id, 'clientSecret', FIRST_PROFILE_ID)
    const bindingKey = profileSecretKey(profile.id, 'clientSecretBinding', FIRST_PROFILE_ID)
    if ((await vault.get(key)) === undefined || (await vault.get(bindingKey)) !== undefined) continue
    await vault.set(bindingKey, JSON.stringify(secretPairOf(profile.settings)))
    bound++
  }
  if (bound > 0)
    logger?.info(`Secrets: ${bound} stored client secret(s) bound to their profile's service and client ID`)
  return bound
}
