import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ExportFormat } from '../../../shared/domain'
import type { FetchLike } from '../api/fetch-like'
import { AuthService } from '../auth/auth-service'
import { openCacheDatabase, type CacheDatabase } from '../cache/cache-database'
import { systemClock, systemTimers, type Clock, type Timers } from '../clock'
import { defaultExportFileName } from '../export/export-file-name'
import { ExportMemory } from '../export/export-memory'
import { ExportService } from '../export/export-service'
import type { EventSink, InvokeHandlers } from '../ipc/dispatch'
import type { Logger } from '../log/logger'
import { searchService } from '../lookup/service-search'
import { QueryEngine } from '../query/query-engine'
import type { SecretStore } from '../secrets/secret-store'
import { resolveEnvironment, type DemoEnvironment } from '../settings/resolve-environment'
import { MemoryKeyValueBackend, type KeyValueBackend, type SettingsStore } from '../settings/settings-store'
import { SyncService } from '../sync/sync-service'
import { ChangeHistory } from '../changes/change-history'
import { beginAppSync } from './begin-sync'
import { createHandlers } from './handlers'
import { SyncScheduler } from './sync-scheduler'

export interface AppCoreDeps {
  readonly appInfo: { readonly name: string; readonly version: string; readonly platform: string }
  /** Per-user data folder; the employee cache lives in `<dataDir>/cache`. */
  readonly dataDir: string
  readonly settings: SettingsStore
  readonly secrets: SecretStore
  readonly fetch: FetchLike
  readonly clock?: Clock
  /** Timers for automatic syncs (the system's unless a test drives them). */
  readonly timers?: Timers
  /** Opens the system browser (Electron: shell.openExternal). Only ever given the authorize URL. */
  readonly openExternal: (url: string) => Promise<void>
  /** The in-app sandbox Demo talks to, already started. */
  readonly demo: { readonly environment: DemoEnvironment; close(): Promise<void> }
  readonly events: EventSink
  readonly logger: Logger
  /** Native save dialog opened at `defaultPath`; undefined when the clerk cancels it. */
  readonly chooseExportPath: (defaultPath: string, format: ExportFormat) => Promise<string | undefined>
  /** Where small UI memories (the last export folder) persist; the settings' backend in the app. */
  readonly uiState?: KeyValueBackend
  /** Reveals a file in Explorer/Finder. */
  readonly revealFile: (path: string) => void
  /** Jitter source for sync backoff. */
  readonly random?: () => number
}

export interface AppCore {
  readonly handlers: InvokeHandlers
  readonly auth: AuthService
  readonly sync: SyncService
  readonly queries: QueryEngine
  readonly exports: ExportService
  /** For deep links the shell receives (custom-scheme sign-in callbacks). */
  handleCallbackUrl(url: string): Promise<boolean>
  close(): Promise<void>
}

export const CACHE_FILE_NAME = 'employees.sqlite'

/**
 * The composition root of everything that is not Electron: the Electron main and the browser-test harness both
 * build the app from here, so the renderer is tested against exactly the services it runs on.
 */
export async function createAppCore(deps: AppCoreDeps): Promise<AppCore> {
  const clock = deps.clock ?? systemClock
  const environment = () => resolveEnvironment(deps.settings.get(), deps.demo.environment)
  const auth = await AuthService.create({
    fetch: deps.fetch,
    clock,
    secrets: deps.secrets,
    environment,
    openExternal: deps.openExternal,
    logger: deps.logger,
  })

  const cacheDir = join(deps.dataDir, 'cache')
  mkdirSync(cacheDir, { recursive: true })
  const cache: CacheDatabase = openCacheDatabase(join(cacheDir, CACHE_FILE_NAME))
  const sync = new SyncService({
    cache,
    fetch: deps.fetch,
    tokens: auth.tokens,
    clock,
    random: deps.random ?? Math.random,
    logger: deps.logger,
  })
  const queries = new QueryEngine(cache)
  const changes = new ChangeHistory({ cache, queries })
  const exports = new ExportService({
    queries,
    changes,
    clock,
    context: () => {
      const resolved = environment()
      const lastComplete = sync.getStatus().lastComplete
      // The scope of the sync that filled the cache (its run log entry), not today's setting.
      const statusFilter = lastComplete ? cache.runLog.settingsOf(lastComplete.id)?.statusFilter : undefined
      return {
        environment: resolved.environment,
        tenantId: resolved.tenantId,
        syncedAt: lastComplete ? new Date(lastComplete.endedAt) : null,
        ...(statusFilter === undefined ? {} : { statusFilter }),
        appVersion: deps.appInfo.version,
      }
    },
  })

  // Automatic syncs (on launch, every N hours) begin runs exactly as the Sync button does.
  const scheduler = new SyncScheduler({
    clock,
    timers: deps.timers ?? systemTimers,
    settings: () => deps.settings.get(),
    signedIn: () => auth.getState().status === 'signed-in',
    running: () => sync.isRunning,
    begin: () => beginAppSync({ auth, settings: deps.settings, environment, sync }),
    logger: deps.logger,
  })

  const unsubscribe = [
    // Tokens are bound to one service and client; reload re-reads which ones apply after a settings change.
    deps.settings.onChange(() => void auth.reload()),
    deps.settings.onChange(() => scheduler.settingsChanged()),
    auth.onChange((state) => deps.events.emit('auth:changed', state)),
    sync.onProgress((progress) => deps.events.emit('sync:progress', progress)),
    sync.onFinished((summary) => {
      deps.logger.info(`Sync ${summary.status}: ${summary.stored} of ${summary.totalCount} employees`)
      deps.events.emit('sync:finished', summary)
      scheduler.runEnded()
    }),
  ]

  // Live lookups end with the app: quitting must not wait on a slow service, nor a lookup read a closed cache.
  const lookups = new AbortController()
  const handlers = createHandlers({
    appInfo: deps.appInfo,
    settings: deps.settings,
    secrets: deps.secrets,
    auth,
    sync,
    queries,
    changes,
    exports,
    exportMemory: new ExportMemory(deps.uiState ?? new MemoryKeyValueBackend()),
    environment,
    events: deps.events,
    clock,
    chooseExportPath: deps.chooseExportPath,
    revealFile: deps.revealFile,
    defaultExportFileName,
    searchService: (query) =>
      searchService(
        {
          fetch: deps.fetch,
          tokens: auth.tokens,
          clock,
          random: deps.random ?? Math.random,
          environment,
          isSaved: (uuid) => queries.getEmployee(uuid) !== null,
        },
        query,
        lookups.signal,
      ),
  })

  scheduler.start()

  let closed = false
  return {
    handlers,
    auth,
    sync,
    queries,
    exports,
    handleCallbackUrl: (url) => auth.handleCallbackUrl(url),
    async close() {
      if (closed) return
      closed = true
      scheduler.stop()
      for (const stop of unsubscribe) stop()
      // A quit during a sync or an export cancels it and waits until it let go of the cache: the sync keeps the
      // previous snapshot, the export removes its partial file, and neither touches a closed database.
      sync.cancel()
      exports.cancel()
      lookups.abort()
      auth.cancelSignIn()
      await Promise.all([sync.idle(), exports.idle()])
      cache.close()
      await deps.demo.close()
    },
  }
}
