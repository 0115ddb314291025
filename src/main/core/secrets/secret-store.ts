/**
 * Where the client secret and tokens live. The Electron adapter encrypts with safeStorage; when the OS offers no
 * secure store it keeps them in memory only and says so (`persistent: false`). Core never sees how.
 */
export const SECRET_KEYS = [
  'clientSecret',
  'accessToken',
  'refreshToken',
  'accessTokenExpiresAt',
  /** Which service and client the tokens were issued by (JSON), so they are never sent to another address. */
  'tokenContext',
] as const
export type SecretKey = (typeof SECRET_KEYS)[number]

export interface SecretStore {
  /** False when secrets survive only until the app quits (no OS keychain/DPAPI/libsecret). */
  readonly persistent: boolean
  get(key: SecretKey): Promise<string | undefined>
  set(key: SecretKey, value: string): Promise<void>
  delete(key: SecretKey): Promise<void>
}

export class MemorySecretStore implements SecretStore {
  readonly persistent = false
  readonly #values = new Map<SecretKey, string>()

  async get(key: SecretKey): Promise<string | undefined> {
    return this.#values.get(key)
  }

  async set(key: SecretKey, value: string): Promise<void> {
    this.#values.set(key, value)
  }

  async delete(key: SecretKey): Promise<void> {
    this.#values.delete(key)
  }
}
