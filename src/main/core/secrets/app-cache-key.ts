import { RosterDeskError } from '../errors'
import type { Logger } from '../log/logger'
import { CacheKey } from '../sqlite/cache-key'
import { cacheKeyFilePath, readCacheKeyFile, readOrCreateCacheKeyFile } from './cache-key-file'
import type { SecretVault } from './secret-store'

/** Where the app keeps the user's cache key: the OS keychain (the vault), an owner-only file, or memory only. */
export type CacheKeyKept = 'keychain' | 'file' | 'memory'

/** The app's cache key and where it is kept. */
export interface AppCacheKey {
  readonly key: CacheKey
  readonly kept: CacheKeyKept
}

export interface AppCacheKeyDeps {
  /** Every profile's secrets (safeStorage in the app); `persistent: false` when the OS offers no keychain. */
  readonly vault: SecretVault
  /** The user's data folder, where the key file is (cache-key-file.ts). */
  readonly dataDir: string
  /** The machine policy's `personalData.cacheKeyFile`: without a keychain, keep the key in the key file. */
  readonly keyFileAllowed: boolean
  readonly logger: Pick<Logger, 'info' | 'warn'>
  readonly platform?: NodeJS.Platform
}

/**
 * The user's cache key as the app's core takes it at start (issue 34), once, before any cache opens:
 * - with a keychain (the vault is persistent): the key stored as the user's `cacheKey` secret, wrapped by
 *   safeStorage's async API in main. None yet (a first start, or one the vault could not unwrap and discarded: a
 *   new keychain, another computer): the key file's when there is one (the CLI made it for the same caches), else
 *   a new one (CacheKey.create); either is stored in the vault. A cache made with a lost key then fails to open
 *   and is set aside (cache-database.ts), never read in clear;
 * - without one (Linux's basic_text): the key file's, made when missing, when the machine policy allows it; else
 *   a new key in memory only, and the caches of earlier starts cannot be read (`kept: 'memory'`).
 */
export async function appCacheKey(deps: AppCacheKeyDeps): Promise<AppCacheKey> {
  const path = cacheKeyFilePath(deps.dataDir)
  if (!deps.vault.persistent) {
    if (deps.keyFileAllowed) return { key: readOrCreateCacheKeyFile(path, deps.platform).key, kept: 'file' }
    return { key: CacheKey.create(), kept: 'memory' }
  }
  const stored = await deps.vault.get('cacheKey')
  if (stored !== undefined) {
    try {
      return { key: CacheKey.fromHex(stored), kept: 'keychain' }
    } catch {
      deps.logger.warn('Cache key: the stored key is not a key; making a new one')
    }
  }
  let key = fileKey(path, deps)
  if (key === undefined) {
    key = CacheKey.create()
    deps.logger.info('Cache key: made a new key for the saved employees, kept in the keychain')
  } else {
    deps.logger.info(`Cache key: adopted the key file ${path}, kept in the keychain too`)
  }
  await deps.vault.set('cacheKey', key.revealHex())
  return { key, kept: 'keychain' }
}

/** The key file's key, or undefined when there is none or it is refused (said in the log). */
function fileKey(path: string, deps: AppCacheKeyDeps): CacheKey | undefined {
  try {
    return readCacheKeyFile(path, deps.platform)
  } catch (error) {
    deps.logger.warn(
      `Cache key: not adopting ${path}: ${error instanceof RosterDeskError ? error.message : 'unreadable'}`,
    )
    return undefined
  }
}
