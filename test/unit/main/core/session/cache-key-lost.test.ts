import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SyncStatus } from '../../../../../src/shared/domain/sync'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import { CacheKey } from '../../../../../src/main/core/sqlite/cache-key'
import { LOCKED_CACHE_MESSAGE } from '../../../../../src/main/core/sqlite/sqlite-open'
import { sandbox, startApp, syncNow, tempDir, uuids } from '../../../../helpers/app-core-under-test'

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1')
const VIEW = {
  text: '',
  statuses: ['1'],
  payCycleIds: [],
  sort: { column: 'lastName', order: 'asc' },
  columns: { keys: ['lastName', 'firstName'], widths: {} },
}

describe('a cache key that cannot be unwrapped (issue 34)', () => {
  it('sets the unreadable cache aside, says a full sync is needed, keeps the settings, views and sign-in; a sync rebuilds', async () => {
    const demo = await sandbox({ size: 60, seed: 3 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const secrets = new MemorySecretStore()
    const before = { key: CacheKey.create(), kept: 'keychain' as const }
    const app = await startApp(demo, dataDir, backend, secrets, { cacheKey: before })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 60 })
    const synced = await uuids(app)
    await app.invoke('views:save', 'Active', VIEW, false)
    await app.close()
    const catalog = join(dataDir, 'cache', 'employees.sqlite')
    expect(readFileSync(catalog).subarray(0, 16).equals(SQLITE_HEADER)).toBe(false)

    // A new keychain: the vault forgot the key, a new one is made, and the files do not open with it.
    const after = { key: CacheKey.create(), kept: 'keychain' as const }
    const reopened = await startApp(demo, dataDir, backend, secrets, { cacheKey: after })
    const status = (await reopened.invoke('sync:get-status')) as SyncStatus
    expect(status.lastRun).toMatchObject({
      status: 'failed',
      errorCode: 'damaged-cache',
      error: LOCKED_CACHE_MESSAGE,
    })
    expect(LOCKED_CACHE_MESSAGE).toMatch(/full sync is needed/)
    expect(await uuids(reopened)).toEqual(new Set())
    // Set aside, never read in clear and never deleted: the old catalog is kept beside the new one.
    expect(
      readdirSync(join(dataDir, 'cache')).some((name) => name.startsWith('employees.sqlite.damaged-')),
    ).toBe(true)
    expect(existsSync(catalog)).toBe(true)
    // Nothing else is lost: the sign-in, the view and the settings stay.
    expect(await reopened.invoke('auth:get-state')).toMatchObject({ status: 'signed-in' })
    expect(await reopened.invoke('views:list')).toEqual([expect.objectContaining({ name: 'Active' })])
    expect(await syncNow(reopened)).toMatchObject({ status: 'complete', stored: 60 })
    expect(await uuids(reopened)).toEqual(synced)
  })

  it('without a keychain (key in memory only): an earlier start’s caches are deleted, not set aside, and the window is told', async () => {
    const demo = await sandbox({ size: 20, seed: 4 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const secrets = new MemorySecretStore()
    const first = await startApp(demo, dataDir, backend, secrets, {
      cacheKey: { key: CacheKey.create(), kept: 'memory' },
    })
    expect(await first.invoke('auth:sign-in')).toMatchObject({
      status: 'signed-in',
      savedEmployeesUntilQuit: true,
    })
    expect(await syncNow(first)).toMatchObject({ status: 'complete', stored: 20 })
    await first.close()
    expect(existsSync(join(dataDir, 'cache', 'employees.sqlite'))).toBe(true)

    const second = await startApp(demo, dataDir, backend, secrets, {
      cacheKey: { key: CacheKey.create(), kept: 'memory' },
    })
    const status = (await second.invoke('sync:get-status')) as SyncStatus
    // Nothing to set aside and no damage to report: this start's cache is new, and empty until it syncs.
    expect(status.lastRun).toBeUndefined()
    expect(readdirSync(join(dataDir, 'cache')).filter((name) => name.includes('.damaged-'))).toEqual([])
    expect(await uuids(second)).toEqual(new Set())
  })
})
