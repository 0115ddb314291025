import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CACHE_KEY_FILE_NAME } from '../../src/main/core/secrets/cache-key-file'
import { LOCKED_CACHE_MESSAGE } from '../../src/main/core/sqlite/sqlite-open'
import { useMainProcesses } from './main-process'
import { standInVaultCacheKey } from './stand-in-vault'

/**
 * Issue 34: the built shell's cache key, against the stand-in's safeStorage (its async API, its Linux backends and
 * another keychain's refusal, as Electron's electron_api_safe_storage.cc has them). With a keychain the key is the
 * user's `cacheKey` secret in the vault, never a file; with 'basic_text' it is in memory only and the window is
 * told; a key the next start's keychain cannot unwrap sets the cache aside with the sentence that asks for a sync.
 */

const shell = useMainProcesses()

function value<T>(answer: unknown): T {
  const result = answer as { ok: boolean; value?: T; error?: unknown }
  expect(result.ok, JSON.stringify(result.error)).toBe(true)
  return result.value as T
}

describe('the cache key in the built shell', () => {
  it('is kept in the vault with a keychain, in memory only with basic_text (the window told)', async () => {
    const userData = shell.freshDir('cache-key')
    const kept = shell.start({ userData, platform: 'linux' })
    await kept.windowReady()
    expect(
      value<{ savedEmployeesUntilQuit?: boolean }>(await kept.invoke('auth:get-state')),
    ).not.toHaveProperty('savedEmployeesUntilQuit')
    expect(standInVaultCacheKey(userData).revealHex()).toMatch(/^[0-9a-f]{64}$/)
    expect(existsSync(join(userData, CACHE_KEY_FILE_NAME))).toBe(false)
    await kept.quit()

    const plain = shell.freshDir('cache-key-basic-text')
    const memory = shell.start({ userData: plain, platform: 'linux', safeStorageBackend: 'basic_text' })
    await memory.windowReady()
    expect(value(await memory.invoke('auth:get-state'))).toMatchObject({
      secretStorage: 'memory-only',
      savedEmployeesUntilQuit: true,
    })
    expect(existsSync(join(plain, CACHE_KEY_FILE_NAME))).toBe(false)
    expect(existsSync(join(plain, 'secrets.json'))).toBe(false)
  })

  it('a key another keychain wrapped: the cache is set aside and the window told a full sync is needed', async () => {
    const userData = shell.freshDir('cache-key-lost')
    const first = shell.start({ userData, platform: 'linux' })
    await first.windowReady()
    // Answered once the core has started: its key made and its cache opened.
    value(await first.invoke('auth:get-state'))
    await first.quit()
    expect(existsSync(join(userData, 'cache', 'employees.sqlite'))).toBe(true)

    const moved = shell.start({ userData, platform: 'linux', keychain: 'keychain-2' })
    await moved.windowReady()
    const status = value<{ lastRun?: { errorCode?: string; error?: string } }>(
      await moved.invoke('sync:get-status'),
    )
    expect(status.lastRun).toMatchObject({ errorCode: 'damaged-cache', error: LOCKED_CACHE_MESSAGE })
    expect(
      readdirSync(join(userData, 'cache')).some((name) => name.startsWith('employees.sqlite.damaged-')),
    ).toBe(true)
    // The new key is the new keychain's.
    expect(standInVaultCacheKey(userData, 'keychain-2').revealHex()).toMatch(/^[0-9a-f]{64}$/)
  })
})
