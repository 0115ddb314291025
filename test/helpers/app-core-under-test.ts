import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, vi } from 'vitest'
import type { SyncRunSummary } from '../../src/shared/domain/sync'
import type { EventChannel } from '../../src/shared/ipc-contract'
import { createAppCore, type AppCore } from '../../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../../src/main/core-host/worker/worker-runners'
import { dispatchInvoke, type EventSink } from '../../src/main/core/ipc/dispatch'
import { createLogger } from '../../src/main/core/log/logger'
import type { PolicyInForce } from '../../src/main/core/policy/policy-in-force'
import type { SecretVault } from '../../src/main/core/secrets/secret-store'
import type { AppCacheKey } from '../../src/main/core/secrets/app-cache-key'
import type { SessionRunners } from '../../src/main/core/session/session-runners'
import type { Clock } from '../../src/main/core/clock'
import type { ClipboardContent } from '../../src/main/core/export/copy-rows'
import type { MemoryKeyValueBackend } from '../../src/main/core/settings/settings-store'
import { SettingsStore } from '../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../src/main/sandbox'
import { answerConsent } from './consent'
import { startTestSandbox } from './sandbox'
import { aboutCells, readXlsx } from './xlsx-reader'
import { testCoreWorkerEntry } from './core-worker-bundle'
import { TEST_CACHE_KEY } from './test-cache-key'

/**
 * The app core as Electron's main builds it, over a data folder, a settings backend and a secret vault, driven
 * through dispatchInvoke as the window drives it: for the tests of profiles and of a profile's source. Everything
 * started here is closed after each test.
 */
export interface App {
  core: AppCore
  events: Array<{ channel: EventChannel; payload: unknown }>
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  /** The path the next save dialog answers, and how many save dialogs were asked for. */
  savePath: { next: string | undefined; asked: number }
  /** Every line the core logged, as `level: text`. */
  log: string[]
  close(): Promise<void>
}

/**
 * What a test may give the core besides its files: the machine policy in force, its own clock, and a list that
 * collects every line the app logs (as `level text`).
 */
export interface AppOptions {
  readonly policy?: PolicyInForce
  readonly clock?: Clock
  readonly log?: string[]
  /** The app's version (appInfo.version); absent: 0.1.0. */
  readonly version?: string
  /** Wraps the core worker's runners (a test recording what the sessions ask of them). */
  readonly runners?: (onWorker: SessionRunners) => SessionRunners
  /** Where the core looks for print pages left behind (AppCoreDeps.tempDir); absent: os.tmpdir(). */
  readonly tempDir?: string
  /** Pages "Print…" hands the shell, which answers as if the clerk printed them; absent: printing not offered. */
  readonly printed?: Array<{ readonly html: string; readonly title: string }>
  /** What the table's Copy writes on the system clipboard, newest last; absent: no clipboard. */
  readonly clipboard?: ClipboardContent[]
  /** The user's cache key and where it is kept (app-cache-key.ts); absent: the tests' key, in the keychain. */
  readonly cacheKey?: AppCacheKey
}

/** Registered on the importing test file (each file evaluates this module afresh): what its tests started. */
/**
 * Undoes what a helper started once the test that called it ends (vitest runs these last first). Registered on the
 * test, not in a module-level afterEach: the unit project runs without isolation, so this module is evaluated once
 * per worker and a hook it registered would belong to the first file that imported it only.
 */
function cleanUpAfterTest(cleanup: () => Promise<void> | void): void {
  onTestFinished(async () => {
    await cleanup()
  })
}

export async function sandbox(options: { size: number; seed: number }): Promise<SandboxHandle> {
  const handle = await startTestSandbox(options)
  cleanUpAfterTest(() => handle.close())
  return handle
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-profiles-'))
  cleanUpAfterTest(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * The app core as Electron's main builds it, over a data folder, a settings backend and a secret vault; with
 * `options.policy`, the machine policy the core process would have read, and `options.log` collecting every
 * line the app logs.
 */
export async function startApp(
  demo: SandboxHandle,
  dataDir: string,
  backend: MemoryKeyValueBackend,
  secrets: SecretVault,
  options: AppOptions = {},
): Promise<App> {
  const events: App['events'] = []
  const savePath: App['savePath'] = { next: undefined, asked: 0 }
  const sink: EventSink = { emit: (channel, payload) => events.push({ channel, payload }) }
  const log: string[] = []
  const logger = createLogger((level, text) => {
    log.push(`${level}: ${text}`)
    options.log?.push(`${level} ${text}`)
  })
  const cacheKey = options.cacheKey ?? { key: TEST_CACHE_KEY, kept: 'keychain' }
  const core = await createAppCore({
    cacheKey: cacheKey.key,
    cacheKeyKept: cacheKey.kept,
    appInfo: { name: 'RosterDesk', version: options.version ?? '0.1.0', platform: 'linux' },
    dataDir,
    settings: new SettingsStore(backend, options.policy),
    secrets,
    fetch: (input, init) => fetch(input, init),
    openExternal: async (url) => {
      const callback = await answerConsent(url, 'approve')
      setTimeout(() => void core.handleCallbackUrl(callback), 0)
    },
    demo: { environment: { baseUrl: demo.baseUrl, ...demo.credentials }, close: async () => undefined },
    events: sink,
    logger,
    runners: (options.runners ?? ((onWorker) => onWorker))(
      coreWorkerRunners({ logger, entry: await testCoreWorkerEntry(), cacheKey: cacheKey.key }),
    ),
    chooseExportPath: async () => {
      savePath.asked++
      return savePath.next
    },
    uiState: backend,
    revealFile: () => undefined,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.tempDir === undefined ? {} : { tempDir: options.tempDir }),
    ...(options.printed === undefined
      ? {}
      : {
          printPage: async (page) => {
            options.printed?.push(page)
            return 'printed' as const
          },
        }),
    ...(options.clipboard === undefined
      ? {}
      : { writeClipboard: async (content) => void options.clipboard?.push(content) }),
  })
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await core.close()
  }
  cleanUpAfterTest(close)
  const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
    const result = await dispatchInvoke(core.handlers, channel, args, logger)
    if (!result.ok) throw Object.assign(new Error(result.error.message), { ipc: result.error })
    return result.value
  }
  return { core, events, invoke, savePath, log, close }
}

export async function syncNow(app: App): Promise<SyncRunSummary> {
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

export async function uuids(app: App): Promise<Set<string>> {
  const result = (await app.invoke('employees:query', { limit: 1000 })) as {
    total: number
    rows: Array<Record<string, unknown>>
  }
  return new Set(result.rows.map((row) => String(row['UUID'])))
}

export async function aboutOfExport(app: App, file: string): Promise<Map<string, string>> {
  app.savePath.next = file
  const request = { kind: 'view', query: {}, columns: ['lastName'], format: 'xlsx' }
  expect(await app.invoke('export:start', request)).toMatchObject({ status: 'written' })
  const cells = aboutCells(await readXlsx(file))
  return new Map([...cells].map(([label, cell]) => [label, String(cell.v)]))
}
