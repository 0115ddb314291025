import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProfileList, SettingsView, SyncRunSummary } from '../../../src/shared/domain'
import type { EventChannel } from '../../../src/shared/ipc-contract'
import { createAppCore, type AppCore } from '../../../src/main/core-host/create-app-core'
import { dispatchInvoke, type EventSink } from '../../../src/main/core/ipc/dispatch'
import { createLogger } from '../../../src/main/core/log/logger'
import { MemorySecretStore, type SecretVault } from '../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../src/main/sandbox'
import { runSyncCommand } from '../../../src/main/cli/sync-command'
import { answerConsent } from '../../helpers/consent'
import { sandboxCliEnv, sandboxServiceArgs } from '../../helpers/cli-process'
import { runCommand } from '../cli/run-cli'
import { startTestSandbox } from '../../helpers/sandbox'
import { aboutCells, readXlsx } from '../../helpers/xlsx-reader'

/** Electron's safeStorage stand-in: reversible, so the test can read what was stored under which name. */

interface App {
  core: AppCore
  events: Array<{ channel: EventChannel; payload: unknown }>
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  savePath: { next: string | undefined }
  close(): Promise<void>
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function sandbox(options: { size: number; seed: number }): Promise<SandboxHandle> {
  const handle = await startTestSandbox(options)
  cleanups.push(() => handle.close())
  return handle
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-profiles-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The app core as Electron's main builds it, over a data folder, a settings backend and a secret vault. */
async function startApp(
  demo: SandboxHandle,
  dataDir: string,
  backend: MemoryKeyValueBackend,
  secrets: SecretVault,
): Promise<App> {
  const events: App['events'] = []
  const savePath: App['savePath'] = { next: undefined }
  const sink: EventSink = { emit: (channel, payload) => events.push({ channel, payload }) }
  const logger = createLogger(() => undefined)
  const core = await createAppCore({
    appInfo: { name: 'RosterDesk', version: '0.1.0', platform: 'linux' },
    dataDir,
    settings: new SettingsStore(backend),
    secrets,
    fetch: (input, init) => fetch(input, init),
    openExternal: async (url) => {
      const callback = await answerConsent(url, 'approve')
      setTimeout(() => void core.handleCallbackUrl(callback), 0)
    },
    demo: { environment: { baseUrl: demo.baseUrl, ...demo.credentials }, close: async () => undefined },
    events: sink,
    logger,
    chooseExportPath: async () => savePath.next,
    uiState: backend,
    revealFile: () => undefined,
  })
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await core.close()
  }
  cleanups.push(close)
  const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
    const result = await dispatchInvoke(core.handlers, channel, args, logger)
    if (!result.ok) throw Object.assign(new Error(result.error.message), { ipc: result.error })
    return result.value
  }
  return { core, events, invoke, savePath, close }
}

async function syncNow(app: App): Promise<SyncRunSummary> {
  const { runId } = (await app.invoke('sync:start')) as { runId: number }
  let summary: SyncRunSummary | undefined
  await vi.waitFor(
    () => {
      summary = app.events
        .filter((e) => e.channel === 'sync:finished')
        .map((e) => e.payload as SyncRunSummary)
        .find((s) => s.id === runId)
      expect(summary).toBeDefined()
    },
    { timeout: 20_000 },
  )
  return summary!
}

async function uuids(app: App): Promise<Set<string>> {
  const result = (await app.invoke('employees:query', { limit: 1000 })) as {
    total: number
    rows: Array<Record<string, unknown>>
  }
  return new Set(result.rows.map((row) => String(row['UUID'])))
}

async function aboutOfExport(app: App, file: string): Promise<Map<string, string>> {
  app.savePath.next = file
  const request = { kind: 'view', query: {}, columns: ['lastName'], format: 'xlsx' }
  expect(await app.invoke('export:start', request)).toMatchObject({ status: 'written' })
  const cells = aboutCells(await readXlsx(file))
  return new Map([...cells].map(([label, cell]) => [label, String(cell.v)]))
}
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
    expect(list.profiles[0]).toMatchObject({
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
