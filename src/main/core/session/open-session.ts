import { join } from 'node:path'
import type { PreparingWork } from '../../../shared/domain/query'
import type { FetchLike } from '../api/fetch-like'
import type { EmployeesHandlerDeps } from '../app/employees-handlers'
import type { RetryPolicy } from '../api/retry-policy'
import { beginAppSync } from '../app/begin-sync'
import type { StartedSync, SyncService } from '../sync/sync-service'
import { SyncScheduler } from '../app/sync-scheduler'
import { AuthService } from '../auth/auth-service'
import type { ChangeHistory } from '../changes/change-history'
import type { Clock, Timers } from '../clock'
import type { ExportService } from '../export/export-service'
import type { ExportRules } from '../policy/export-rules'
import type { EventSink } from '../ipc/dispatch'
import type { Logger } from '../log/logger'
import { lookupService } from '../service-lookup/service-lookup'
import type { ColumnBuilder } from '../query/column-builds'
import type { QueryEngine } from '../query/query-engine'
import { profileSecrets, type SecretVault } from '../secrets/secret-store'
import { deleteSetAside } from '../cache/set-aside-cache'
import { encryptPlainCaches } from '../cache/encrypt-plain-caches'
import { mkdirOwnerOnly } from '../owner-only'
import type { CacheFolders } from '../cache/cache-folders'
import type { CacheKey } from '../sqlite/cache-key'
import { CACHE_FILE_NAME, FIRST_PROFILE_ID } from '../settings/profile-store'
import type { ResolvedEnvironment } from '../settings/resolve-environment'
import type { SettingsStore } from '../settings/settings-store'
import type { SessionRunners } from './session-runners'
import { openSessionServices } from './session-services'
import type { ExportRecord } from '../export-record/export-record'

/** Everything that belongs to one profile: its sign-in, its cache and the services over it. */
export interface ProfileSession {
  readonly profileId: string
  readonly auth: AuthService
  readonly sync: SyncService
  readonly queries: QueryEngine
  readonly changes: ChangeHistory
  readonly exports: ExportService
  readonly lookupService: EmployeesHandlerDeps['lookupService']
  /** Begins a sync of this profile (beginAppSync): the Sync button and the scheduler alike. */
  beginSync(): Promise<StartedSync>
  /** Employees its cache holds now. */
  employeeCount(): number
  close(): Promise<void>
}

/**
 * What the window hears of work being prepared (`query:preparing`). Only the active profile's engine speaks for
 * the window, and an empty list is sent only to clear a shown one: after a switch nothing of the closed
 * profile's work stays on screen.
 */
export interface PreparingEvents {
  /** `from`'s work being prepared now; dropped unless `from` is the active engine. */
  emit(from: QueryEngine, preparing: PreparingWork[]): void
  /** Makes `queries` the active engine, clearing what another one had shown. */
  activate(queries: QueryEngine): void
}

export function preparingEvents(events: EventSink): PreparingEvents {
  let activeQueries: QueryEngine | undefined
  let preparingShown = false
  const emit = (from: QueryEngine, preparing: PreparingWork[]): void => {
    if (from !== activeQueries || (preparing.length === 0 && !preparingShown)) return
    preparingShown = preparing.length > 0
    events.emit('query:preparing', preparing)
  }
  return {
    emit,
    activate(queries) {
      activeQueries = queries
      emit(queries, [])
    },
  }
}

/** What every session is built from: the app core's services and settings, and the one set of runners they share. */
export interface SessionDeps {
  /** Where each profile's employee cache lives (decision 046). */
  readonly caches: CacheFolders
  /** The user's key of every cache file (AppCoreDeps.cacheKey). */
  readonly cacheKey: CacheKey
  /** The key lives in memory only (AppCoreDeps.cacheKeyKept 'memory'): the sign-in state tells the window. */
  readonly cacheKeyInMemory?: boolean
  /** The active profile's settings, and every profile (`settings.profiles`). */
  readonly settings: SettingsStore
  /** Every profile's secrets; each session sees only its own (`profileSecrets`). */
  readonly secrets: SecretVault
  readonly fetch: FetchLike
  readonly clock: Clock
  /** Timers for automatic syncs. */
  readonly timers: Timers
  /** Jitter source for sync backoff. */
  readonly random: () => number
  /** How a sync's list requests are retried (AppCoreDeps.syncRetry); absent: the engine's policy. */
  readonly syncRetry?: Partial<RetryPolicy>
  /** AppCoreDeps.onSyncStarted. */
  readonly onSyncStarted?: (runId: number) => void
  /** AppCoreDeps.noLaunchSync. */
  readonly noLaunchSync?: boolean
  /** Whether syncs run on the runners (false: on this thread, where a test's clock and jitter apply). */
  readonly syncOnRunners: boolean
  /** Opens the system browser; only ever given the authorize URL. */
  readonly openExternal: (url: string) => Promise<void>
  /** Whether the OS hands the app its private-use sign-in scheme (AuthServiceDeps); absent: true. */
  readonly receivesSchemeCallbacks?: boolean
  /** The environment the active profile's settings name (Demo's is its sandbox). */
  readonly environment: () => ResolvedEnvironment
  readonly events: EventSink
  readonly logger: Logger
  /** Written into every export's header sheet. */
  readonly appVersion: string
  /** Where every session's heavy work runs: the core host's worker (AppCoreDeps.runners). */
  readonly runners: SessionRunners
  /** Wraps the runners' first-use builds (AppCoreDeps.columnBuilder); absent: the runners' builder. */
  readonly columnBuilder?: (onWorker: ColumnBuilder) => ColumnBuilder
  readonly preparing: PreparingEvents
  /** The machine policy's export rules (policy/export-rules.ts), the same for every profile. */
  readonly exportRules: ExportRules
  /** The user's export record, the same for every profile (export-record.ts). */
  readonly exportRecord?: ExportRecord
}

/**
 * Opens one profile's session: its sign-in over its own secrets, its cache (created when missing), and the sync,
 * query, change history, export and scheduler over that cache, their events forwarded to the window.
 * `close` ends all of it; the app core (createAppCore) keeps one session open at a time.
 */
export async function openSession(deps: SessionDeps, profileId: string): Promise<ProfileSession> {
  const { clock, environment } = deps
  const auth = await AuthService.create({
    fetch: deps.fetch,
    clock,
    secrets: profileSecrets(deps.secrets, profileId, FIRST_PROFILE_ID),
    environment,
    openExternal: deps.openExternal,
    ...(deps.receivesSchemeCallbacks === undefined
      ? {}
      : { receivesSchemeCallbacks: deps.receivesSchemeCallbacks }),
    logger: deps.logger,
    ...(deps.cacheKeyInMemory === true ? { savedEmployeesUntilQuit: true } : {}),
  })

  const cacheDir = deps.caches.cacheDir(profileId)
  mkdirOwnerOnly(cacheDir)
  // Never opened with the key while an earlier version's plain files are there (they would read as damaged):
  // encrypted first, all or nothing (a no-op once done; 'busy' while an older `cli sync` holds the cache).
  encryptPlainCaches(cacheDir, deps.cacheKey, { logger: deps.logger })
  const services = openSessionServices({
    db: { path: join(cacheDir, CACHE_FILE_NAME), key: deps.cacheKey },
    connection: { fetch: deps.fetch, tokens: auth.tokens },
    clock,
    random: deps.random,
    logger: deps.logger,
    runners: deps.runners,
    syncOnRunner: deps.syncOnRunners,
    ...(deps.syncRetry === undefined ? {} : { retry: deps.syncRetry }),
    exportRules: deps.exportRules,
    ...(deps.exportRecord === undefined ? {} : { exportRecord: deps.exportRecord }),
    source: () => ({ settings: deps.settings.get(), service: environment() }),
    about: () => ({ profile: deps.settings.profiles.get(profileId).name, appVersion: deps.appVersion }),
    ...(deps.columnBuilder === undefined ? {} : { columnBuilder: deps.columnBuilder }),
    onPreparing: (from, preparing) => deps.preparing.emit(from, preparing),
  })
  const { cache, sync, queries, changes, exports } = services
  deps.preparing.activate(queries)
  // The saved employees' index starts loading on the worker now, before the window asks for its first rows; a
  // cache that cannot be read says so at that first query.
  queries.open().catch(() => undefined)

  const beginSync = async (): Promise<StartedSync> => {
    const started = await beginAppSync({ auth, sync, options: services.startOptions })
    deps.onSyncStarted?.(started.runId)
    return started
  }
  // Automatic syncs (on launch, every N hours) begin runs exactly as the Sync button does.
  const scheduler = new SyncScheduler({
    clock,
    timers: deps.timers,
    settings: () =>
      deps.noLaunchSync === true ? { ...deps.settings.get(), syncOnLaunch: false } : deps.settings.get(),
    signedIn: () => auth.getState().status === 'signed-in',
    running: () => sync.isRunning,
    begin: beginSync,
    logger: deps.logger,
  })

  const unsubscribe = [
    // Tokens are bound to one service and client; reload re-reads which ones apply after a settings change.
    deps.settings.onChange(() => void auth.reload()),
    deps.settings.onChange(() => scheduler.settingsChanged()),
    auth.onChange((state) => deps.events.emit('auth:changed', state)),
    sync.onProgress((progress) => deps.events.emit('sync:progress', progress)),
    // A complete sync from the profile's source ends the chance to restore employees set aside (decision 039).
    sync.onFinished((summary) => {
      if (summary.status === 'complete') deleteSetAside(cacheDir)
    }),
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
    lookupService: (request) =>
      lookupService(
        {
          fetch: deps.fetch,
          tokens: auth.tokens,
          clock,
          random: deps.random,
          environment,
          isSaved: (uuid) => queries.getEmployee(uuid) !== null,
        },
        request,
        lookups.signal,
      ),
    beginSync,
    employeeCount: () => cache.employeeCount(),
    async close() {
      scheduler.stop()
      // A quit or a switch during a sync or an export cancels it and waits until it let go of the cache: the
      // sync keeps the previous snapshot, the export removes its partial file, and neither touches a closed
      // database. The listeners go only then, so the cancelled run's summary still reaches the window.
      services.cancel()
      lookups.abort()
      auth.cancelSignIn()
      await services.idle()
      for (const stop of unsubscribe) stop()
      await services.close()
    },
  }
}
