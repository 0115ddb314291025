/**
 * Where the client secret and tokens live. The Electron adapter encrypts with safeStorage; when the OS offers no
 * secure store it keeps them in memory only and says so (`persistent: false`). Core never sees how.
 */
export const SECRET_KEYS = [
  'clientSecret',
  /** Which service address and client ID the client secret was entered for (JSON): bound-client-secret.ts. */
  'clientSecretBinding',
  'accessToken',
  'refreshToken',
  'accessTokenExpiresAt',
  /** Which service and client the tokens were issued by (JSON), so they are never sent to another address. */
  'tokenContext',
] as const
export type SecretKey = (typeof SECRET_KEYS)[number]

/**
 * Secrets only main reads, never a profile's and never asked for by the core process: the proxy sign-ins
 * remembered per proxy host (JSON), which the core never sees (issue 22; remote-app-core.ts refuses them).
 */
export const MAIN_SECRET_KEYS = ['proxyCredentials'] as const
export type MainSecretKey = (typeof MAIN_SECRET_KEYS)[number]

/**
 * The user's own secrets, one per user and not per profile, which the core process may ask for and the renderer
 * never sees (no channel names them): the key of every saved-employee cache file (app-cache-key.ts).
 */
export const USER_SECRET_KEYS = ['cacheKey'] as const
export type UserSecretKey = (typeof USER_SECRET_KEYS)[number]

/**
 * A key as stored: the first profile's secrets keep the bare names a single-environment release wrote (so an
 * upgrade moves and decrypts nothing); every other profile's are namespaced `profile:<id>:<name>`.
 */
export type StoredSecretKey = SecretKey | `profile:${string}:${SecretKey}` | MainSecretKey | UserSecretKey

const STORED_KEY = new RegExp(`^(?:profile:[a-z0-9-]{1,64}:)?(?:${SECRET_KEYS.join('|')})$`)

export function isStoredSecretKey(name: string): name is StoredSecretKey {
  return (
    STORED_KEY.test(name) || isMainSecretKey(name) || (USER_SECRET_KEYS as readonly string[]).includes(name)
  )
}

export function isMainSecretKey(name: string): name is MainSecretKey {
  return (MAIN_SECRET_KEYS as readonly string[]).includes(name)
}

/** One profile's view of its secrets: what auth and the settings handlers use. */
export interface SecretStore {
  /** False when secrets survive only until the app quits (no OS keychain/DPAPI/libsecret). */
  readonly persistent: boolean
  get(key: SecretKey): Promise<string | undefined>
  set(key: SecretKey, value: string): Promise<void>
  delete(key: SecretKey): Promise<void>
}

/** Every profile's secrets in one place (the OS-encrypted file in the app); `profileSecrets` scopes it. */
export interface SecretVault {
  readonly persistent: boolean
  get(key: StoredSecretKey): Promise<string | undefined>
  set(key: StoredSecretKey, value: string): Promise<void>
  delete(key: StoredSecretKey): Promise<void>
}

export class MemorySecretStore implements SecretVault {
  readonly persistent: boolean = false
  readonly #values = new Map<StoredSecretKey, string>()

  async get(key: StoredSecretKey): Promise<string | undefined> {
    return this.#values.get(key)
  }

  async set(key: StoredSecretKey, value: string): Promise<void> {
    this.#values.set(key, value)
  }

  async delete(key: StoredSecretKey): Promise<void> {
    this.#values.delete(key)
  }
}

/** The stored name of one profile's secret (see StoredSecretKey). */
export function profileSecretKey(profileId: string, key: SecretKey, firstProfileId: string): StoredSecretKey {
  return profileId === firstProfileId ? key : `profile:${profileId}:${key}`
}

/** One profile's secrets within the vault. */
export function profileSecrets(vault: SecretVault, profileId: string, firstProfileId: string): SecretStore {
  const name = (key: SecretKey) => profileSecretKey(profileId, key, firstProfileId)
  return {
    persistent: vault.persistent,
    get: (key) => vault.get(name(key)),
    set: (key, value) => vault.set(name(key), value),
    delete: (key) => vault.delete(name(key)),
  }
}

/** Forgets every secret of a deleted profile. */
export async function deleteProfileSecrets(
  vault: SecretVault,
  profileId: string,
  firstProfileId: string,
): Promise<void> {
  for (const key of SECRET_KEYS) await vault.delete(profileSecretKey(profileId, key, firstProfileId))
}
