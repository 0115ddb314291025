import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ProfileList } from '../../../../../src/shared/domain/profiles'
import type { SettingsView } from '../../../../../src/shared/domain/settings'
import { policySchema } from '../../../../../src/main/core/policy/policy-schema'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../../src/main/sandbox'
import { runSyncCommand } from '../../../../../src/main/cli/sync-command'
import { sandboxCliEnv, sandboxServiceArgs } from '../../../../helpers/cli-process'
import { runCommand } from '../../../../helpers/run-cli'
import {
  aboutOfExport,
  sandbox,
  startApp,
  syncNow,
  tempDir,
  uuids,
} from '../../../../helpers/app-core-under-test'

/** Staging's settings for `staging`'s sandbox: another environment, address and tenant than Demo's. */
function stagingPatch(staging: SandboxHandle) {
  return {
    environment: 'staging',
    baseUrls: { staging: staging.baseUrl },
    clientId: staging.credentials.clientId,
    redirectUri: staging.credentials.redirectUri,
    tenantId: staging.credentials.tenantId,
  }
}

async function syncedDemo() {
  const demo = await sandbox({ size: 120, seed: 1 })
  const staging = await sandbox({ size: 40, seed: 7 })
  const dataDir = tempDir()
  const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore())
  expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
  expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 120 })
  return { app, staging, dataDir, demoRows: await uuids(app) }
}

describe('changing the source of a profile with saved employees (decision 039)', () => {
  it('is refused through IPC unless the change says how, and nothing changes', async () => {
    const { app, staging } = await syncedDemo()
    await expect(app.invoke('settings:update', stagingPatch(staging))).rejects.toMatchObject({
      ipc: { code: 'validation', message: expect.stringContaining('120 saved employees') },
    })
    expect(((await app.invoke('settings:get')) as SettingsView).settings.environment).toBe('demo')
    expect((await uuids(app)).size).toBe(120)
    // A change that keeps the source (the page size) needs no choice.
    await app.invoke('settings:update', { pageSize: 200 })
  })

  it('sets the employees aside: none shown under the new name, restorable, deleted by the next complete sync', async () => {
    const { app, staging, dataDir, demoRows } = await syncedDemo()
    await app.invoke('settings:update', stagingPatch(staging), { identityChange: 'set-aside' })
    expect(((await app.invoke('settings:get')) as SettingsView).settings.environment).toBe('staging')
    expect((await uuids(app)).size).toBe(0)
    const status = (await app.invoke('sync:get-status')) as { lastComplete?: unknown; employeeCount: number }
    expect(status).toMatchObject({ employeeCount: 0 })
    expect(status.lastComplete).toBeUndefined()
    const list = (await app.invoke('profiles:list')) as ProfileList
    // "Demo" would name the old source beside the Staging badge: the profile takes the new environment's name.
    expect(list.profiles[0]).toMatchObject({
      name: 'Staging',
      employeeCount: 0,
      setAside: { environment: 'demo', employeeCount: 120 },
    })
    const aside = join(dataDir, 'cache-set-aside')
    expect(existsSync(aside)).toBe(true)

    // Restored: Demo's rows again, said to be Demo's on screen and in an export, under the Staging settings.
    await app.invoke('profiles:restore-set-aside', list.activeId)
    expect(await uuids(app)).toEqual(demoRows)
    expect(await app.invoke('sync:get-status')).toMatchObject({ source: { environment: 'demo' } })
    const about = await aboutOfExport(app, join(dataDir, 'restored.xlsx'))
    expect(about.get('Environment')).toBe('Demo (sample data)')
    expect(existsSync(aside)).toBe(false)

    // A change that keeps the profile's source (the same tenant again) asks nothing, restored rows or not.
    await app.invoke('settings:update', { tenantId: staging.credentials.tenantId })
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.settings.environment).toBe('staging')
    // The restored rows are Demo's while the settings say Staging: syncing Staging replaces them (first sync).
    await app.invoke('settings:set-client-secret', staging.credentials.clientSecret)
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in', environment: 'staging' })
    const synced = await syncNow(app)
    expect(synced).toMatchObject({ status: 'complete', stored: 40 })
    const stagingRows = await uuids(app)
    expect(stagingRows.size).toBe(40)
    expect([...stagingRows].some((uuid) => demoRows.has(uuid))).toBe(false)
    expect(await app.invoke('sync:get-status')).toMatchObject({ source: { environment: 'staging' } })
    const aboutStaging = await aboutOfExport(app, join(dataDir, 'staging.xlsx'))
    expect(aboutStaging.get('Environment')).toBe('Staging')
  })

  it('sets aside on a profile the machine policy manages, which keeps its policy name', async () => {
    const demo = await sandbox({ size: 30, seed: 1 })
    const staging = await sandbox({ size: 10, seed: 7 })
    const dataDir = tempDir()
    // The policy manages the first profile by its name, "Demo", a name setAsideRename would otherwise change.
    const policy = {
      policy: policySchema.parse({ profiles: [{ name: 'Demo', environment: 'demo' }] }),
      source: '/etc/rosterdesk/policy.json',
      problem: undefined,
    }
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy,
    })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 30 })
    await app.invoke('settings:update', stagingPatch(staging), { identityChange: 'set-aside' })
    expect(((await app.invoke('settings:get')) as SettingsView).settings.environment).toBe('staging')
    const list = (await app.invoke('profiles:list')) as ProfileList
    expect(list.profiles).toHaveLength(1)
    expect(list.profiles[0]).toMatchObject({
      name: 'Demo',
      managedByPolicy: true,
      employeeCount: 0,
      setAside: { environment: 'demo', employeeCount: 30 },
    })
    expect((await uuids(app)).size).toBe(0)
  })

  it('a complete sync from the new source deletes the set-aside employees for good', async () => {
    const { app, staging, dataDir } = await syncedDemo()
    await app.invoke('settings:update', stagingPatch(staging), { identityChange: 'set-aside' })
    const aside = join(dataDir, 'cache-set-aside')
    expect(existsSync(aside)).toBe(true)
    await app.invoke('settings:set-client-secret', staging.credentials.clientSecret)
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in', environment: 'staging' })
    // The new cache numbers its runs from 1 again: only this run's summary counts.
    app.events.length = 0
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 40 })
    expect(existsSync(aside)).toBe(false)
    const list = (await app.invoke('profiles:list')) as ProfileList
    expect(list.profiles[0]?.setAside).toBeUndefined()
    await expect(app.invoke('profiles:restore-set-aside', list.activeId)).rejects.toMatchObject({
      ipc: { code: 'not-found' },
    })
  })

  it('a complete sync by the CLI while the profile is not active ends the restore too, never losing that sync', async () => {
    const { app, staging, dataDir } = await syncedDemo()
    await app.invoke('settings:update', stagingPatch(staging), { identityChange: 'set-aside' })
    const first = ((await app.invoke('profiles:list')) as ProfileList).activeId
    const other = (await app.invoke('profiles:create', 'Other')) as ProfileList
    await app.invoke('profiles:switch', other.profiles[1]!.id)
    expect(((await app.invoke('profiles:list')) as ProfileList).profiles[0]?.setAside).toBeDefined()

    // The CLI syncs the first profile's cache from Staging: a complete sync the app's session never saw.
    const synced = await runCommand(
      runSyncCommand,
      [...sandboxServiceArgs(staging), '--db', join(dataDir, 'cache', 'employees.sqlite'), '--json'],
      sandboxCliEnv(staging),
    )
    expect(synced.code, synced.stderr).toBe(0)
    const list = (await app.invoke('profiles:list')) as ProfileList
    expect(list.profiles[0]).toMatchObject({ id: first, employeeCount: 40 })
    expect(list.profiles[0]?.setAside).toBeUndefined()
    expect(existsSync(join(dataDir, 'cache-set-aside'))).toBe(false)
    await expect(app.invoke('profiles:restore-set-aside', first)).rejects.toMatchObject({
      ipc: { code: 'not-found' },
    })
  })

  it('creates a new profile for the new source and switches to it; the old one keeps its employees', async () => {
    const { app, staging } = await syncedDemo()
    await app.invoke('settings:update', stagingPatch(staging), { identityChange: 'new-profile' })
    const list = (await app.invoke('profiles:list')) as ProfileList
    expect(list.profiles.map((p) => [p.name, p.environment, p.employeeCount])).toEqual([
      ['Demo', 'demo', 120],
      ['Staging', 'staging', 0],
    ])
    expect(list.activeId).toBe(list.profiles[1]!.id)
    expect((await uuids(app)).size).toBe(0)
    expect(((await app.invoke('settings:get')) as SettingsView).settings).toMatchObject({
      environment: 'staging',
      tenantId: staging.credentials.tenantId,
    })
  })
})
