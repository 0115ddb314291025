import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { writeFileDurably } from '../durable-fs'
import { RosterDeskError } from '../errors'
import type { Logger } from '../log/logger'
import { MemorySecretStore, isStoredSecretKey, type SecretVault, type StoredSecretKey } from './secret-store'

/** The part of Electron's `safeStorage` (the async API of Electron 45) the store uses; tests pass a fake. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>
  encryptStringAsync(plainText: string): Promise<Buffer>
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>
  /** Linux only; 'basic_text' means a hard-coded key, i.e. no real protection. */
  getSelectedStorageBackend?(): string
}

export interface EncryptedFileSecretStoreOptions {
  safeStorage: SafeStorageLike
  /** The JSON file of ciphertexts, normally `<userData>/secrets.json`. */
  filePath: string
  /** `process.platform`; the Linux backend check applies only there. */
  platform: NodeJS.Platform
  logger?: Logger
}

const secretFileSchema = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), z.string()),
})
type SecretFile = z.infer<typeof secretFileSchema>

/**
 * Opens the secret store the app should use. When the OS offers real encryption, secrets are encrypted with it
 * and persisted; otherwise (no keychain, or Linux's 'basic_text' backend, whose key is a constant in Chromium's
 * source) nothing is written and `persistent` is false, so the UI can say secrets last only until the app quits.
 * Must be called after Electron's `ready`: before it the Linux backend reads 'unknown'.
 */
export async function openSecretStore(options: EncryptedFileSecretStoreOptions): Promise<SecretVault> {
  const available = await options.safeStorage.isAsyncEncryptionAvailable()
  const backend = options.platform === 'linux' ? options.safeStorage.getSelectedStorageBackend?.() : undefined
  const weakLinuxBackend = options.platform === 'linux' && (backend === 'basic_text' || backend === 'unknown')
  if (!available || weakLinuxBackend) {
    options.logger?.warn(
      `Secrets: the operating system offers no secure store (${available ? `backend ${String(backend)}` : 'encryption unavailable'}); keeping them in memory only`,
    )
    return new MemorySecretStore()
  }
  return new EncryptedFileSecretStore(options)
}

/**
 * Secrets encrypted by the OS (Keychain, DPAPI, libsecret/kwallet) and stored as base64 ciphertexts in one JSON
 * file with mode 0600, rewritten atomically. Plain values are kept in memory after the first read so the OS is
 * asked once per secret per session.
 */
export class EncryptedFileSecretStore implements SecretVault {
  readonly persistent = true
  readonly #options: EncryptedFileSecretStoreOptions
  readonly #plain = new Map<StoredSecretKey, string>()
  #file: SecretFile | undefined
  /** Writes go one at a time, in order, so a slow write can never land over a newer one. */
  #queue: Promise<void> = Promise.resolve()

  constructor(options: EncryptedFileSecretStoreOptions) {
    this.#options = options
  }

  async get(key: StoredSecretKey): Promise<string | undefined> {
    return this.#serial(async () => {
      const cached = this.#plain.get(key)
      if (cached !== undefined) return cached
      const file = await this.#load()
      const stored = file.entries[key]
      if (stored === undefined) return undefined
      let decrypted: { result: string; shouldReEncrypt: boolean }
      try {
        decrypted = await this.#options.safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'))
      } catch (error) {
        // The OS key changed (new profile, restored backup): the ciphertext is useless, so forget it.
        this.#options.logger?.warn(`Secrets: could not decrypt the stored ${key}; it was discarded`, error)
        file.entries = withoutKey(file.entries, key)
        await this.#save(file)
        return undefined
      }
      if (decrypted.shouldReEncrypt) {
        file.entries[key] = await this.#encrypt(decrypted.result)
        await this.#save(file)
      }
      this.#plain.set(key, decrypted.result)
      return decrypted.result
    })
  }

  async set(key: StoredSecretKey, value: string): Promise<void> {
    return this.#serial(async () => {
      const file = await this.#load()
      file.entries[key] = await this.#encrypt(value)
      await this.#save(file)
      this.#plain.set(key, value)
    })
  }

  async delete(key: StoredSecretKey): Promise<void> {
    return this.#serial(async () => {
      this.#plain.delete(key)
      const file = await this.#load()
      if (file.entries[key] === undefined) return
      file.entries = withoutKey(file.entries, key)
      await this.#save(file)
    })
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task)
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    )
    return run
  }

  async #encrypt(value: string): Promise<string> {
    try {
      return (await this.#options.safeStorage.encryptStringAsync(value)).toString('base64')
    } catch (error) {
      throw new RosterDeskError(
        'storage',
        'RosterDesk could not encrypt a secret with the system keychain.',
        {
          detail: 'encryptStringAsync failed',
          cause: error,
        },
      )
    }
  }

  async #load(): Promise<SecretFile> {
    if (this.#file) return this.#file
    let text: string
    try {
      text = await readFile(this.#options.filePath, 'utf8')
    } catch (error) {
      if (isNotFound(error)) return (this.#file = { version: 1, entries: {} })
      throw new RosterDeskError('storage', 'RosterDesk could not read its saved sign-in details.', {
        detail: 'secret file unreadable',
        cause: error,
      })
    }
    const parsed = secretFileSchema.safeParse(safeJsonParse(text))
    if (!parsed.success) {
      this.#options.logger?.warn('Secrets: the secret file is damaged; starting with no stored secrets')
      return (this.#file = { version: 1, entries: {} })
    }
    const entries: Record<string, string> = {}
    for (const [key, value] of Object.entries(parsed.data.entries)) {
      if (isStoredSecretKey(key)) entries[key] = value
    }
    return (this.#file = { version: 1, entries })
  }

  async #save(file: SecretFile): Promise<void> {
    try {
      await writeFileDurably(
        this.#options.filePath,
        `${JSON.stringify(file, null, 2)}\n`,
        0o600,
        'Saving the sign-in details',
      )
    } catch (error) {
      if (error instanceof RosterDeskError) throw error
      throw new RosterDeskError(
        'storage',
        'RosterDesk could not save its sign-in details. Check the disk is not full.',
        {
          detail: 'secret file write failed',
          cause: error,
        },
      )
    }
  }
}

function withoutKey(entries: Record<string, string>, key: string): Record<string, string> {
  return Object.fromEntries(Object.entries(entries).filter(([name]) => name !== key))
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT'
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
