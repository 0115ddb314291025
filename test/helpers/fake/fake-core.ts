import { NO_POLICY_VIEW, type PolicyView } from '../../../src/shared/policy-view'
import { checkExportFormat, checkExportRows } from '../../../src/main/core/policy/export-rules'
import type { AuthState } from '../../../src/shared/domain/auth'
import type { ChangeReport } from '../../../src/shared/domain/changes'
import type { ProfileList } from '../../../src/shared/domain/profiles'
import type { EmployeeRow } from '../../../src/shared/domain/rows'
import type { SettingsView } from '../../../src/shared/domain/settings'
import type { SyncRunSummary, SyncStatus } from '../../../src/shared/domain/sync'
import type { Settings } from '../../../src/shared/settings-schema'
import type { IpcError } from '../../../src/shared/ipc-contract'
import { FakeIpcError, type FakeEvents, type FakeHandlers } from './fake-api'
import { chosenRows, exportRowQuery } from '../../../src/shared/export-rows'
import { PRINT_MAX_ROWS } from '../../../src/shared/print-limits'
import { columnsOf, runQuery, suggestNames } from './fake-query'
import { FakeChanges, type FakeSyncFacts } from './fake-changes'
import {
  DEFAULT_FORMAT_LOCALE,
  DEFAULT_SYNC_SCOPE,
  FRESHNESS_DEFAULTS,
  PAY_DISPLAY_DEFAULTS,
  NETWORK_DEFAULTS,
  SYNC_LIMIT_SETTING_DEFAULTS,
  environmentLabel,
  normalizeProfileName,
  profileNameProblem,
} from '../../../src/shared/settings-rules'
import { fakeServiceLookup } from './fake-service-lookup'
import {
  identityChanges,
  identityChoiceNeeded,
  setAsideRename,
  settingsRowSource,
  type RowSource,
} from '../../../src/shared/source-identity'
import { createFakeNetwork, type FakeNetwork, type FakeNetworkOptions } from './fake-network'
import { createFakeUpdates, type FakeUpdates, type FakeUpdatesOptions } from './fake-updates'
import { createFakeCopy, type FakeCopy } from './fake-copy'
import type { ExportRecordEntry } from '../../../src/shared/domain/export'
import { MemoryKeyValueBackend } from '../../../src/main/core/settings/key-value-backend'
import { ViewStore } from '../../../src/main/core/settings/view-store'
import { CERTIFICATES_BY_DIALOG } from '../../../src/shared/settings-rules'

export interface FakeCoreOptions {
  /** The employees "on the service": a sync copies them into the cache. */
  readonly serviceEmployees: readonly EmployeeRow[]
  /** Start with the service's employees already synced (as if from an earlier session). */
  readonly synced?: boolean
  readonly signedIn?: boolean
  readonly secretStorage?: 'os' | 'memory-only'
  /** The saved employees' key is in memory only (AuthState.savedEmployeesUntilQuit). */
  readonly savedEmployeesUntilQuit?: boolean
  readonly settings?: Partial<Settings>
  /** What main reports as the OS's regional formats (`app.getSystemLocale()`); absent as in a browser. */
  readonly systemLocale?: string
  /** `app:get-info`'s sandboxOff: main reports Chromium's sandbox off (a `--no-sandbox` start). */
  readonly sandboxOff?: boolean
  /** `app:get-info`'s crashedAt: main's newest crash since the last start (ISO), told to the clerk once. */
  readonly crashedAt?: string
  /** When set, sign-in waits for `approveSignIn()` or a cancel instead of succeeding at once. */
  readonly manualSignIn?: boolean
  /** When set, a started sync stops after its first page until `releaseSync()` is called. */
  readonly manualSync?: boolean
  /** Each sync after this one fails with this error (e.g. code 'network'), as if the service were unreachable. */
  readonly syncFailure?: IpcError
  /** The time "now"; the last sync of a `synced` fake ended two hours before it. */
  readonly now?: () => number
  /** When the last sync of a `synced` fake ended, when it should be other than two hours ago (ms since epoch). */
  readonly syncedAt?: number
  /**
   * Employees on the service that a `synced` cache lacks (hired since that sync): "Look up on the service" finds
   * them, and the next sync saves them. A `syncFailure` makes the lookup fail the same way.
   */
  readonly hiredSinceSync?: readonly EmployeeRow[]
  /**
   * Further profiles, each with its own cache (already synced with these rows) and settings; the first profile
   * is the one the options above describe, named after its environment.
   */
  readonly otherProfiles?: ReadonlyArray<{
    readonly name: string
    readonly employees: readonly EmployeeRow[]
    readonly settings?: Partial<Settings>
    /** Created by the machine policy: shown "Set by your organisation", never renamed or deleted. */
    readonly managedByPolicy?: boolean
  }>
  /**
   * What the machine policy shows the window (policy-view.ts), as `settings:get` answers it: the fields it locks,
   * its export rules (which `export:start` and `changes:export` then hold, by the core's own functions), a policy
   * that could not be read, what it did at start. Absent: no policy.
   */
  readonly policy?: Partial<Omit<PolicyView, 'managedProfile'>>
  /** The first profile was created by the machine policy (as `otherProfiles[].managedByPolicy`). */
  readonly managedByPolicy?: boolean
  /** The network channels' script: the check's report, the certificate file chosen, remembered proxies. */
  readonly network?: FakeNetworkOptions
  /** Main's updater: its state at the start and whether a restart must wait. */
  readonly updates?: FakeUpdatesOptions
  /** The export record's entries before the test (newest first), as Help → Export history lists them. */
  readonly exportRecord?: readonly ExportRecordEntry[]
}

export interface FakeCore {
  readonly handlers: FakeHandlers
  /** Every channel invoked, in order, with its validated arguments. */
  readonly calls: { channel: string; args: unknown[] }[]
  approveSignIn(): void
  releaseSync(): void
  setSyncFailure(error: IpcError | undefined): void
  /** Ends the session as main's token manager does when the service refuses a refresh: signed out, with why. */
  expireSignIn(message: string): void
  /** Replaces the employees "on the service" (joiners, leavers, edits); the next sync picks them up. */
  setServiceEmployees(rows: readonly EmployeeRow[]): void
  /** Settings → Network's channels: scripts the check, the certificate dialog, and plays proxy challenges. */
  readonly network: FakeNetwork
  /** Main's updater: set its state (sent as `updates:state`), make a restart wait. */
  readonly updates: FakeUpdates
  /** The table's Copy as main writes it: the system clipboard's contents, newest last; `failing` refuses them. */
  readonly copy: FakeCopy
}

const PAGE = 500

/**
 * In-memory FakeHandlers that behave like the real core from the renderer's point of view: sign-in, sync with
 * progress events, queries with the cache's semantics, settings and exports. For component tests and harness
 * self-tests; the end-to-end tests use the real core instead.
 */
export function createFakeCore(events: FakeEvents, options: FakeCoreOptions): FakeCore {
  const now = options.now ?? Date.now
  let cache: EmployeeRow[] = options.synced ? [...options.serviceEmployees] : []
  let service: readonly EmployeeRow[] = [...options.serviceEmployees, ...(options.hiredSinceSync ?? [])]
  let auth: AuthState = {
    status: options.signedIn ? 'signed-in' : 'signed-out',
    environment: options.settings?.environment ?? 'demo',
    tenantId: options.settings?.tenantId ?? 'tenant-demo',
    secretStorage: options.secretStorage ?? 'os',
    ...(options.savedEmployeesUntilQuit === true ? { savedEmployeesUntilQuit: true as const } : {}),
  }
  let settings: Settings = {
    environment: 'demo',
    baseUrls: { staging: '', production: '' },
    clientId: 'rosterdesk-demo',
    redirectUri: 'com.rosterdesk.app:/oauth/callback',
    scopes: 'read',
    tenantId: 'tenant-demo',
    pageSize: PAGE,
    concurrency: 4,
    trackedPayCycles: [],
    syncScope: DEFAULT_SYNC_SCOPE,
    ...FRESHNESS_DEFAULTS,
    ...SYNC_LIMIT_SETTING_DEFAULTS,
    ...NETWORK_DEFAULTS,
    formatLocale: DEFAULT_FORMAT_LOCALE,
    ...PAY_DISPLAY_DEFAULTS,
    ...options.settings,
  }
  let hasClientSecret = false
  const syncedAt = options.syncedAt ?? now() - 2 * 3600_000
  let lastComplete: SyncRunSummary | undefined = options.synced
    ? summary(1, 'complete', new Date(syncedAt - 60_000).toISOString(), cache.length, undefined, {
        endedAt: new Date(syncedAt).toISOString(),
      })
    : undefined
  let lastRun = lastComplete
  /** The change history (the last 20 syncs' lists), as the real cache keeps it. */
  const changes = new FakeChanges()
  if (lastComplete !== undefined) changes.record([], cache, syncFacts(lastComplete))
  let running = false
  let syncFailure = options.syncFailure
  let signInWaiter: ((outcome: 'approved' | 'cancelled') => void) | undefined
  let syncGate: (() => void) | undefined
  let syncAbort = false
  let exportAbort = false
  let exported = false
  let diagnosticsSaved = false
  const calls: FakeCore['calls'] = []

  /** What belongs to one profile; the active one's lives in the variables above, the others' here. */
  interface ProfileState {
    name: string
    cache: EmployeeRow[]
    settings: Settings
    auth: AuthState
    hasClientSecret: boolean
    lastComplete: SyncRunSummary | undefined
    lastRun: SyncRunSummary | undefined
    managed: boolean
  }
  let activeId = 'p1'
  let activeManaged = options.managedByPolicy === true
  const policy: PolicyView = { ...NO_POLICY_VIEW, ...options.policy, managedProfile: false }
  let activeName = environmentLabel(settings.environment)
  const stashed = new Map<string, ProfileState>()
  // As ProfileStore: a deleted profile's id is never given again.
  let nextProfileNumber = (options.otherProfiles ?? []).length + 2
  for (const [index, other] of (options.otherProfiles ?? []).entries()) {
    const otherSettings: Settings = { ...settings, ...other.settings }
    const done = summary(
      1,
      'complete',
      new Date(syncedAt - 60_000).toISOString(),
      other.employees.length,
      undefined,
      {
        endedAt: new Date(syncedAt).toISOString(),
      },
    )
    stashed.set(`p${index + 2}`, {
      name: other.name,
      cache: [...other.employees],
      settings: otherSettings,
      auth: {
        ...auth,
        status: 'signed-out',
        environment: otherSettings.environment,
        tenantId: otherSettings.tenantId,
      },
      hasClientSecret: false,
      lastComplete: done,
      lastRun: done,
      managed: other.managedByPolicy === true,
    })
  }
  /**
   * The active profile's employees set aside by an identity change (decision 039), as the core keeps them; the
   * fake keeps them for the active profile only, so a switch drops them.
   */
  /** Where the active profile's rows came from; undefined: its settings' (as the run log would say). */
  let rowsSource: RowSource | undefined
  let setAside:
    | {
        cache: typeof cache
        lastComplete: typeof lastComplete
        lastRun: typeof lastRun
        info: NonNullable<ProfileList['profiles'][number]['setAside']>
      }
    | undefined
  const profileList = (): ProfileList => {
    const all = [
      {
        id: activeId,
        name: activeName,
        environment: settings.environment,
        tenantId: settings.tenantId,
        employeeCount: cache.length,
        ...(setAside === undefined ? {} : { setAside: setAside.info }),
        ...(activeManaged ? { managedByPolicy: true } : {}),
      },
      ...[...stashed].map(([id, state]) => ({
        id,
        name: state.name,
        environment: state.settings.environment,
        tenantId: state.settings.tenantId,
        employeeCount: state.cache.length,
        ...(state.managed ? { managedByPolicy: true } : {}),
      })),
    ]
    return { activeId, profiles: all.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))) }
  }
  /** As the core: a profile the machine policy created is neither renamed nor deleted. */
  const refuseManaged = (id: string): void => {
    if (id === activeId ? activeManaged : stashed.get(id)?.managed === true) {
      throw new FakeIpcError(
        'validation',
        'This profile is set by your organisation: it cannot be renamed or deleted.',
      )
    }
  }
  const checkName = (name: string, exceptId: string | undefined): string => {
    const normalized = normalizeProfileName(name)
    const problem = profileNameProblem(
      normalized,
      profileList()
        .profiles.filter((profile) => profile.id !== exceptId)
        .map((profile) => profile.name),
    )
    if (problem !== undefined) throw new FakeIpcError('validation', problem, { name: problem })
    return normalized
  }
  /**
   * Each profile's views: main's own ViewStore over a settings file in memory, so a view is named, replaced and
   * read back by the app's rules (its errors answer as main's do: fake-api.ts).
   */
  const views = new ViewStore(new MemoryKeyValueBackend())
  const profileChanged = (): ProfileList => {
    const list = profileList()
    events.emit('profiles:changed', list)
    return list
  }

  const setAuth = (next: AuthState): AuthState => {
    auth = next
    events.emit('auth:changed', auth)
    return auth
  }
  // As the core's view (settings-view.ts): the certificate file by its name only, never a path.
  const view = (): SettingsView => ({
    settings: {
      ...settings,
      extraCertificatesFile: settings.extraCertificatesFile.split(/[\\/]/).at(-1) ?? '',
    },
    hasClientSecret,
    secretStorage: auth.secretStorage,
    rememberedProxies: network.rememberedProxies(),
    policy: {
      ...policy,
      lockedFields: [...policy.lockedFields],
      managedProfile: activeManaged,
      exports: { ...policy.exports },
      notices: [...policy.notices],
    },
  })
  const network = createFakeNetwork(
    events,
    {
      settings: () => settings,
      saveSettings: (patch) => (settings = { ...settings, ...patch }),
      view,
      signedIn: () => auth.status === 'signed-in',
      now,
    },
    options.network,
  )
  const updates = createFakeUpdates(events, options.updates)
  const copy = createFakeCopy({
    cache: () => cache,
    profile: () => activeName,
    now,
    ...(options.exportRecord === undefined ? {} : { record: options.exportRecord }),
  })
  const status = (): SyncStatus => ({
    running,
    lastRun,
    lastComplete,
    ...(lastComplete === undefined ? {} : { source: rowsSource ?? settingsRowSource(settings) }),
    employeeCount: cache.length,
  })

  const handlers: FakeHandlers = {
    'app:get-info': async () => ({
      name: 'RosterDesk',
      version: '0.1.0',
      environment: settings.environment,
      platform: 'linux',
      ...(options.systemLocale === undefined ? {} : { systemLocale: options.systemLocale }),
      ...(options.sandboxOff === true ? { sandboxOff: true as const } : {}),
      ...(options.crashedAt === undefined ? {} : { crashedAt: options.crashedAt }),
    }),
    'auth:get-state': async () => auth,
    'auth:sign-in': async () => {
      setAuth({ ...auth, status: 'signing-in', error: undefined })
      const outcome = options.manualSignIn
        ? await new Promise<'approved' | 'cancelled'>((resolve) => (signInWaiter = resolve))
        : 'approved'
      signInWaiter = undefined
      if (outcome === 'cancelled')
        return setAuth({ ...auth, status: 'signed-out', error: 'Sign-in was cancelled.' })
      return setAuth({ ...auth, status: 'signed-in', error: undefined })
    },
    'auth:cancel-sign-in': async () => {
      signInWaiter?.('cancelled')
      return auth
    },
    'auth:sign-out': async () => setAuth({ ...auth, status: 'signed-out', error: undefined }),
    'settings:get': async () => view(),
    'settings:update': async (patch, options) => {
      // As the core's handler: only main's open dialog names the certificate file (settings-handlers.ts).
      if (Object.hasOwn(patch, 'extraCertificatesFile'))
        throw new FakeIpcError('validation', CERTIFICATES_BY_DIALOG, {
          extraCertificatesFile: CERTIFICATES_BY_DIALOG,
        })
      const next = { ...settings, ...patch, baseUrls: { ...settings.baseUrls, ...patch.baseUrls } }
      let setAsideNow = false
      if (identityChanges(settings, next) && (cache.length > 0 || options !== undefined)) {
        if (options === undefined)
          throw new FakeIpcError('validation', identityChoiceNeeded(cache.length, 'en-US'))
        if (options.identityChange === 'new-profile') {
          const id = `p${nextProfileNumber++}`
          const name = checkName(environmentLabel(next.environment), undefined)
          stashed.set(id, {
            name,
            cache: [],
            settings: next,
            auth: { ...auth, status: 'signed-out', environment: next.environment, tenantId: next.tenantId },
            hasClientSecret: false,
            lastComplete: undefined,
            lastRun: undefined,
            managed: false,
          })
          await handlers['profiles:switch'](id)
          return view()
        }
        setAside = {
          cache,
          lastComplete,
          lastRun,
          info: {
            ...(rowsSource ?? settingsRowSource(settings)),
            setAsideAt: new Date(now()).toISOString(),
            employeeCount: cache.length,
          },
        }
        cache = []
        lastComplete = undefined
        lastRun = undefined
        setAsideNow = true
        // As the core: a profile named after its old environment takes the new one's name.
        const others = [...stashed.values()].map((other) => other.name)
        activeName = setAsideRename(activeName, settings.environment, next.environment, others) ?? activeName
      }
      settings = next
      auth = { ...auth, environment: settings.environment, tenantId: settings.tenantId }
      // As the core: the list changes once the settings are saved, and the window reloads what it shows.
      if (setAsideNow) events.emit('profiles:changed', profileList())
      return view()
    },
    'settings:set-client-secret': async () => {
      hasClientSecret = true
      return view()
    },
    'profiles:list': async () => profileList(),
    'profiles:switch': async (id) => {
      const target = stashed.get(id)
      if (id === activeId) return profileList()
      if (target === undefined) throw new FakeIpcError('not-found', 'That profile no longer exists.')
      // As the real core: a running sync or export of the profile left is cancelled first.
      syncAbort = running
      exportAbort = true
      syncGate?.()
      stashed.delete(id)
      stashed.set(activeId, {
        name: activeName,
        cache,
        settings,
        auth,
        hasClientSecret,
        lastComplete,
        lastRun,
        managed: activeManaged,
      })
      activeId = id
      rowsSource = undefined
      ;({
        name: activeName,
        cache,
        settings,
        auth,
        hasClientSecret,
        lastComplete,
        lastRun,
        managed: activeManaged,
      } = target)
      const list = profileChanged()
      events.emit('auth:changed', auth)
      return list
    },
    'profiles:create': async (name, options) => {
      const environment = options?.environment ?? 'demo'
      const checked = checkName(name, undefined)
      stashed.set(`p${nextProfileNumber++}`, {
        name: checked,
        cache: [],
        settings: { ...settings, environment, tenantId: '' },
        auth: { ...auth, status: 'signed-out', environment, tenantId: '' },
        hasClientSecret: false,
        lastComplete: undefined,
        lastRun: undefined,
        managed: false,
      })
      return profileChanged()
    },
    'profiles:restore-set-aside': async (id) => {
      if (id !== activeId || setAside === undefined)
        throw new FakeIpcError('not-found', 'This profile has no employees set aside to restore.')
      ;({ cache, lastComplete, lastRun } = setAside)
      const { setAsideAt: _at, employeeCount: _count, ...source } = setAside.info
      rowsSource = source
      setAside = undefined
      return profileChanged()
    },
    'profiles:rename': async (id, name) => {
      refuseManaged(id)
      const normalized = checkName(name, id)
      const other = stashed.get(id)
      if (id === activeId) activeName = normalized
      else if (other !== undefined) other.name = normalized
      else throw new FakeIpcError('not-found', 'That profile no longer exists.')
      return profileChanged()
    },
    'profiles:delete': async (id) => {
      refuseManaged(id)
      if (id === activeId)
        throw new FakeIpcError('validation', 'Switch to another profile before deleting this one.')
      if (!stashed.delete(id)) throw new FakeIpcError('not-found', 'That profile no longer exists.')
      views.deleteProfile(id)
      return profileChanged()
    },
    'sync:start': async () => {
      if (auth.status !== 'signed-in') throw new FakeIpcError('not-signed-in', 'Sign in before syncing.')
      if (running) throw new FakeIpcError('busy', 'A sync is already running.')
      running = true
      syncAbort = false
      const runId = (lastRun?.id ?? 0) + 1
      // As in the real core: the answer is the run's id at once; how it ended comes only as `sync:finished`.
      void runSync(runId)
      return { runId }
    },
    'sync:cancel': async () => {
      syncAbort = running
      syncGate?.()
      return syncAbort
    },
    'sync:get-status': async () => status(),
    'employees:query': async (query) => runQuery(cache, query),
    'employees:get': async (uuid) => {
      const row = cache.find((item) => item.UUID === uuid)
      return row ? { row, payCycleIds: typeof row.payCycleId === 'string' ? [row.payCycleId] : [] } : null
    },
    'employees:columns': async () => columnsOf(cache),
    'employees:suggest': async (request) => suggestNames(cache, request),
    'employees:lookup-service': async (request) => {
      if (auth.status !== 'signed-in')
        throw new FakeIpcError('not-signed-in', 'Sign in to look employees up.')
      if (syncFailure) throw new FakeIpcError(syncFailure.code, syncFailure.message)
      const saved = new Set(cache.map((row) => String(row.UUID)))
      return fakeServiceLookup(service, (uuid) => saved.has(uuid), request, now())
    },
    'employees:changes': async (kind, offset, limit) => changes.latestPage(kind, offset, limit),
    'changes:history': async () => changes.history(),
    'changes:list': async (runId, kind, offset, limit, options) =>
      changes.page(runId, kind, offset, limit, options),
    'changes:export': async (request) => {
      checkExportFormat(policy.exports, request.format)
      exportAbort = false
      const result = await changes.export(
        request,
        (progress) => events.emit('export:progress', progress),
        () => exportAbort,
      )
      if (result.status === 'written') exported = true
      return result
    },
    'export:start': async (request) => {
      exportAbort = false
      // Which rows an export holds is the app's own rule (shared with main's export plan), over the fake cache.
      const matching = runQuery(cache, { ...exportRowQuery(request), offset: 0, limit: cache.length }).rows
      const all =
        request.kind === 'view' && request.uuids !== undefined
          ? chosenRows(matching, new Set(request.uuids))
          : matching
      // The first rows the policy allows, when the clerk chose them (decision 057).
      const rows = request.firstRows === undefined ? all : all.slice(0, request.firstRows)
      // The machine policy's export rules, by the core's functions: before any row is written.
      checkExportFormat(policy.exports, request.format)
      checkExportRows(policy.exports, rows.length)
      // A few progress events, as the real core's throttled ones: each re-renders the page, which jsdom pays for.
      for (let written = 0; written < rows.length; written += 500) {
        if (exportAbort) return { status: 'cancelled' }
        events.emit('export:progress', { rowsWritten: written, rowsTotal: rows.length })
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      events.emit('export:progress', { rowsWritten: rows.length, rowsTotal: rows.length })
      exported = true
      const name = request.kind === 'view' ? 'employees' : `roster-${request.payCycleId}`
      return { status: 'written', rows: rows.length, fileName: `${name}.${request.format}` }
    },
    'export:cancel': async () => {
      exportAbort = true
      return true
    },
    'export:show-in-folder': async () => exported,
    'export:print': async (request) => {
      // Main prints the same rows an export would write, at most PRINT_MAX_ROWS of them and never more than the
      // policy's row limit (export-service.ts, preparePrint).
      const total = runQuery(cache, { ...exportRowQuery(request), offset: 0, limit: cache.length }).total
      const bound = Math.min(PRINT_MAX_ROWS, policy.exports.maxRows ?? PRINT_MAX_ROWS)
      return { status: 'printed', rows: Math.min(total, bound), total }
    },
    // As main's diagnostics-handlers.ts, without the dialog or the file: always "saved" under the proposed name.
    'diagnostics:save': async () => {
      diagnosticsSaved = true
      return { status: 'written', fileName: 'RosterDesk diagnostics 2026-01-01.zip', replaced: 0 }
    },
    'diagnostics:show-in-folder': async () => diagnosticsSaved,
    // As main's view-handlers.ts: the active profile's list, answered again after each change.
    'views:list': async () => views.list(activeId),
    'views:save': async (name, state, replace) => {
      views.save(activeId, { name, state, replace, savedAt: new Date(now()) })
      return views.list(activeId)
    },
    'views:rename': async (id, name) => {
      views.rename(activeId, id, name)
      return views.list(activeId)
    },
    'views:delete': async (id) => {
      views.delete(activeId, id)
      return views.list(activeId)
    },
    'views:get-current': async () => ({ profileId: activeId, state: views.current(activeId) ?? null }),
    'views:set-current': async (profileId, state) => {
      if (profileId !== activeId && !stashed.has(profileId)) return false
      views.setCurrent(profileId, state)
      return true
    },
    ...network.handlers,
    ...updates.handlers,
    ...copy.handlers,
  }

  /** One run in the background: a page at a time with progress, then its summary as `sync:finished`. */
  async function runSync(runId: number): Promise<void> {
    const startedAt = new Date(now()).toISOString()
    try {
      const rows = service
      const pagesTotal = Math.max(1, Math.ceil(rows.length / PAGE))
      for (let page = 1; page <= pagesTotal; page += 1) {
        if (syncFailure) throw new FakeIpcError(syncFailure.code, syncFailure.message)
        events.emit('sync:progress', {
          runId,
          phase: 'listing',
          fraction: page / pagesTotal,
          rows: Math.min(rows.length, page * PAGE),
          rowsTotal: rows.length,
          rowsPerSecond: 1000,
        })
        if (page === 1 && options.manualSync) await new Promise<void>((resolve) => (syncGate = resolve))
        else await new Promise((resolve) => setTimeout(resolve, 5))
        if (syncAbort) {
          lastRun = summary(runId, 'cancelled', startedAt, cache.length, undefined)
          return
        }
      }
      const finished = summary(runId, 'complete', startedAt, rows.length, undefined)
      const report = changes.record(cache, rows, syncFacts(finished))
      cache = [...rows]
      rowsSource = settingsRowSource(settings)
      lastComplete = { ...finished, changes: report }
      lastRun = lastComplete
    } catch (error) {
      // As in the real core: a run that fails ends with its summary; only a run that cannot start is refused.
      lastRun = summary(runId, 'failed', startedAt, cache.length, undefined, {
        error: (error as Error).message,
        ...(error instanceof FakeIpcError ? { errorCode: error.code } : {}),
      })
    } finally {
      running = false
      if (lastRun !== undefined) events.emit('sync:finished', lastRun)
    }
  }

  // Record every call (validated arguments, as the handler receives them).
  const recorded = Object.fromEntries(
    Object.entries(handlers).map(([channel, handler]) => [
      channel,
      (...args: unknown[]) => {
        calls.push({ channel, args })
        return (handler as (...a: unknown[]) => Promise<unknown>)(...args)
      },
    ]),
  ) as FakeHandlers

  return {
    handlers: recorded,
    calls,
    approveSignIn: () => signInWaiter?.('approved'),
    releaseSync: () => syncGate?.(),
    setSyncFailure: (error) => (syncFailure = error),
    expireSignIn: (message) => void setAuth({ ...auth, status: 'signed-out', error: message }),
    setServiceEmployees: (rows) => {
      service = [...rows]
    },
    network,
    updates,
    copy,
  }

  /** Where a run read from, as the real run log records it. */
  function syncFacts(run: SyncRunSummary): FakeSyncFacts {
    return {
      runId: run.id,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      environment: settings.environment,
      tenantId: settings.tenantId,
    }
  }

  function summary(
    id: number,
    outcome: SyncRunSummary['status'],
    startedAt: string,
    stored: number,
    changes: ChangeReport | undefined,
    extra: { error?: string; errorCode?: string; endedAt?: string } = {},
  ): SyncRunSummary {
    const { error, errorCode } = extra
    const endedAt = extra.endedAt ?? new Date(Math.max(now(), Date.parse(startedAt))).toISOString()
    return {
      id,
      status: outcome,
      startedAt,
      endedAt,
      totalCount: stored,
      stored,
      pages: Math.ceil(stored / PAGE),
      requests: Math.ceil(stored / PAGE),
      durationMs: 0,
      ...(error === undefined ? {} : { error }),
      ...(errorCode === undefined ? {} : { errorCode }),
      ...(changes === undefined ? {} : { changes }),
    }
  }
}
