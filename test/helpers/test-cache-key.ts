import Database from 'better-sqlite3-multiple-ciphers'
import { CacheKey, cipherPragmas } from '../../src/main/core/sqlite/cache-key'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cacheKeyFilePath } from '../../src/main/core/secrets/cache-key-file'

/**
 * The cache key of the tests' caches: in-process caches, the in-process CLI commands (run-cli.ts), and the CLI
 * processes, whose default data folder (cliTestConfigHome) holds it as its key file. Fixed, so a test can open
 * what another process wrote; a real user's is random (CacheKey.create).
 */
export const TEST_CACHE_KEY = CacheKey.fromHex('7e57ca5e'.repeat(8))

/**
 * A better-sqlite3 connection to a cache file written with `key` (the tests' by default), given the key as SQLite
 * is given it (cipherPragmas) and nothing else of RosterDesk's: the raw readers' way into an encrypted file.
 */
export function rawDatabase(
  path: string,
  options: Database.Options = {},
  key: CacheKey = TEST_CACHE_KEY,
): Database.Database {
  const db = new Database(path, options)
  try {
    for (const pragma of cipherPragmas(key)) db.pragma(pragma)
  } catch (error) {
    db.close()
    throw error
  }
  return db
}

/**
 * Encrypts, in place, every SQLite file of a cache folder an older release wrote in clear (a fixture copied into a
 * test's folder) with `key`, as SQLite3MultipleCiphers re-keys a plain database: what a cache of that release is
 * once this version has encrypted it. Not the app's migration (core/cache's), a fixture's preparation.
 */
export function encryptFixtureCopy(folder: string, key: CacheKey = TEST_CACHE_KEY): void {
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.sqlite')) continue
    const db = new Database(join(entry.parentPath, entry.name))
    try {
      db.pragma('journal_mode = DELETE')
      for (const pragma of cipherPragmas(key)) {
        db.pragma(pragma.startsWith('hexkey=') ? pragma.replace('hexkey=', 'hexrekey=') : pragma)
      }
    } finally {
      db.close()
    }
  }
}

/** Writes the tests' key as the key file of the data folder `dataDir` (made 0700 if missing), as the CLI reads it. */
export function writeTestKeyFile(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  writeFileSync(cacheKeyFilePath(dataDir), `${TEST_CACHE_KEY.revealHex()}\n`, { mode: 0o600 })
}
