import { createRequire } from 'node:module'
import type Database from 'better-sqlite3-multiple-ciphers'
import { CacheKey, cipherPragmas } from '../src/main/core/sqlite/cache-key'

/**
 * Loaded with `--import` into the cipher bench's children (cipher-bench.ts) before anything opens SQLite: every file
 * connection the unchanged core opens gets the cipher named by ROSTERDESK_BENCH_CIPHER, so the real writer, reader,
 * query engine and export read are measured encrypted without the bench reaching into production code. `chacha20`
 * is production's own pragmas (cache-key.ts `cipherPragmas`); `sqlcipher` is SQLCipher 4's scheme (AES-256-CBC,
 * HMAC-SHA512 per page) with the same one KDF iteration; `plain` changes nothing.
 */

/**
 * snapshot-writer.ts's SNAPSHOT_PAGE_SIZE (a reader told another fails at once: the read phase would stop); importing it here would load
 * the driver before it is replaced below.
 */
const BENCH_SNAPSHOT_PAGE_SIZE = 8192

const cipher = process.env['ROSTERDESK_BENCH_CIPHER'] ?? 'plain'
const hex = process.env['ROSTERDESK_BENCH_KEY'] ?? ''

/**
 * SQLCipher encrypts the whole first page, the page size in its header included, so its reader must be told each
 * file's page size: the snapshot writer's for snapshots, SQLite's default for the others.
 */
function pragmasFor(name: string, filename: string): readonly string[] {
  if (name === 'plain') return []
  const key = CacheKey.fromHex(hex)
  if (name === 'chacha20') return cipherPragmas(key)
  if (name !== 'sqlcipher') throw new Error(`cipher bench: unknown cipher ${name}`)
  const pageSize = filename.includes('.snapshots') ? BENCH_SNAPSHOT_PAGE_SIZE : 4096
  return [
    `cipher='sqlcipher'`,
    'legacy=4',
    `legacy_page_size=${pageSize}`,
    'kdf_iter=1',
    `hexkey='${key.revealHex()}'`,
  ]
}

if (cipher !== 'plain') {
  pragmasFor(cipher, '')
  const load = createRequire(__filename)
  const id = load.resolve('better-sqlite3-multiple-ciphers')
  const Original = load(id) as typeof Database
  class Keyed extends Original {
    constructor(filename: string, options?: Database.Options) {
      super(filename, options)
      if (filename !== '' && filename !== ':memory:') {
        for (const pragma of pragmasFor(cipher, filename)) this.pragma(pragma)
      }
    }
  }
  const cached = load.cache[id]
  if (cached === undefined) throw new Error('cipher bench: the SQLite driver is not in the require cache')
  cached.exports = Keyed
}
