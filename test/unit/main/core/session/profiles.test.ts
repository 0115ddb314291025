import { cpSync, existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ProfileList } from '../../../../../src/shared/domain/profiles'
import type { SettingsView } from '../../../../../src/shared/domain/settings'
import type { SyncRunSummary } from '../../../../../src/shared/domain/sync'
import { DEFAULT_SETTINGS } from '../../../../../src/main/core/settings/settings-defaults'
import {
  EncryptedFileSecretStore,
  type SafeStorageLike,
} from '../../../../../src/main/core/secrets/encrypted-file-secret-store'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import {
  aboutOfExport,
  sandbox,
  startApp,
  syncNow,
  tempDir,
  uuids,
} from '../../../../helpers/app-core-under-test'
import { encryptFixtureCopy } from '../../../../helpers/test-cache-key'

/** Electron's safeStorage stand-in: reversible, so the test can read what was stored under which name. */
class ReversingSafeStorage implements SafeStorageLike {
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return true
  }
  getSelectedStorageBackend(): string {
    return 'gnome_libsecret'
  }
  async encryptStringAsync(plainText: string): Promise<Buffer> {
    return Buffer.from(plainText).reverse()
  }
  async decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    return { result: Buffer.from(encrypted).reverse().toString(), shouldReEncrypt: false }
  }
}

describe('upgrading from the release before profiles', () => {
  it('opens its settings, cache and secrets as the first profile, with nothing lost', async () => {
    const staging = await sandbox({ size: 40, seed: 11 })
    const demo = await sandbox({ size: 30, seed: 2 })
    const dataDir = tempDir()
    // What that release left on disk: its one cache (test/fixtures/cache-v2, written by an older release still),
    cpSync(resolve(__dirname, '../../../../fixtures/cache-v2'), join(dataDir, 'cache'), { recursive: true })
    encryptFixtureCopy(join(dataDir, 'cache'))
    // its flat settings (electron-store's `settings` and `settingsVersion` 1),
    const backend = new MemoryKeyValueBackend()
    const flat = {
      environment: 'staging',
      baseUrls: { staging: staging.baseUrl.replace(/\/$/, ''), production: 'https://payroll.example' },
      clientId: staging.credentials.clientId,
      redirectUri: staging.credentials.redirectUri,
      scopes: 'read',
      tenantId: staging.credentials.tenantId,
      pageSize: 25,
      concurrency: 3,
      trackedPayCycles: ['PC-2026-11-A'],
      syncScope: 'all',
      staleAfterHours: 48,
      syncOnLaunch: false,
      syncEveryHours: 0,
    }
    backend.set('settings', flat)
    backend.set('settingsVersion', 1)
    // and its secrets file, whose entries have the bare names.
    const secretFile = join(dataDir, 'secrets.json')
    const vault = () =>
      new EncryptedFileSecretStore({
        safeStorage: new ReversingSafeStorage(),
        filePath: secretFile,
        platform: 'linux',
      })
    await vault().set('clientSecret', staging.credentials.clientSecret)

    const app = await startApp(demo, dataDir, backend, vault())
    expect(await app.invoke('profiles:list')).toEqual({
      activeId: 'p1',
      profiles: [
        {
          id: 'p1',
          name: 'Staging',
          environment: 'staging',
          tenantId: staging.credentials.tenantId,
          employeeCount: 41,
        },
      ],
    })
    const view = (await app.invoke('settings:get')) as SettingsView
    // Settings that release did not have (the sync limits, the network, formats…) take their defaults.
    expect(view.settings).toEqual({ ...DEFAULT_SETTINGS, ...flat })
    expect(view.hasClientSecret).toBe(true)
    // Every saved employee is there (the fixture's second sync: 40 + 3 - 2).
    expect((await uuids(app)).size).toBe(41)
    expect(((await app.invoke('sync:get-status')) as { employeeCount: number }).employeeCount).toBe(41)

    // The migrated client secret signs in; the tokens keep the names that release used, so it reads them too.
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    await app.close()
    const stored = JSON.parse(readFileSync(secretFile, 'utf8')) as { entries: Record<string, string> }
    // The client secret of that release is now bound to the service it was entered for (bound-client-secret.ts).
    expect(Object.keys(stored.entries).sort()).toEqual(
      [
        'accessToken',
        'accessTokenExpiresAt',
        'clientSecret',
        'clientSecretBinding',
        'refreshToken',
        'tokenContext',
      ].sort(),
    )
    expect(JSON.parse((await vault().get('clientSecretBinding')) ?? '')).toEqual({
      baseUrl: staging.baseUrl.replace(/\/$/, ''),
      clientId: staging.credentials.clientId,
    })
    // The old flat settings are left as they were, so a downgrade still opens (read-only) with them.
    expect(backend.get('settings')).toEqual(flat)

    const reopened = await startApp(demo, dataDir, backend, vault())
    expect(await reopened.invoke('auth:get-state')).toMatchObject({ status: 'signed-in' })
    expect((await uuids(reopened)).size).toBe(41)
    expect(existsSync(join(dataDir, 'cache', 'employees.sqlite'))).toBe(true)
  })
})

describe('switching profiles', () => {
  it('switches the cache, the sign-in and the About sheet; never shows one profile’s employees under another', async () => {
    const demo = await sandbox({ size: 120, seed: 1 })
    const staging = await sandbox({ size: 40, seed: 7 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const secrets = new MemorySecretStore()
    const app = await startApp(demo, dataDir, backend, secrets)

    // Profile A: Demo, signed in and synced.
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 120 })
    const a = await uuids(app)
    expect(a.size).toBe(120)

    // Profile B: a client company on Staging.
    const created = (await app.invoke('profiles:create', '  Acme   Staging ')) as ProfileList
    expect(created.profiles.map((p) => p.name)).toEqual(['Demo', 'Acme Staging'])
    await expect(app.invoke('profiles:create', 'acme staging')).rejects.toMatchObject({
      ipc: { code: 'validation', message: 'A profile named "acme staging" exists.' },
    })
    const b = created.profiles[1]!.id
    app.events.length = 0
    expect(await app.invoke('profiles:switch', b)).toMatchObject({ activeId: b })
    expect(app.events.map((e) => e.channel)).toEqual(['profiles:changed', 'auth:changed'])
    expect(app.events[1]!.payload).toMatchObject({ status: 'signed-out', environment: 'demo' })
    // B has its own empty cache and no sign-in; nothing of A's shows.
    expect((await uuids(app)).size).toBe(0)
    expect(((await app.invoke('sync:get-status')) as { lastComplete?: unknown }).lastComplete).toBeUndefined()

    await app.invoke('settings:update', {
      environment: 'staging',
      baseUrls: { staging: staging.baseUrl },
      clientId: staging.credentials.clientId,
      redirectUri: staging.credentials.redirectUri,
      tenantId: staging.credentials.tenantId,
    })
    await app.invoke('settings:set-client-secret', staging.credentials.clientSecret)
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in', environment: 'staging' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 40 })
    const bRows = await uuids(app)
    expect(bRows.size).toBe(40)
    expect([...bRows].some((uuid) => a.has(uuid))).toBe(false)
    const aboutB = await aboutOfExport(app, join(dataDir, 'b.xlsx'))
    expect(aboutB.get('Profile')).toBe('Acme Staging')
    expect(aboutB.get('Environment')).toBe('Staging')
    expect(aboutB.get('Tenant')).toBe(staging.credentials.tenantId)
    // B's secrets are its own; A's kept their names.
    expect(await secrets.get(`profile:${b}:clientSecret`)).toBe(staging.credentials.clientSecret)
    expect(await secrets.get('clientSecret')).toBeUndefined()

    // Back to A: its employees, its sign-in, and an About sheet naming A.
    await app.invoke('profiles:switch', 'p1')
    expect(await app.invoke('auth:get-state')).toMatchObject({ status: 'signed-in', environment: 'demo' })
    expect(await uuids(app)).toEqual(a)
    const aboutA = await aboutOfExport(app, join(dataDir, 'a.xlsx'))
    expect(aboutA.get('Profile')).toBe('Demo')
    expect(aboutA.get('Environment')).toBe('Demo (sample data)')

    // A sync running when the clerk switches is cancelled first, and the other profile opens.
    const { runId } = (await app.invoke('sync:start')) as { runId: number }
    await app.invoke('profiles:switch', b)
    const finished = app.events
      .filter((e) => e.channel === 'sync:finished')
      .map((e) => e.payload as SyncRunSummary)
      .find((s) => s.id === runId)
    expect(finished?.status).toBe('cancelled')
    expect(await uuids(app)).toEqual(bRows)

    // The active profile cannot be deleted; another one goes with its cache and secrets.
    await expect(app.invoke('profiles:delete', b)).rejects.toMatchObject({ ipc: { code: 'validation' } })
    await app.invoke('profiles:switch', 'p1')
    expect(existsSync(join(dataDir, 'profiles', b, 'cache', 'employees.sqlite'))).toBe(true)
    expect(await app.invoke('profiles:delete', b)).toEqual({
      activeId: 'p1',
      profiles: [
        {
          id: 'p1',
          name: 'Demo',
          environment: 'demo',
          tenantId: demo.credentials.tenantId,
          employeeCount: 120,
        },
      ],
    })
    expect(existsSync(join(dataDir, 'profiles', b))).toBe(false)
    expect(await secrets.get(`profile:${b}:clientSecret`)).toBeUndefined()
    expect(await secrets.get(`profile:${b}:accessToken`)).toBeUndefined()
    expect(await uuids(app)).toEqual(a)
  })

  it('keeps the active profile and the list across a restart', async () => {
    const demo = await sandbox({ size: 10, seed: 3 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const secrets = new MemorySecretStore()
    const first = await startApp(demo, dataDir, backend, secrets)
    const { profiles } = (await first.invoke('profiles:create', 'Bureau client 2')) as ProfileList
    await first.invoke('profiles:switch', profiles[1]!.id)
    await first.invoke('profiles:rename', 'p1', 'Sandbox')
    await first.close()
    const second = await startApp(demo, dataDir, backend, secrets)
    expect(await second.invoke('profiles:list')).toMatchObject({
      activeId: profiles[1]!.id,
      profiles: [{ name: 'Sandbox' }, { name: 'Bureau client 2' }],
    })
  })
})

describe('managing profiles', () => {
  it('creates a profile in the environment chosen (Demo when none is said), and counts each one’s employees', async () => {
    const demo = await sandbox({ size: 25, seed: 4 })
    const dataDir = tempDir()
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore())
    await app.invoke('auth:sign-in')
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 25 })

    const list = (await app.invoke('profiles:create', 'Acme Ltd', {
      environment: 'production',
    })) as ProfileList
    expect(list.profiles[1]).toEqual({
      id: 'p2',
      name: 'Acme Ltd',
      environment: 'production',
      tenantId: '',
      employeeCount: 0,
    })
    // The one-argument call of earlier releases still makes a Demo profile.
    expect(((await app.invoke('profiles:create', 'Sandbox')) as ProfileList).profiles[2]).toMatchObject({
      name: 'Sandbox',
      environment: 'demo',
    })
    // The contract refuses an environment that is not one.
    await expect(app.invoke('profiles:create', 'Initech', { environment: 'test' })).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await expect(
      app.invoke('profiles:create', 'Initech', { environment: 'demo', extra: 1 }),
    ).rejects.toMatchObject({ ipc: { code: 'validation' } })

    // Switched to, the new profile opens in its environment with first-run settings and asks for its address.
    await app.invoke('profiles:switch', 'p2')
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.settings).toMatchObject({
      environment: 'production',
      baseUrls: { production: '' },
      clientId: '',
    })
    expect(await app.invoke('auth:get-state')).toMatchObject({
      environment: 'production',
      status: 'signed-out',
    })
    // The profile left is counted from its closed cache: what deleting it would lose.
    expect(((await app.invoke('profiles:list')) as ProfileList).profiles.map((p) => p.employeeCount)).toEqual(
      [25, 0, 0],
    )
  })
})

describe('a sync from another source than the previous one', () => {
  it('is a first sync in its change report, not hires and leavers against the other source’s employees', async () => {
    const demo = await sandbox({ size: 60, seed: 9 })
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore())
    await app.invoke('auth:sign-in')
    await syncNow(app)
    // The same source again: compared as usual (nothing changed).
    expect((await syncNow(app)).changes).toMatchObject({ firstSync: false, added: 0, removed: 0, changed: 0 })

    // Active employees only: another set of employees, so not "−(the others)".
    await app.invoke('settings:update', { syncScope: 'active' })
    const scoped = await syncNow(app)
    expect(scoped.stored).toBeLessThan(60)
    expect(scoped.changes).toMatchObject({ firstSync: true, added: scoped.stored, removed: 0, changed: 0 })
    const [latest] = (await app.invoke('changes:history')) as Array<Record<string, unknown>>
    expect(latest).toMatchObject({
      runId: scoped.id,
      firstSync: true,
      employeeCount: scoped.stored,
      entriesKept: false,
    })
    // And the next sync of that scope is compared with it.
    expect((await syncNow(app)).changes).toMatchObject({ firstSync: false, added: 0, removed: 0 })
  })
})
