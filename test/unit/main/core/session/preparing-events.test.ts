import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ProfileList } from '../../../../../src/shared/domain/profiles'
import type { QueryResult } from '../../../../../src/shared/domain/query'
import type { SyncRunSummary } from '../../../../../src/shared/domain/sync'
import { eventChannels, type EventChannel } from '../../../../../src/shared/ipc-contract'
import { createAppCore, type AppCore } from '../../../../../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../../../../../src/main/core-host/worker/worker-runners'
import { dispatchInvoke } from '../../../../../src/main/core/ipc/dispatch'
import { createLogger } from '../../../../../src/main/core/log/logger'
import type { ColumnBuilder } from '../../../../../src/main/core/query/column-builds'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../../src/main/sandbox'
import { answerConsent } from '../../../../helpers/consent'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/** A build the test holds back: asked for yet, and let go on to the worker. */
interface Gate {
  asked: boolean
  readonly held: Promise<void>
  letGo(): void
}

function gate(): Gate {
  let letGo: () => void = () => undefined
  const held = new Promise<void>((resolve) => (letGo = resolve))
  return { asked: false, held, letGo }
}

/**
 * `query:preparing` from the app core as Electron's main builds it: the worker's builds of the columns in
 * `gates` are held until the test lets them go, so what the window is told while they are built, and after a
 * profile switch, can be read.
 */
describe('query:preparing', () => {
  let sandbox: SandboxHandle
  let dataDir: string
  let core: AppCore
  const events: Array<{ channel: EventChannel; payload: unknown }> = []
  const gates = new Map<string, Gate>([
    ['hireDate', gate()],
    ['email', gate()],
  ])
  const logger = createLogger(() => undefined)

  const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
    const result = await dispatchInvoke(core.handlers, channel, args, logger)
    if (!result.ok) throw new Error(result.error.message)
    return result.value
  }
  const preparingSent = () =>
    events.filter((event) => event.channel === 'query:preparing').map((event) => event.payload)

  beforeAll(async () => {
    sandbox = await startTestSandbox({ size: 200, seed: 3 })
    dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-preparing-'))
    const hold = async (column: string): Promise<void> => {
      const held = gates.get(column)
      if (held === undefined) return
      held.asked = true
      await held.held
    }
    const holding = (onWorker: ColumnBuilder): ColumnBuilder => ({
      searchIndex: (path) => onWorker.searchIndex(path),
      uuidParts: (source) => onWorker.uuidParts(source),
      columnIndex: async (source, build) => {
        await hold(build.column)
        return onWorker.columnIndex(source, build)
      },
      sortOrder: async (source, build) => {
        await hold(build.column)
        return onWorker.sortOrder(source, build)
      },
    })
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
      events: { emit: (channel, payload) => events.push({ channel, payload }) },
      logger,
      runners: coreWorkerRunners({ logger, entry: await testCoreWorkerEntry(), cacheKey: TEST_CACHE_KEY }),
      chooseExportPath: async () => undefined,
      revealFile: () => undefined,
      columnBuilder: holding,
    })
    await invoke('auth:sign-in')
    const { runId } = (await invoke('sync:start')) as { runId: number }
    await vi.waitFor(
      () =>
        expect(
          events.some(
            (event) => event.channel === 'sync:finished' && (event.payload as SyncRunSummary).id === runId,
          ),
        ).toBe(true),
      { timeout: 20_000 },
    )
  }, 60_000)

  afterAll(async () => {
    for (const held of gates.values()) held.letGo()
    await core?.close()
    await sandbox?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('says what is being built while other queries are answered, then sends [] when done', async () => {
    // The new snapshot's index was opened (and said so) by the first query after the sync.
    expect(((await invoke('employees:query', { limit: 5 })) as QueryResult).total).toBe(200)
    expect(preparingSent()).toContainEqual([{ what: 'index', column: null, label: null }])
    expect(preparingSent().at(-1)).toEqual([])

    const sorted = invoke('employees:query', { sort: { column: 'hireDate', order: 'asc' }, limit: 5 })
    await vi.waitFor(() => expect(gates.get('hireDate')!.asked).toBe(true))
    const sent = preparingSent().at(-1)
    expect(sent).toEqual([{ what: 'sort', column: 'hireDate', label: 'Hire date' }])
    expect(eventChannels['query:preparing'].safeParse(sent).success).toBe(true)
    // Meanwhile the thread answers: a query needing nothing built, and an employee's details.
    const other = (await invoke('employees:query', { text: 'a', limit: 5 })) as QueryResult
    expect(other.total).toBeGreaterThan(0)
    expect(await invoke('employees:get', String(other.rows[0]!['UUID']))).not.toBeNull()

    gates.get('hireDate')!.letGo()
    expect(((await sorted) as QueryResult).rows).toHaveLength(5)
    expect(preparingSent().at(-1)).toEqual([])
  })

  it('sends [] when the profile changes mid-build, and nothing when the old profile’s build ends', async () => {
    const list = (await invoke('profiles:create', 'Other')) as ProfileList
    const other = list.profiles.find((profile) => profile.name === 'Other')!
    // An e-mail index for profile 1, left building while the clerk switches.
    const building = invoke('employees:query', { column: 'email', text: 'a', limit: 5 }).catch(
      () => undefined,
    )
    await vi.waitFor(() =>
      expect(preparingSent().at(-1)).toEqual([{ what: 'search', column: 'email', label: 'Email' }]),
    )
    events.length = 0
    await invoke('profiles:switch', other.id)
    gates.get('email')!.letGo()
    await building
    // Nothing of profile 1's work stays on screen, and its build ending says nothing to profile 2's window.
    expect(events.map((event) => event.channel)).toEqual([
      'query:preparing',
      'profiles:changed',
      'auth:changed',
    ])
    expect(preparingSent()).toEqual([[]])
  })
})
