import type {
  AuthState,
  ChangeKind,
  ChangeListPage,
  ChangeReport,
  EmployeeRow,
  Settings,
  SettingsView,
  SyncRunSummary,
  SyncStatus,
} from '../../../src/shared/domain'
import type { IpcError } from '../../../src/shared/ipc-contract'
import { FakeIpcError, type FakeEvents, type FakeHandlers } from './fake-api'
import { columnsOf, runQuery } from './fake-query'

export interface FakeCoreOptions {
  /** The employees "on the service": a sync copies them into the cache. */
  readonly serviceEmployees: readonly EmployeeRow[]
  /** Start with the service's employees already synced (as if from an earlier session). */
  readonly synced?: boolean
  readonly signedIn?: boolean
  readonly secretStorage?: 'os' | 'memory-only'
  readonly settings?: Partial<Settings>
  /** When set, sign-in waits for `approveSignIn()` or a cancel instead of succeeding at once. */
  readonly manualSignIn?: boolean
  /** When set, a started sync stops after its first page until `releaseSync()` is called. */
  readonly manualSync?: boolean
  /** Each sync after this one fails with this error (e.g. code 'network'), as if the service were unreachable. */
  readonly syncFailure?: IpcError
  /** The time "now"; the last sync of a `synced` fake ended two hours before it. */
  readonly now?: () => number
}

export interface FakeCore {
  readonly handlers: FakeHandlers
  /** Every channel invoked, in order, with its validated arguments. */
  readonly calls: { channel: string; args: unknown[] }[]
  approveSignIn(): void
  releaseSync(): void
  setSyncFailure(error: IpcError | undefined): void
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
  let auth: AuthState = {
    status: options.signedIn ? 'signed-in' : 'signed-out',
    environment: options.settings?.environment ?? 'demo',
    tenantId: options.settings?.tenantId ?? 'tenant-demo',
    secretStorage: options.secretStorage ?? 'os',
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
    ...options.settings,
  }
  let hasClientSecret = false
  let lastComplete: SyncRunSummary | undefined = options.synced
    ? summary(1, 'complete', new Date(now() - 2 * 3600_000 - 60_000).toISOString(), cache.length, undefined, {
        endedAt: new Date(now() - 2 * 3600_000).toISOString(),
      })
    : undefined
  let lastRun = lastComplete
  /** The full lists behind the last complete sync's report, as the real cache keeps them. */
  let changeLists: ChangeLists = { added: [], removed: [], changed: [] }
  let running = false
  let syncFailure = options.syncFailure
  let signInWaiter: ((outcome: 'approved' | 'cancelled') => void) | undefined
  let syncGate: (() => void) | undefined
  let syncAbort = false
  let exportAbort = false
  let exported = false
  const calls: FakeCore['calls'] = []

  const setAuth = (next: AuthState): AuthState => {
    auth = next
    events.emit('auth:changed', auth)
    return auth
  }
  const view = (): SettingsView => ({ settings, hasClientSecret, secretStorage: auth.secretStorage })
  const status = (): SyncStatus => ({ running, lastRun, lastComplete, employeeCount: cache.length })

  const handlers: FakeHandlers = {
    'app:get-info': async () => ({
      name: 'RosterDesk',
      version: '0.1.0',
      environment: settings.environment,
      platform: 'linux',
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
    'settings:update': async (patch) => {
      settings = { ...settings, ...patch, baseUrls: { ...settings.baseUrls, ...patch.baseUrls } }
      auth = { ...auth, environment: settings.environment, tenantId: settings.tenantId }
      return view()
    },
    'settings:set-client-secret': async () => {
      hasClientSecret = true
      return view()
    },
    'sync:start': async () => {
      if (auth.status !== 'signed-in') throw new FakeIpcError('not-signed-in', 'Sign in before syncing.')
      if (running) throw new FakeIpcError('busy', 'A sync is already running.')
      running = true
      syncAbort = false
      const runId = (lastRun?.id ?? 0) + 1
      const startedAt = new Date(now()).toISOString()
      try {
        const rows = options.serviceEmployees
        const pagesTotal = Math.max(1, Math.ceil(rows.length / PAGE))
        for (let page = 1; page <= pagesTotal; page += 1) {
          if (syncFailure) throw new FakeIpcError(syncFailure.code, syncFailure.message)
          events.emit('sync:progress', {
            runId,
            phase: 'listing',
            pagesDone: page,
            pagesTotal,
            rows: Math.min(rows.length, page * PAGE),
            rowsPerSecond: 1000,
          })
          if (page === 1 && options.manualSync) await new Promise<void>((resolve) => (syncGate = resolve))
          else await new Promise((resolve) => setTimeout(resolve, 5))
          if (syncAbort) {
            lastRun = summary(runId, 'cancelled', startedAt, cache.length, undefined)
            events.emit('sync:finished', lastRun)
            return lastRun
          }
        }
        const { report: changes, lists } = diff(cache, rows)
        changeLists = lists
        cache = [...rows]
        lastComplete = summary(runId, 'complete', startedAt, cache.length, changes)
        lastRun = lastComplete
        events.emit('sync:finished', lastRun)
        return lastRun
      } catch (error) {
        // As in the real core: a run that fails resolves with its summary; only a run that cannot start rejects.
        lastRun = summary(runId, 'failed', startedAt, cache.length, undefined, {
          error: (error as Error).message,
          ...(error instanceof FakeIpcError ? { errorCode: error.code } : {}),
        })
        events.emit('sync:finished', lastRun)
        return lastRun
      } finally {
        running = false
      }
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
    'employees:columns': async () => (cache.length > 0 ? columnsOf(cache) : []),
    'employees:changes': async (kind, offset, limit) => ({
      total: changeLists[kind].length,
      items: changeLists[kind].slice(offset, offset + limit),
    }),
    'export:start': async (request) => {
      exportAbort = false
      const rows =
        request.kind === 'view'
          ? runQuery(cache, { ...request.query, offset: 0, limit: cache.length }).rows
          : cache.filter((row) => row.payCycleId === request.payCycleId)
      for (let written = 0; written < rows.length; written += 100) {
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

function nameOf(row: EmployeeRow): string {
  return `${String(row.firstName ?? '')} ${String(row.lastName ?? '')}`.trim()
}

type ChangeLists = Record<ChangeKind, ChangeListPage['items']>

function diff(
  before: readonly EmployeeRow[],
  after: readonly EmployeeRow[],
): { report: ChangeReport; lists: ChangeLists } {
  const old = new Map(before.map((row) => [String(row.UUID), row]))
  const next = new Map(after.map((row) => [String(row.UUID), row]))
  const added = after.filter((row) => !old.has(String(row.UUID)))
  const removed = before.filter((row) => !next.has(String(row.UUID)))
  const changed = after.flatMap((row) => {
    const previous = old.get(String(row.UUID))
    if (!previous) return []
    const fields = Object.keys(row).filter(
      (key) => JSON.stringify(row[key]) !== JSON.stringify(previous[key]),
    )
    return fields.length > 0 ? [{ UUID: String(row.UUID), name: nameOf(row), fields }] : []
  })
  const item = (row: EmployeeRow) => ({ UUID: String(row.UUID), name: nameOf(row) })
  const lists: ChangeLists = { added: added.map(item), removed: removed.map(item), changed }
  return {
    report: {
      added: added.length,
      removed: removed.length,
      changed: changed.length,
      addedSample: lists.added.slice(0, 10),
      removedSample: lists.removed.slice(0, 10),
      changedSample: changed.slice(0, 10),
    },
    lists,
  }
}
