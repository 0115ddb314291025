import type { RetryPolicy } from '../api/retry-policy'
import { join } from 'node:path'
import type { SavedFileKind } from '../../../shared/domain/export'
import type { Settings } from '../../../shared/settings-schema'
import type { FetchLike } from '../api/fetch-like'
import { plainNodeNetwork, type AppNetwork } from '../app/network-handlers'
import { createHandlers, type HandlerDeps } from '../app/handlers'
import { profileList } from '../app/profile-handlers'
import type { ViewHandlerDeps } from '../app/view-handlers'
import type { AuthService } from '../auth/auth-service'
import { cacheFoldersAt, type CacheFolders } from '../cache/cache-folders'
import { savedEmployeeCount } from '../cache/saved-employee-count'
import type { CacheKey } from '../sqlite/cache-key'
import type { CacheKeyKept } from '../secrets/app-cache-key'
import { systemClock, systemTimers, type Clock, type Timers } from '../clock'
import { RosterDeskError } from '../errors'
import { defaultExportFileName } from '../export/export-file-name'
import { ExportMemory } from '../export/export-memory'
import type { ExportService } from '../export/export-service'
import type { PagePrinter } from '../export/print-view'
import type { EventSink, InvokeHandlers } from '../ipc/dispatch'
import type { Logger } from '../log/logger'
import { exportRulesOf } from '../policy/export-rules'
import { ExportRecord, exportRecordDays } from '../export-record/export-record'
import type { ClipboardWriter } from '../export/copy-rows'
import type { PolicyInForce } from '../policy/policy-in-force'
import { personalDataRulesOf } from './personal-data'
import type { ColumnBuilder } from '../query/column-builds'
import type { QueryEngine } from '../query/query-engine'
import { policySecrets } from '../policy/policy-secrets'
import { bindUnboundSecrets, boundClientSecrets } from '../secrets/bound-client-secret'
import { profileSecrets, type SecretVault } from '../secrets/secret-store'
import { resolveEnvironment, type DemoEnvironment } from '../settings/resolve-environment'
import { CACHE_FILE_NAME, FIRST_PROFILE_ID, type ProfileStore } from '../settings/profile-store'
import { MemoryKeyValueBackend, type KeyValueBackend, type SettingsStore } from '../settings/settings-store'
import type { SyncService } from '../sync/sync-service'
import type { ShellFacts } from '../diagnostics/diagnostics-parts'
import { appDiagnosticsWriter } from './app-diagnostics'
import { identityActions } from './identity-change'
import { openSession, preparingEvents, type ProfileSession, type SessionDeps } from './open-session'
import { clearOnSignOut, deleteProfile, settleCachesAtStart } from './saved-employees'
import type { SessionRunners } from './session-runners'

export interface AppCoreDeps {
  /** `systemLocale`: the computer's regional formats (Electron's `app.getSystemLocale()`), for `app:get-info`. */
  readonly appInfo: {
    readonly name: string
    readonly version: string
    readonly platform: string
    readonly systemLocale?: string
  }
  /** Per-user data folder: where the caches live unless `caches` says otherwise. */
  readonly dataDir: string
  /**
   * Where each profile's employee cache lives: on Windows the local app data folder, after the start's move
   * (`moveCaches`, decision 046); absent: under `dataDir`.
   */
  readonly caches?: CacheFolders
  /**
   * The user's key of every cache file, every profile's (cache-key.ts): the app's from its vault (app-cache-key.ts),
   * never a renderer's to see. Given once here; the sessions, the retention sweep and the profile list read with it.
   */
  readonly cacheKey: CacheKey
  /**
   * Where `cacheKey` is kept (app-cache-key.ts); absent: the keychain. 'memory': a key of this start only, so the
   * caches earlier starts wrote cannot be read and are deleted before any opens (the window says so once).
   */
  readonly cacheKeyKept?: CacheKeyKept
  /**
   * The active profile's settings, and every profile (`settings.profiles`), with the machine policy in force
   * (`settings.policy`; its `inForce` is what loadMachinePolicy found: exports, personal data, updates rules).
   */
  readonly settings: SettingsStore
  /** Every profile's secrets; each profile's services see only its own (`profileSecrets`). */
  readonly secrets: SecretVault
  readonly fetch: FetchLike
  /**
   * What the runtime says of its network (Test connection's probes, remembered proxy sign-ins, the certificate
   * dialog): main's answers in the app; absent under plain Node (`plainNodeNetwork`).
   */
  readonly network?: AppNetwork
  readonly clock?: Clock
  /** Timers for automatic syncs (the system's unless a test drives them). */
  readonly timers?: Timers
  /** Opens the system browser (Electron: shell.openExternal). Only ever given the authorize URL. */
  readonly openExternal: (url: string) => Promise<void>
  /** Whether the OS hands the app its private-use sign-in scheme (AuthServiceDeps); absent: true. */
  readonly receivesSchemeCallbacks?: boolean
  /** The in-app sandbox Demo talks to, already started. */
  readonly demo: { readonly environment: DemoEnvironment; close(): Promise<void> }
  readonly events: EventSink
  readonly logger: Logger
  /** Native save dialog opened at `defaultPath`; undefined when the clerk cancels it. */
  readonly chooseExportPath: (defaultPath: string, kind: SavedFileKind) => Promise<string | undefined>
  /** Where small UI memories (the last export folder) persist; the settings' backend in the app. */
  readonly uiState?: KeyValueBackend
  /** Where the shell writes its print pages, swept at start (leftovers.ts); absent: os.tmpdir(). */
  readonly tempDir?: string
  /** Reveals a file in Explorer/Finder. */
  readonly revealFile: (path: string) => void
  /** Prints a generated page through the system print dialog (the shell's print window); absent: not offered. */
  readonly printPage?: PagePrinter
  /** Writes the system clipboard, text and HTML in one write (main's `clipboard.write`): the table's Copy. */
  readonly writeClipboard?: ClipboardWriter
  /** Jitter source for sync backoff. */
  readonly random?: () => number
  /**
   * How a sync's list requests are retried; absent: the engine's policy (DEFAULT_RETRY_POLICY). The browser tests
   * shorten the waits so a run against a service that is gone gives up in seconds, not a minute.
   */
  readonly syncRetry?: Partial<RetryPolicy>
  /** Told each sync run's id as it begins, however it was started (the core process tells main). */
  readonly onSyncStarted?: (runId: number) => void
  /** No sync on launch in this app core (it replaces a core process that stopped: CoreProcessConfig). */
  readonly noLaunchSync?: boolean
  /**
   * Where the sessions' heavy work runs, what only a host can give: the core host's worker
   * (core-host/worker/worker-runners.ts). The app core closes them when it closes.
   */
  readonly runners: SessionRunners
  /**
   * Wraps the runners' first-use builds (the browser tests hold one back, to see the window while a sort is
   * being prepared); absent: the runners' builder as it is.
   */
  readonly columnBuilder?: (onWorker: ColumnBuilder) => ColumnBuilder
  /** What only main knows for a diagnostics file (the install kind, the update state); absent: not known. */
  readonly shellFacts?: () => Promise<ShellFacts>
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

/**
 * The composition root of everything that is not Electron: the core host process (core-host/process/serve-core-process.ts), the
 * browser-test harness and the benchmarks all build the app from here, so the renderer is tested against exactly
 * the services it runs on. Services are built
 * per profile (`openSession`); the handlers read whichever session is current, so switching profile swaps
 * every service at once and no channel can answer from another profile's cache or tokens.
 */
export async function createAppCore(given: AppCoreDeps): Promise<AppCore> {
  // Secrets stored before they were bound to their service are bound now, before the window can move an address.
  await bindUnboundSecrets(given.secrets, given.settings.profiles, given.logger)
  const deps = withPolicySecrets(given)
  const clock = deps.clock ?? systemClock
  const policy = deps.settings.policy.inForce
  const profiles = deps.settings.profiles
  const caches = deps.caches ?? cacheFoldersAt(deps.dataDir)
  const environment = () => resolveEnvironment(deps.settings.get(), deps.demo.environment)
  // The active profile's count from its open cache; another's from its catalog, read without opening it.
  const employeeCount = (id: string): number | undefined =>
    id === session.profileId
      ? session.employeeCount()
      : savedEmployeeCount(join(caches.cacheDir(id), CACHE_FILE_NAME), deps.cacheKey)
  const tenantOf = (settings: Settings): string =>
    resolveEnvironment(settings, deps.demo.environment).tenantId
  const emitProfiles = () =>
    deps.events.emit(
      'profiles:changed',
      profileList(profiles, { employeeCount, tenantOf, setAsideOf: (id) => identity.setAsideOf(id) }),
    )
  // Heavy work runs on the host's runners (the app's core worker) so this thread, which answers IPC, never waits
  // on it (ARCHITECTURE, "Runtimes and threads"); one set serves every profile's session.
  const sessionDeps = sessionDepsOf(deps, {
    caches,
    clock,
    environment,
    exportRules: exportRulesOf(policy),
    exportRecord: appExportRecord(deps, clock, policy),
  })

  // Plain caches encrypted, the organisation's retention rule, what a crash left: before any cache is opened.
  const personalData = personalDataRulesOf(policy)
  const notices = settleCachesAtStart(deps, caches, clock, personalData)

  let session = await openSession(sessionDeps, profiles.activeId)
  /** Set while a switch closes one session and opens the next; a second switch meanwhile is refused. */
  let switching = false

  /**
   * Closes the active session, runs `work` (which may make another profile active or move its cache), and opens
   * the active profile's session; if another profile's cache cannot open, the previous one is reopened and the
   * error said. A second call meanwhile is refused.
   */
  async function withSessionClosed(work: () => void): Promise<void> {
    if (switching) throw new RosterDeskError('busy', 'RosterDesk is already switching profile. Try again.')
    switching = true
    const previous = session.profileId
    try {
      await session.close()
      let failure: { error: unknown } | undefined
      try {
        work()
      } catch (error) {
        failure = { error }
      }
      try {
        session = await openSession(sessionDeps, profiles.activeId)
      } catch (error) {
        if (profiles.activeId === previous) throw error
        // The other profile's cache could not open: stay on the one that worked, and say why.
        profiles.setActive(previous)
        session = await openSession(sessionDeps, previous)
        throw error
      }
      if (failure !== undefined) throw failure.error
    } finally {
      switching = false
    }
    emitProfiles()
    deps.events.emit('auth:changed', session.auth.getState())
  }

  async function switchProfile(id: string): Promise<void> {
    const target = profiles.get(id)
    if (id === session.profileId) return
    await withSessionClosed(() => profiles.setActive(id))
    deps.logger.info(`Switched to profile ${target.id}`)
  }

  const identity = identityActions({
    caches,
    cacheKey: deps.cacheKey,
    settings: deps.settings,
    clock,
    session: () => session,
    withSessionClosed,
    switchProfile,
    changed: emitProfiles,
  })

  const handlers = createHandlers(
    currentSessionDeps(deps, () => session, {
      clock,
      exportRecord: sessionDeps.exportRecord,
      profileName: () => profiles.get(profiles.activeId).name,
      changeIdentity: (choice, settings) => identity.changeIdentity(choice, settings),
      policyView: () => deps.settings.policy.view(profiles.get(session.profileId), notices),
      writeDiagnostics: appDiagnosticsWriter({ ...deps, caches, clock }, () => handlers['network:check']()),
      ...(personalData.clearOnSignOut
        ? { afterSignOut: () => clearOnSignOut(deps, caches, () => session, withSessionClosed, notices) }
        : {}),
    }),
    {
      profiles,
      employeeCount,
      tenantOf,
      switchProfile,
      deleteProfile: (id) => deleteProfile(deps, caches, id),
      changed: emitProfiles,
      setAsideOf: identity.setAsideOf,
      restoreSetAside: identity.restoreSetAside,
    },
    viewHandlerDeps(profiles, clock),
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
      await deps.runners.close()
      await deps.demo.close()
    },
  }
}

/** The user's export record, kept in the app's data folder as long as the machine policy says. */
function appExportRecord(deps: AppCoreDeps, clock: Clock, policy: PolicyInForce): ExportRecord {
  return new ExportRecord({
    dataDir: deps.dataDir,
    runtime: 'app',
    clock,
    ...exportRecordDays(policy),
    logger: deps.logger,
  })
}

/** What every profile's session is built from: the app core's dependencies and what createAppCore made of them. */
function sessionDepsOf(
  deps: AppCoreDeps,
  shared: Pick<SessionDeps, 'caches' | 'clock' | 'environment' | 'exportRules' | 'exportRecord'>,
): SessionDeps {
  return {
    caches: shared.caches,
    cacheKey: deps.cacheKey,
    ...(deps.cacheKeyKept === 'memory' ? { cacheKeyInMemory: true } : {}),
    settings: deps.settings,
    secrets: deps.secrets,
    fetch: deps.fetch,
    clock: shared.clock,
    timers: deps.timers ?? systemTimers,
    random: deps.random ?? Math.random,
    // The worker runs on the system's clock and jitter; a core given its own (a test setting the time) syncs on
    // this thread, where they apply.
    syncOnRunners: deps.clock === undefined && deps.random === undefined,
    ...(deps.syncRetry === undefined ? {} : { syncRetry: deps.syncRetry }),
    ...(deps.onSyncStarted === undefined ? {} : { onSyncStarted: deps.onSyncStarted }),
    ...(deps.noLaunchSync === true ? { noLaunchSync: true } : {}),
    openExternal: deps.openExternal,
    ...(deps.receivesSchemeCallbacks === undefined
      ? {}
      : { receivesSchemeCallbacks: deps.receivesSchemeCallbacks }),
    environment: shared.environment,
    events: deps.events,
    logger: deps.logger,
    appVersion: deps.appInfo.version,
    runners: deps.runners,
    columnBuilder: deps.columnBuilder,
    preparing: preparingEvents(deps.events),
    exportRules: shared.exportRules,
    ...(shared.exportRecord === undefined ? {} : { exportRecord: shared.exportRecord }),
  }
}

/**
 * Every profile's secrets as the app reads them: a stored client secret only at the service and client ID it was
 * entered for (bound-client-secret.ts), and the machine policy's client secret as its profile's.
 */
function withPolicySecrets(deps: AppCoreDeps): AppCoreDeps {
  const { profiles } = deps.settings
  const bound = boundClientSecrets(deps.secrets, profiles, deps.logger)
  return { ...deps, secrets: policySecrets(bound, deps.settings.policy, profiles) }
}

/** The saved views' channels answer from the active profile's views. */
function viewHandlerDeps(profiles: ProfileStore, clock: Clock): ViewHandlerDeps {
  return {
    views: profiles.views,
    activeProfileId: () => profiles.activeId,
    profileExists: (id) => profiles.list().some((profile) => profile.id === id),
    clock,
  }
}

/**
 * What the handlers answer from: the services of the session `current` returns, read through getters at every
 * call, so after a switch they answer from the new profile.
 */
function currentSessionDeps(
  deps: AppCoreDeps,
  current: () => ProfileSession,
  shared: Pick<
    HandlerDeps,
    'clock' | 'profileName' | 'changeIdentity' | 'afterSignOut' | 'writeDiagnostics'
  > &
    Required<Pick<HandlerDeps, 'policyView'>> & { readonly exportRecord: ExportRecord | undefined },
): HandlerDeps {
  const network = deps.network ?? plainNodeNetwork
  return {
    appInfo: deps.appInfo,
    settings: deps.settings,
    get secrets() {
      return profileSecrets(deps.secrets, current().profileId, FIRST_PROFILE_ID)
    },
    get auth() {
      return current().auth
    },
    get sync() {
      return current().sync
    },
    beginSync: () => current().beginSync(),
    get queries() {
      return current().queries
    },
    get changes() {
      return current().changes
    },
    get exports() {
      return current().exports
    },
    exportMemory: new ExportMemory(deps.uiState ?? new MemoryKeyValueBackend()),
    exportProfile: () => {
      const { profileId } = current()
      return { id: profileId, name: deps.settings.profiles.get(profileId).name }
    },
    events: deps.events,
    clock: shared.clock,
    chooseExportPath: deps.chooseExportPath,
    revealFile: deps.revealFile,
    printPage: deps.printPage,
    ...(deps.writeClipboard === undefined ? {} : { writeClipboard: deps.writeClipboard }),
    ...(shared.exportRecord === undefined ? {} : { exportRecord: shared.exportRecord }),
    defaultExportFileName,
    lookupService: (request) => current().lookupService(request),
    fetch: deps.fetch,
    demoEnvironment: deps.demo.environment,
    profileName: shared.profileName,
    ...(shared.changeIdentity === undefined ? {} : { changeIdentity: shared.changeIdentity }),
    ...(shared.afterSignOut === undefined ? {} : { afterSignOut: shared.afterSignOut }),
    network,
    rememberedProxies: () => network.rememberedProxies(),
    policyView: shared.policyView,
    writeDiagnostics: shared.writeDiagnostics,
  }
}
