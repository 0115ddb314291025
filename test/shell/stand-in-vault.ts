import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CacheKey } from '../../src/main/core/sqlite/cache-key'

/**
 * The cache key an app run against the stand-in keeps in its vault (`<userData>/secrets.json`, the user's
 * `cacheKey` secret), unwrapped as the stand-in's safeStorage wraps it (`v11:<keychain>:<text>`), so a test opens
 * the caches that app wrote.
 */

/** safe-storage-secret-store.ts's SECRET_FILE_NAME (that module loads Electron, which a test process has not). */
const SECRET_FILE_NAME = 'secrets.json'
export function standInVaultCacheKey(userData: string, keychain = 'keychain-1'): CacheKey {
  const file = JSON.parse(readFileSync(join(userData, SECRET_FILE_NAME), 'utf8')) as {
    entries: Record<string, string>
  }
  const wrapped = Buffer.from(file.entries['cacheKey'] ?? '', 'base64').toString('utf8')
  const prefix = `v11:${keychain}:`
  if (!wrapped.startsWith(prefix)) throw new Error('the vault holds no cache key of that keychain')
  return CacheKey.fromHex(wrapped.slice(prefix.length))
}
