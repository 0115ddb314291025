import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ExportFormat, PreparingWork, Settings } from '../../shared/domain'
import type { FetchLike } from '../core/api/fetch-like'
import { AuthService } from '../core/auth/auth-service'
import { openCacheDatabase, type CacheDatabase } from '../core/cache/cache-database'
import { savedEmployeeCount } from '../core/cache/saved-employee-count'
import { systemClock, systemTimers, type Clock, type Timers } from '../core/clock'
import { defaultExportFileName } from '../core/export/export-file-name'
import { ExportMemory } from '../core/export/export-memory'
import { ExportService } from '../core/export/export-service'
import type { PagePrinter } from '../core/export/print-view'
import type { EventSink, InvokeHandlers } from '../core/ipc/dispatch'
import type { Logger } from '../core/log/logger'
import { searchService } from '../core/lookup/service-search'
import type { ColumnBuilder } from '../core/query/column-builds'
import { QueryEngine } from '../core/query/query-engine'
import { deleteProfileSecrets, profileSecrets, type SecretVault } from '../core/secrets/secret-store'
import { resolveEnvironment, type DemoEnvironment } from '../core/settings/resolve-environment'
import {
  CACHE_FILE_NAME,
  FIRST_PROFILE_ID,
  profileCacheDir,
  profileDataDir,
} from '../core/settings/profile-store'
import {
  MemoryKeyValueBackend,
  type KeyValueBackend,
  type SettingsStore,
} from '../core/settings/settings-store'
import { SyncService } from '../core/sync/sync-service'
import type { CoreJobs } from './worker/core-jobs'
import { workerColumnBuilder } from './worker/worker-column-builder'
import {
  workerChangesExportOffload,
  workerExportOffload,
  workerExportPreparer,
  workerPrintOffload,
} from './worker/worker-exports'
import { workerSyncRunner } from './worker/worker-sync'
import { CORE_WORKER_IDLE_STOP_MS, coreWorkerEntry } from './worker/worker-entry'
import { WorkerHost, type WorkerEntry } from './worker/worker-host'
import { ChangeHistory } from '../core/changes/change-history'
import { RosterDeskError } from '../core/errors'
import { beginAppSync } from '../core/app/begin-sync'
import { createHandlers, type HandlerDeps } from '../core/app/handlers'
import { profileList } from '../core/app/profile-handlers'
import { SyncScheduler } from '../core/app/sync-scheduler'

export interface AppCoreDeps {
  readonly appInfo: { readonly name: string; readonly version: string; readonly platform: string }
  /** Per-user data folder; each profile's employee cache lives in `profileCacheDir(dataDir, id)`. */
  readonly dataDir: string
  /** The active profile's settings, and every profile (`settings.profiles`). */
  readonly settings: SettingsStore
  /** Every profile's secrets; each profile's services see only its own (`profileSecrets`). */
  readonly secrets: SecretVault
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
  /** Prints a generated page through the system print dialog (the shell's print window); absent: not offered. */
  readonly printPage?: PagePrinter
  /** Jitter source for sync backoff. */
  readonly random?: () => number
  /** The core worker's code (workers/worker-entry.ts finds the built file or the source by default). */
  readonly coreWorker?: WorkerEntry
  /**
   * Wraps the core worker's first-use builds (the browser tests hold one back, to see the window while a sort is
   * being prepared); absent: the worker's builder as it is.
   */
  readonly columnBuilder?: (onWorker: ColumnBuilder) => ColumnBuilder
}

export interface AppCore {
  readonly handlers: InvokeHandlers
  /** The services below are the active profile's, and change when it does (`switchProfile`). */
  readonly auth: AuthService
  readonly sync: SyncService
  readonly queries: QueryEngine
  readonly exports: ExportService
  /** For deep links the shell receives (custom-scheme sign-in callbacks). */
  handleCallbackUrl(url: string): Promise<boolean>
  /** Makes another profile active (what `profiles:switch` runs). */
  switchProfile(id: string): Promise<void>
  close(): Promise<void>
}

/** Everything that belongs to one profile: its sign-in, its cache and the services over it. */
interface ProfileSession {
  readonly profileId: string
  readonly auth: AuthService
  readonly sync: SyncService
  readonly queries: QueryEngine
  readonly changes: ChangeHistory
  readonly exports: ExportService
  readonly searchService: HandlerDeps['searchService']
  /** Employees its cache holds now. */
  employeeCount(): number
  close(): Promise<void>
}

/**
 * The composition root of everything that is not Electron: the Electron main and the browser-test harness both
 * build the app from here, so the renderer is tested against exactly the services it runs on. Services are built
 * per profile (`openSession`); the handlers read whichever session is current, so switching profile swaps
 * every service at once and no channel can answer from another profile's cache or tokens.
 */
export async function createAppCore(deps: AppCoreDeps): Promise<AppCore> {
  const clock = deps.clock ?? systemClock
  const profiles = deps.settings.profiles
  const environment = () => resolveEnvironment(deps.settings.get(), deps.demo.environment)
  // The active profile's count from its open cache; another's from its catalog, read without opening it.
  const employeeCount = (id: string): number | undefined =>
    id === session.profileId
      ? session.employeeCount()
      : savedEmployeeCount(join(profileCacheDir(deps.dataDir, id), CACHE_FILE_NAME))
  const tenantOf = (settings: Settings): string =>
    resolveEnvironment(settings, deps.demo.environment).tenantId
  const emitProfiles = () =>
    deps.events.emit('profiles:changed', profileList(profiles, { employeeCount, tenantOf }))
  // Heavy work runs on the core worker so this thread, which answers IPC, never waits on it (ARCHITECTURE,
  // "Threads"); one worker serves every profile's session.
  const worker = new WorkerHost<CoreJobs>(deps.coreWorker ?? coreWorkerEntry(), {
    name: 'core worker',
    logger: deps.logger,
    idleStopMs: CORE_WORKER_IDLE_STOP_MS,
  })
  // Only the active profile's engine speaks for the window, and an empty list is sent only to clear a shown one:
  // after a switch nothing of the closed profile's work stays on screen.
  let activeQueries: QueryEngine | undefined
  let preparingShown = false
  const emitPreparing = (from: QueryEngine, preparing: PreparingWork[]): void => {
    if (from !== activeQueries || (preparing.length === 0 && !preparingShown)) return
    preparingShown = preparing.length > 0
    deps.events.emit('query:preparing', preparing)
  }

  async function openSession(profileId: string): Promise<ProfileSession> {
    const auth = await AuthService.create({
      fetch: deps.fetch,
      clock,
      secrets: profileSecrets(deps.secrets, profileId, FIRST_PROFILE_ID),
      environment,
      openExternal: deps.openExternal,
      logger: deps.logger,
    })

    const cacheDir = profileCacheDir(deps.dataDir, profileId)
    mkdirSync(cacheDir, { recursive: true })
    const cache: CacheDatabase = openCacheDatabase(join(cacheDir, CACHE_FILE_NAME), { logger: deps.logger })
    const sync = new SyncService(
      {
        cache,
        fetch: deps.fetch,
        tokens: auth.tokens,
        clock,
        random: deps.random ?? Math.random,
        logger: deps.logger,
      },
      // The worker runs on the system's clock and jitter; a core given its own (a test setting the time) syncs
      // on this thread, where they apply.
      deps.clock === undefined && deps.random === undefined
        ? workerSyncRunner(worker, { cache, fetch: deps.fetch, tokens: auth.tokens, logger: deps.logger })
        : undefined,
    )
    const onWorker = workerColumnBuilder(worker)
    const queries: QueryEngine = new QueryEngine(cache, {
      builder: deps.columnBuilder?.(onWorker) ?? onWorker,
      logger: deps.logger,
      onPreparing: (preparing) => emitPreparing(queries, preparing),
    })
    activeQueries = queries
    emitPreparing(queries, [])
    // The saved employees' index starts loading on the worker now, before the window asks for its first rows; a
    // cache that cannot be read says so at that first query.
    queries.open().catch(() => undefined)
    const changes = new ChangeHistory({ cache, queries })
    const exports = new ExportService({
      queries,
      changes,
      clock,
      logger: deps.logger,
      offload: workerExportOffload(worker, cache),
      offloadChanges: workerChangesExportOffload(worker),
      offloadPrint: workerPrintOffload(worker, cache),
      prepareOffload: workerExportPreparer(worker),
      context: () => {
        const resolved = environment()
        const lastComplete = sync.getStatus().lastComplete
        // Where the sync that filled the cache read from (its run log entry), not today's setting: a file made
        // after the settings changed still names the data's real origin.
        const run = lastComplete ? cache.runLog.settingsOf(lastComplete.id) : undefined
        return {
          profile: profiles.get(profileId).name,
          environment: run?.environment ?? resolved.environment,
          tenantId: run?.tenantId ?? resolved.tenantId,
          syncedAt: lastComplete ? new Date(lastComplete.endedAt) : null,
          ...(run?.statusFilter === undefined ? {} : { statusFilter: run.statusFilter }),
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

    // Live lookups end with the session: neither a quit nor a switch waits on a slow service, nor may a lookup
    // read a closed cache.
    const lookups = new AbortController()
    scheduler.start()
    return {
      profileId,
      auth,
      sync,
      queries,
      changes,
      exports,
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
      employeeCount: () => cache.employeeCount(),
      async close() {
        scheduler.stop()
        // A quit or a switch during a sync or an export cancels it and waits until it let go of the cache: the
        // sync keeps the previous snapshot, the export removes its partial file, and neither touches a closed
        // database. The listeners go only then, so the cancelled run's summary still reaches the window.
        sync.cancel()
        exports.cancel()
        lookups.abort()
        auth.cancelSignIn()
        await Promise.all([sync.idle(), exports.idle()])
        for (const stop of unsubscribe) stop()
        cache.close()
      },
    }
  }

  let session = await openSession(profiles.activeId)
  /** Set while a switch closes one session and opens the next; a second switch meanwhile is refused. */
  let switching = false

  async function switchProfile(id: string): Promise<void> {
    const target = profiles.get(id)
    if (id === session.profileId) return
    if (switching) throw new RosterDeskError('busy', 'RosterDesk is already switching profile. Try again.')
    switching = true
    const previous = session.profileId
    try {
      await session.close()
      profiles.setActive(id)
      try {
        session = await openSession(id)
      } catch (error) {
        // The other profile's cache could not open: stay on the one that worked, and say why.
        profiles.setActive(previous)
        session = await openSession(previous)
        throw error
      }
      deps.logger.info(`Switched to profile ${target.id}`)
    } finally {
      switching = false
    }
    emitProfiles()
    deps.events.emit('auth:changed', session.auth.getState())
  }

  async function deleteProfile(id: string): Promise<void> {
    profiles.delete(id)
    // Its data goes with it: the saved employees (the whole folder, snapshots and change files included) and
    // every secret it had. The profile is not active, so nothing has these open.
    rmSync(profileDataDir(deps.dataDir, id), { recursive: true, force: true })
    await deleteProfileSecrets(deps.secrets, id, FIRST_PROFILE_ID)
  }

  // The handlers read the session through these getters, so after a switch they answer from the new profile.
  const live: HandlerDeps = {
    appInfo: deps.appInfo,
    settings: deps.settings,
    get secrets() {
      return profileSecrets(deps.secrets, session.profileId, FIRST_PROFILE_ID)
    },
    get auth() {
      return session.auth
    },
    get sync() {
      return session.sync
    },
    get queries() {
      return session.queries
    },
    get changes() {
      return session.changes
    },
    get exports() {
      return session.exports
    },
    exportMemory: new ExportMemory(deps.uiState ?? new MemoryKeyValueBackend()),
    environment,
    events: deps.events,
    clock,
    chooseExportPath: deps.chooseExportPath,
    revealFile: deps.revealFile,
    printPage: deps.printPage,
    defaultExportFileName,
    searchService: (query) => session.searchService(query),
  }
  const handlers = createHandlers(
    live,
    { profiles, employeeCount, tenantOf, switchProfile, deleteProfile, changed: emitProfiles },
    {
      views: profiles.views,
      activeProfileId: () => profiles.activeId,
      profileExists: (id) => profiles.list().some((profile) => profile.id === id),
      clock,
    },
  )

  let closed = false
  return {
    handlers,
    get auth() {
      return session.auth
    },
    get sync() {
      return session.sync
    },
    get queries() {
      return session.queries
    },
    get exports() {
      return session.exports
    },
    handleCallbackUrl: (url) => session.auth.handleCallbackUrl(url),
    switchProfile,
    async close() {
      if (closed) return
      closed = true
      await session.close()
      await worker.stop()
      await deps.demo.close()
    },
  }
}
