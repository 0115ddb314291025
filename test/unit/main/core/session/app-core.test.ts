import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventChannel } from '../../../../../src/shared/ipc-contract'
import {
  createAppCore,
  type AppCore,
  type AppCoreDeps,
} from '../../../../../src/main/core/session/create-app-core'
import { LAUNCH_DELAY_MS } from '../../../../../src/main/core/app/sync-scheduler'
import type { Settings } from '../../../../../src/shared/settings-schema'
import { coreWorkerRunners } from '../../../../../src/main/core-host/worker/worker-runners'
import { systemClock, type Clock, type Timers } from '../../../../../src/main/core/clock'
import { dispatchInvoke, type EventSink } from '../../../../../src/main/core/ipc/dispatch'
import { createLogger } from '../../../../../src/main/core/log/logger'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../../src/main/sandbox'
import { answerConsent } from '../../../../helpers/consent'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

interface Harness {
  core: AppCore
  sandbox: SandboxHandle
  events: Array<{ channel: EventChannel; payload: unknown }>
  logs: string[]
  secrets: MemorySecretStore
  backend: MemoryKeyValueBackend
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  savePath: { next: string | undefined; offered: string[] }
  revealed: string[]
  /** Every value a handler returned, for checking that no secret ever crosses to the renderer. */
  results: unknown[]
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startApp(
  time: { clock?: Clock; timers?: Timers } & Pick<AppCoreDeps, 'onSyncStarted' | 'noLaunchSync'> = {},
  saved: Partial<Settings> = {},
): Promise<Harness> {
  const sandbox = await startTestSandbox({ size: 300 })
  const dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-app-'))
  const events: Harness['events'] = []
  const logs: string[] = []
  const secrets = new MemorySecretStore()
  const backend = new MemoryKeyValueBackend()
  const savePath: Harness['savePath'] = { next: undefined, offered: [] }
  const results: unknown[] = []
  const revealed: string[] = []
  const sink: EventSink = { emit: (channel, payload) => events.push({ channel, payload }) }
  // Core and dispatch log through one logger, as in the app, so the leak checks below cover both.
  const logger = createLogger((level, line) => logs.push(`${level} ${line}`))
  const settings = new SettingsStore(backend)
  if (Object.keys(saved).length > 0) expect(settings.update(saved)).toMatchObject({ ok: true })
  const core = await createAppCore({
    cacheKey: TEST_CACHE_KEY,
    ...time,
    appInfo: { name: 'RosterDesk', version: '0.1.0', platform: 'linux' },
    dataDir,
    settings,
    secrets,
    fetch: (input, init) => fetch(input, init),
    // The system browser: the clerk approves, and the OS hands the custom-scheme redirect back to the app.
    openExternal: async (url) => {
      const callback = await answerConsent(url, 'approve')
      setTimeout(() => void core.handleCallbackUrl(callback), 0)
    },
    demo: { environment: { baseUrl: sandbox.baseUrl, ...sandbox.credentials }, close: async () => undefined },
    events: sink,
    logger,
    runners: coreWorkerRunners({ logger, entry: await testCoreWorkerEntry(), cacheKey: TEST_CACHE_KEY }),
    chooseExportPath: async (defaultPath) => {
      savePath.offered.push(defaultPath)
      return savePath.next
    },
    uiState: backend,
    revealFile: (path) => revealed.push(path),
  })
  cleanups.push(async () => {
    await core.close()
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
    const result = await dispatchInvoke(core.handlers, channel, args, logger)
    results.push(result)
    if (!result.ok) throw Object.assign(new Error(result.error.message), { ipc: result.error })
    return result.value
  }
  return { core, sandbox, events, logs, secrets, backend, invoke, savePath, revealed, results }
}

describe('the app core behind IPC (demo environment, real sandbox)', () => {
  it('signs in, syncs, queries and exports through the contract handlers', async () => {
    const app = await startApp()
    expect(await app.invoke('app:get-info')).toMatchObject({ name: 'RosterDesk', environment: 'demo' })
    expect(await app.invoke('auth:get-state')).toMatchObject({ status: 'signed-out', environment: 'demo' })

    const signedIn = await app.invoke('auth:sign-in')
    expect(signedIn).toMatchObject({ status: 'signed-in', tenantId: 'tenant-demo' })
    expect(app.events.some((e) => e.channel === 'auth:changed')).toBe(true)

    // The answer is the run's id at once; the outcome comes only as `sync:finished` carrying that id.
    const started = (await app.invoke('sync:start')) as { runId: number }
    expect(started).toEqual({ runId: expect.any(Number) })
    expect(app.events.some((e) => e.channel === 'sync:finished')).toBe(false)
    await expect(app.invoke('sync:start')).rejects.toMatchObject({ ipc: { code: 'busy' } })
    await vi.waitFor(() => expect(app.events.some((e) => e.channel === 'sync:finished')).toBe(true), {
      timeout: 20_000,
    })
    const finished = app.events.filter((e) => e.channel === 'sync:finished').map((e) => e.payload)
    expect(finished).toEqual([
      expect.objectContaining({ id: started.runId, status: 'complete', stored: 300, totalCount: 300 }),
    ])
    const progress = app.events.filter((e) => e.channel === 'sync:progress').map((e) => e.payload)
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.every((p) => (p as { runId: number }).runId === started.runId)).toBe(true)

    const all = (await app.invoke('employees:query', { limit: 5, facets: true })) as {
      total: number
      rows: Array<Record<string, unknown>>
      facets: { status: Array<{ value: string; count: number }> }
    }
    expect(all.total).toBe(300)
    expect(all.rows).toHaveLength(5)
    expect(all.facets.status.reduce((sum, f) => sum + f.count, 0)).toBe(300)
    const first = all.rows[0]!
    expect(first).toHaveProperty('employeeNumber')
    const detail = (await app.invoke('employees:get', first['UUID'])) as { row: Record<string, unknown> }
    expect(detail.row).toEqual(first)

    const added = (await app.invoke('employees:changes', 'added', 290, 100)) as {
      total: number
      items: Array<{ UUID: string; name: string }>
    }
    expect(added.total).toBe(300)
    expect(added.items).toHaveLength(10)
    await expect(app.invoke('employees:changes', 'everything', 0, 10)).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await expect(app.invoke('employees:changes', 'added', 0, 5000)).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })

    const columns = (await app.invoke('employees:columns')) as Array<{ key: string; known: boolean }>
    expect(columns.find((c) => c.key === 'UUID')?.known).toBe(true)
    expect(columns.find((c) => c.key === 'hireDate')?.known).toBe(false)

    // The clerk cancels the save dialog: nothing is written and nothing is revealed.
    const exportRequest = { kind: 'view', query: {}, columns: ['lastName', 'firstName'], format: 'csv' }
    expect(await app.invoke('export:start', exportRequest)).toEqual({ status: 'cancelled' })
    expect(await app.invoke('export:show-in-folder')).toBe(false)

    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-export-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    app.savePath.next = join(dir, 'view.csv')
    expect(await app.invoke('export:start', exportRequest)).toEqual({
      status: 'written',
      rows: 300,
      fileName: 'view.csv',
    })
    expect(await app.invoke('export:show-in-folder')).toBe(true)
    expect(app.revealed).toEqual([join(dir, 'view.csv')])
    // The save dialog first offers a bare name; after a file was written, the same name in that folder.
    expect(app.savePath.offered[0]).toMatch(/^Demo – Employees \d{4}-\d{2}-\d{2}\.csv$/)
    app.savePath.next = undefined
    await app.invoke('export:start', exportRequest)
    expect(app.savePath.offered.at(-1)).toBe(join(dir, app.savePath.offered[0]!))

    // Nothing the renderer was given, and no log line, holds a token or the client secret.
    const secrets = [
      await app.secrets.get('accessToken'),
      await app.secrets.get('refreshToken'),
      app.sandbox.credentials.clientSecret,
    ]
    expect(secrets.every((s) => typeof s === 'string' && s.length > 8)).toBe(true)
    const crossed = JSON.stringify([app.results, app.events]) + app.logs.join('\n')
    for (const secret of secrets) expect(crossed).not.toContain(secret)

    expect(await app.invoke('auth:sign-out')).toMatchObject({ status: 'signed-out' })
    // Cached employees stay browsable after signing out.
    expect(((await app.invoke('employees:query', { limit: 1 })) as { total: number }).total).toBe(300)
  })

  it('syncs on its own every N hours once signed in, through the same run as the Sync button', async () => {
    // The wall clock moves when the test says; timers fire when the test says (those due by that clock).
    let offset = 0
    const clock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep }
    const waiting: Array<{ at: number; run: () => void }> = []
    const timers: Timers = {
      after(ms, run) {
        const timer = { at: clock.now() + ms, run }
        waiting.push(timer)
        return () => void waiting.splice(waiting.indexOf(timer), 1)
      },
    }
    const fireDue = (): void => {
      for (const timer of waiting.filter((each) => each.at <= clock.now())) {
        waiting.splice(waiting.indexOf(timer), 1)
        timer.run()
      }
    }
    const app = await startApp({ clock, timers })
    // Off by default: nothing is waiting.
    expect(waiting).toEqual([])
    await app.invoke('settings:update', { syncEveryHours: 1 })
    expect(waiting).toHaveLength(1)

    // Due while signed out: skipped, and nothing is started.
    offset += 3_600_000
    fireDue()
    expect(app.logs).toContain('info Automatic sync (every 1 hour) skipped: not signed in')
    expect(app.events.some((e) => e.channel === 'sync:progress')).toBe(false)

    await app.invoke('auth:sign-in')
    offset += 3_600_000
    fireDue()
    expect(app.logs).toContain('info Automatic sync (every 1 hour): starting')
    // The clerk's Sync meets the automatic run: one run at a time.
    await expect(app.invoke('sync:start')).rejects.toMatchObject({ ipc: { code: 'busy' } })
    await vi.waitFor(() => expect(app.events.some((e) => e.channel === 'sync:finished')).toBe(true), {
      timeout: 20_000,
    })
    const finished = app.events.filter((e) => e.channel === 'sync:finished').map((e) => e.payload)
    expect(finished).toEqual([expect.objectContaining({ status: 'complete', stored: 300 })])
    // The next one is counted from the end of this run, and close() leaves nothing waiting.
    expect(waiting).toHaveLength(1)
    expect(waiting[0]!.at).toBeGreaterThan(clock.now())
    await app.core.close()
    expect(waiting).toEqual([])
  })

  it('tells each run’s start, and skips the sync on launch when it replaces a core process that stopped', async () => {
    const waiting: number[] = []
    const timers: Timers = { after: (ms) => (waiting.push(ms), () => undefined) }
    // The setting on: the launch sync waits its few seconds, unless this app core replaces one that stopped.
    await startApp({ timers }, { syncOnLaunch: true })
    expect(waiting).toEqual([LAUNCH_DELAY_MS])
    waiting.length = 0
    const started: number[] = []
    const app = await startApp(
      { timers, noLaunchSync: true, onSyncStarted: (runId) => started.push(runId) },
      { syncOnLaunch: true },
    )
    expect(waiting).toEqual([])

    await app.invoke('auth:sign-in')
    const { runId } = (await app.invoke('sync:start')) as { runId: number }
    expect(started).toEqual([runId])
    await vi.waitFor(() => expect(app.events.some((e) => e.channel === 'sync:finished')).toBe(true), {
      timeout: 20_000,
    })
  })

  it('refuses a sync before sign-in with a message a clerk can act on', async () => {
    const app = await startApp()
    await expect(app.invoke('sync:start')).rejects.toMatchObject({
      ipc: { code: 'not-signed-in', message: expect.stringMatching(/Sign in/) },
    })
  })

  it('holds the sync to the limits saved in Settings (most employees)', async () => {
    const app = await startApp()
    await app.invoke('settings:update', { maxEmployees: 100 })
    await app.invoke('auth:sign-in')
    await app.invoke('sync:start')
    await vi.waitFor(() => expect(app.events.some((e) => e.channel === 'sync:finished')).toBe(true), {
      timeout: 20_000,
    })
    const finished = app.events.find((e) => e.channel === 'sync:finished')?.payload
    expect(finished).toMatchObject({
      status: 'failed',
      errorCode: 'service',
      error: expect.stringMatching(/claims 300 employees .* more than the 100 RosterDesk is set to accept/),
    })
    await expect(app.invoke('settings:update', { requestTimeoutSeconds: 0 })).rejects.toMatchObject({
      ipc: {
        code: 'validation',
        fieldErrors: {
          requestTimeoutSeconds: 'Longest wait for an answer (seconds) must be a whole number from 1 to 600.',
        },
      },
    })
  })

  it('returns per-field messages for invalid settings and keeps the old ones', async () => {
    const app = await startApp()
    const before = await app.invoke('settings:get')
    await expect(app.invoke('settings:update', { pageSize: 0, concurrency: 99 })).rejects.toMatchObject({
      ipc: {
        code: 'validation',
        fieldErrors: { pageSize: expect.any(String), concurrency: expect.any(String) },
      },
    })
    expect(await app.invoke('settings:get')).toEqual(before)
  })

  it('keeps the client secret write-only: stored, never returned, never logged, never in the settings file', async () => {
    const app = await startApp()
    const secret = 'super-secret-value-123'
    const view = await app.invoke('settings:set-client-secret', secret)
    expect(view).toMatchObject({ hasClientSecret: true, secretStorage: 'memory-only' })
    expect(JSON.stringify(view)).not.toContain(secret)
    expect(JSON.stringify([...app.backend.values])).not.toContain(secret)
    expect(app.logs.join('\n')).not.toContain(secret)
    expect(await app.secrets.get('clientSecret')).toBe(secret)
  })

  it('rejects requests that do not match the contract without running anything', async () => {
    const app = await startApp()
    await expect(app.invoke('employees:query', { limit: 'all' })).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await expect(
      // Any characters name a column (decision 054); a name longer than a cell holds is outside the contract.
      app.invoke('employees:query', { sort: { column: 'x'.repeat(32_768), order: 'asc' } }),
    ).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await expect(app.invoke('shell:open', 'https://evil.example')).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await expect(app.invoke('settings:update', { clientSecret: 'x' })).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
  })
})
