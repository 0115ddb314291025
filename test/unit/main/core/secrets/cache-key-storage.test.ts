import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { appCacheKey } from '../../../../../src/main/core/secrets/app-cache-key'
import {
  cacheKeyFilePath,
  readCacheKeyFile,
  readOrCreateCacheKeyFile,
} from '../../../../../src/main/core/secrets/cache-key-file'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { CacheKey } from '../../../../../src/main/core/sqlite/cache-key'
import { CaptureLogger } from '../../../../helpers/capture-logger'

/** A vault that keeps what it is given, as the app's safeStorage-backed one does when the OS has a keychain. */
class KeychainVault extends MemorySecretStore {
  override readonly persistent = true
}

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rosterdesk-cache-key-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('the key file (cache-key-file.ts)', () => {
  it('is made once, 0600, with the key and a newline, and read back the same', () => {
    const path = cacheKeyFilePath(join(dir, 'RosterDesk'))
    const made = readOrCreateCacheKeyFile(path)
    expect(made.created).toBe(true)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readFileSync(path, 'utf8')).toBe(`${made.key.revealHex()}\n`)
    const again = readOrCreateCacheKeyFile(path)
    expect(again.created).toBe(false)
    expect(again.key.revealHex()).toBe(made.key.revealHex())
  })

  it('refuses a file others may read, and one that holds no key, saying which file and what to do', () => {
    const path = cacheKeyFilePath(dir)
    writeFileSync(path, `${CacheKey.create().revealHex()}\n`, { mode: 0o644 })
    chmodSync(path, 0o644)
    expect(() => readCacheKeyFile(path)).toThrow(
      `The key file ${path} may be read by other accounts. Make it readable by you only (chmod 600 "${path}").`,
    )
    writeFileSync(path, 'not a key\n', { mode: 0o600 })
    chmodSync(path, 0o600)
    expect(() => readOrCreateCacheKeyFile(path)).toThrow(`${path} is not a RosterDesk key file.`)
    // Refused, never replaced: the file is as it was.
    expect(readFileSync(path, 'utf8')).toBe('not a key\n')
  })

  it('says nothing of the key in what it throws', () => {
    const path = cacheKeyFilePath(dir)
    const hex = CacheKey.create().revealHex()
    writeFileSync(path, `${hex}${hex}\n`, { mode: 0o600 })
    let thrown: unknown
    try {
      readCacheKeyFile(path)
    } catch (error) {
      thrown = error
    }
    expect(
      JSON.stringify({ thrown, message: String(thrown), detail: (thrown as { detail?: string }).detail }),
    ).not.toContain(hex)
  })
})

describe("the app's cache key (app-cache-key.ts)", () => {
  const logger = new CaptureLogger()

  it('with a keychain: made on first use and kept in the vault as the user’s secret, the same at the next start', async () => {
    const vault = new KeychainVault()
    const first = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: false, logger })
    expect(first.kept).toBe('keychain')
    expect(await vault.get('cacheKey')).toBe(first.key.revealHex())
    const second = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: false, logger })
    expect(second.key.revealHex()).toBe(first.key.revealHex())
    // No key file is written beside a keychain.
    expect(() => statSync(cacheKeyFilePath(dir))).toThrow()
  })

  it('adopts the key file the CLI made when it first makes its key, and keeps the file', async () => {
    const cli = readOrCreateCacheKeyFile(cacheKeyFilePath(dir)).key
    const vault = new KeychainVault()
    const app = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: false, logger })
    expect(app.key.revealHex()).toBe(cli.revealHex())
    expect(await vault.get('cacheKey')).toBe(cli.revealHex())
    expect(readCacheKeyFile(cacheKeyFilePath(dir))?.revealHex()).toBe(cli.revealHex())
  })

  it('a key the vault could not unwrap (it forgot it) is replaced by a new one', async () => {
    const vault = new KeychainVault()
    const first = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: false, logger })
    // EncryptedFileSecretStore discards a secret the OS cannot decrypt (a new keychain) and answers undefined.
    await vault.delete('cacheKey')
    const next = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: false, logger })
    expect(next.key.revealHex()).not.toBe(first.key.revealHex())
  })

  it('without a keychain: in memory only, a new key at each start, unless the policy allows the key file', async () => {
    const vault = new MemorySecretStore()
    const one = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: false, logger })
    const two = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: false, logger })
    expect([one.kept, two.kept]).toEqual(['memory', 'memory'])
    expect(one.key.revealHex()).not.toBe(two.key.revealHex())
    expect(await vault.get('cacheKey')).toBeUndefined()
    expect(() => statSync(cacheKeyFilePath(dir))).toThrow()

    const filed = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: true, logger })
    expect(filed.kept).toBe('file')
    expect(statSync(cacheKeyFilePath(dir)).mode & 0o777).toBe(0o600)
    const again = await appCacheKey({ vault, dataDir: dir, keyFileAllowed: true, logger })
    expect(again.key.revealHex()).toBe(filed.key.revealHex())
  })
})
