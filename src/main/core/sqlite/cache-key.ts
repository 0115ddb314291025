import { randomBytes } from 'node:crypto'
import { RosterDeskError } from '../errors'

/**
 * The key every cache file of one user is encrypted with (issue 34, decision 063): 32 random bytes, made once per
 * user. Where it is kept is the caller's (the app's safeStorage vault, the CLI's owner-only key file); here only
 * what a key is and how a SQLite connection is given it. It never reaches the renderer, a log or a diagnostics file:
 * `toString`/`toJSON` of the wrapper say nothing of the bytes.
 */
export class CacheKey {
  readonly #bytes: Buffer

  private constructor(bytes: Buffer) {
    this.#bytes = Buffer.from(bytes)
  }

  /** A new random key. */
  static create(): CacheKey {
    return new CacheKey(randomBytes(CACHE_KEY_BYTES))
  }

  /** A key from its 64 hexadecimal digits (as kept); anything else is refused with a precise error. */
  static fromHex(hex: string): CacheKey {
    if (!/^[0-9a-f]{64}$/i.test(hex.trim()))
      throw new RosterDeskError('storage', 'The key of the saved employees is not a valid key.', {
        detail: `cache key: expected ${CACHE_KEY_BYTES * 2} hexadecimal digits, got ${hex.trim().length} characters`,
      })
    return new CacheKey(Buffer.from(hex.trim(), 'hex'))
  }

  /** The 64 hexadecimal digits, for the store that keeps the key (and for SQLite's `hexkey`). */
  revealHex(): string {
    return this.#bytes.toString('hex')
  }

  toString(): string {
    return '[cache key]'
  }

  toJSON(): string {
    return '[cache key]'
  }
}

export const CACHE_KEY_BYTES = 32

/**
 * The page cipher of every cache file (SQLite3MultipleCiphers' name), chosen by measurement (bench/RESULTS.md,
 * decision 063). The key is random, so no key stretching: one KDF iteration (the default 64,007 of ChaCha20 costs
 * about 60 ms per connection, and every query worker opens its own).
 */
export const CACHE_CIPHER = 'chacha20'
export const CACHE_KDF_ITERATIONS = 1

/** The pragmas, in order, that make a new connection read and write with `key` (before any other statement). */
export function cipherPragmas(key: CacheKey): readonly string[] {
  return [`cipher='${CACHE_CIPHER}'`, `kdf_iter=${CACHE_KDF_ITERATIONS}`, `hexkey='${key.revealHex()}'`]
}

/**
 * The pragmas, in order, that encrypt a plain file in place with `key` on a connection opened without one (the
 * migration of caches from before issue 34, encrypt-plain-caches.ts, which runs them on a copy only).
 */
export function rekeyPragmas(key: CacheKey): readonly string[] {
  return [`cipher='${CACHE_CIPHER}'`, `kdf_iter=${CACHE_KDF_ITERATIONS}`, `hexrekey='${key.revealHex()}'`]
}
