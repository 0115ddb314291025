import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ChangeHistoryEntry, ChangeListPage } from '../../../../../src/shared/domain/changes'
import type { SyncRunSummary } from '../../../../../src/shared/domain/sync'
import { createAppCore, type AppCore } from '../../../../../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../../../../../src/main/core-host/worker/worker-runners'
import { dispatchInvoke } from '../../../../../src/main/core/ipc/dispatch'
import { silentLogger } from '../../../../../src/main/core/log/logger'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../../src/main/sandbox'
import { answerConsent } from '../../../../helpers/consent'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * The change report's channels through the contract, as the renderer reaches them: arguments checked by
 * dispatchInvoke, the history and its windows from the real core, and "Export changes…" through main's save dialog.
 */
describe('changes:history, changes:list and changes:export behind IPC', () => {
  let sandbox: SandboxHandle
  let core: AppCore
  let dataDir: string
  const finished: SyncRunSummary[] = []
  const offered: string[] = []
  let savePath: string | undefined
  const revealed: string[] = []

  const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
    const result = await dispatchInvoke(core.handlers, channel, args, silentLogger)
    if (!result.ok) throw Object.assign(new Error(result.error.message), { ipc: result.error })
    return result.value
  }
  const sync = async (): Promise<SyncRunSummary> => {
    const { runId } = (await invoke('sync:start')) as { runId: number }
    await vi.waitFor(() => expect(finished.some((summary) => summary.id === runId)).toBe(true), {
      timeout: 20_000,
    })
    return finished.find((summary) => summary.id === runId)!
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ size: 300, seed: 8 })
    dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-changes-ipc-'))
    core = await createAppCore({
      cacheKey: TEST_CACHE_KEY,
      appInfo: { name: 'RosterDesk', version: '0.1.0', platform: 'linux' },
      dataDir,
      settings: new SettingsStore(new MemoryKeyValueBackend()),
      secrets: new MemorySecretStore(),
      fetch: (input, init) => fetch(input, init),
      openExternal: async (url) => {
        const callback = await answerConsent(url, 'approve')
        setTimeout(() => void core.handleCallbackUrl(callback), 0)
      },
      demo: {
        environment: { baseUrl: sandbox.baseUrl, ...sandbox.credentials },
        close: async () => undefined,
      },
      events: {
        emit: (channel, payload) => {
          if (channel === 'sync:finished') finished.push(payload as SyncRunSummary)
        },
      },
      logger: silentLogger,
      runners: coreWorkerRunners({
        logger: silentLogger,
        entry: await testCoreWorkerEntry(),
        cacheKey: TEST_CACHE_KEY,
      }),
      chooseExportPath: async (defaultPath) => {
        offered.push(defaultPath)
        return savePath
      },
      revealFile: (path) => revealed.push(path),
    })
    await invoke('auth:sign-in')
    await sync()
    sandbox.setBehaviours({
      mutate: { rows: 7, listRequests: 1 },
      churn: { add: 2, remove: 1, listRequests: 1 },
    })
    await sync()
  }, 60_000)

  afterAll(async () => {
    await core?.close()
    await sandbox?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('lists the syncs, newest first, with where each read from, and their entries a window at a time', async () => {
    const history = (await invoke('changes:history')) as ChangeHistoryEntry[]
    expect(history).toHaveLength(2)
    const [latest, first] = history
    expect(first).toMatchObject({ firstSync: true, entriesKept: false, employeeCount: 300 })
    expect(latest).toMatchObject({
      firstSync: false,
      entriesKept: true,
      added: 2,
      removed: 1,
      environment: 'demo',
      tenantId: 'tenant-demo',
      serviceAddress: sandbox.baseUrl,
    })
    const changed = (await invoke('changes:list', latest!.runId, 'changed', 0, 5)) as ChangeListPage
    expect(changed.total).toBe(latest!.changed)
    expect(changed.items[0]!.changes!.map((change) => change.field)).toEqual(['employeeStatus', 'payCycleId'])
    // The latest sync's lists are also what the older channel answers.
    expect(await invoke('employees:changes', 'removed', 0, 10)).toEqual(
      await invoke('changes:list', latest!.runId, 'removed', 0, 10),
    )
  })

  it('searches a list by name or number and sorts it by a column, the total counting those found', async () => {
    const [latest] = (await invoke('changes:history')) as ChangeHistoryEntry[]
    const runId = latest!.runId
    const all = (await invoke('changes:list', runId, 'changed', 0, 100)) as ChangeListPage
    const someone = all.items[3]!
    // A name word's start, in any case and without its accents, finds them; so does the number's start.
    const byName = (await invoke('changes:list', runId, 'changed', 0, 100, {
      search: someone.lastName!.slice(0, 3).toUpperCase(),
    })) as ChangeListPage
    expect(byName.items.map((entry) => entry.UUID)).toContain(someone.UUID)
    expect(byName.total).toBe(byName.items.length)
    expect(
      byName.items.every(
        (entry) =>
          entry.lastName!.toLowerCase().startsWith(someone.lastName!.slice(0, 3).toLowerCase()) ||
          entry.firstName!.toLowerCase().startsWith(someone.lastName!.slice(0, 3).toLowerCase()),
      ),
    ).toBe(true)
    const byNumber = (await invoke('changes:list', runId, 'changed', 0, 100, {
      search: someone.employeeNumber,
    })) as ChangeListPage
    expect(byNumber.items.map((entry) => entry.UUID)).toEqual([someone.UUID])
    expect(await invoke('changes:list', runId, 'changed', 0, 100, { search: 'zzz-nobody 100%_' })).toEqual({
      total: 0,
      items: [],
    })
    // Sorted by number, descending; by name descending is the name order reversed.
    const numbers = (await invoke('changes:list', runId, 'changed', 0, 100, {
      sort: { column: 'number', order: 'desc' },
    })) as ChangeListPage
    const expected = all.items
      .map((entry) => entry.employeeNumber!)
      .sort()
      .reverse()
    expect(numbers.items.map((entry) => entry.employeeNumber)).toEqual(expected)
    const reversed = (await invoke('changes:list', runId, 'changed', 0, 100, {
      sort: { column: 'name', order: 'desc' },
    })) as ChangeListPage
    expect(reversed.items.map((entry) => entry.UUID)).toEqual(all.items.map((entry) => entry.UUID).reverse())
    await expect(
      invoke('changes:list', runId, 'changed', 0, 10, { sort: { column: 'salary', order: 'asc' } }),
    ).rejects.toMatchObject({ ipc: { code: 'validation' } })
  })

  it('refuses arguments the contract does not allow, and a sync not in the history', async () => {
    const [latest] = (await invoke('changes:history')) as ChangeHistoryEntry[]
    for (const args of [
      [latest!.runId, 'everything', 0, 10],
      [latest!.runId, 'added', -1, 10],
      [latest!.runId, 'added', 0, 5000],
      [0, 'added', 0, 10],
      ['1', 'added', 0, 10],
    ]) {
      await expect(invoke('changes:list', ...args)).rejects.toMatchObject({ ipc: { code: 'validation' } })
    }
    await expect(invoke('changes:export', { runId: latest!.runId, format: 'pdf' })).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await expect(
      invoke('changes:export', { runId: latest!.runId, format: 'csv', path: '/tmp/x' }),
    ).rejects.toMatchObject({ ipc: { code: 'validation' } })
    const dialogs = offered.length
    await expect(invoke('changes:list', latest!.runId + 50, 'added', 0, 10)).rejects.toMatchObject({
      ipc: { code: 'not-found' },
    })
    await expect(
      invoke('changes:export', { runId: latest!.runId + 50, format: 'xlsx' }),
    ).rejects.toMatchObject({
      ipc: { code: 'not-found' },
    })
    expect(offered).toHaveLength(dialogs)
  })

  it('exports through main’s save dialog, named for the sync, and shows the file', async () => {
    const [latest] = (await invoke('changes:history')) as ChangeHistoryEntry[]
    savePath = undefined
    expect(await invoke('changes:export', { runId: latest!.runId, format: 'xlsx' })).toEqual({
      status: 'cancelled',
    })
    expect(offered.at(-1)).toMatch(/^Demo – Changes \d{4}-\d\d-\d\d \d{4}\.xlsx$/)

    savePath = join(dataDir, 'reconcile.csv')
    const written = (await invoke('changes:export', { runId: latest!.runId, format: 'csv' })) as {
      rows: number
    }
    expect(written).toMatchObject({ status: 'written', fileName: 'reconcile.csv' })
    expect(written.rows).toBe(latest!.added + latest!.removed + latest!.changed * 2)
    // The rows by kind, from the export itself: a changed employee takes a row per changed field (two here).
    expect(written).toMatchObject({
      changes: {
        added: latest!.added,
        removed: latest!.removed,
        changed: latest!.changed,
        changedRows: latest!.changed * 2,
      },
    })
    expect(existsSync(savePath)).toBe(true)
    expect(await invoke('export:show-in-folder')).toBe(true)
    expect(revealed).toEqual([savePath])
  })
})
