import type { PreparingWork } from '../../../shared/domain/query'
import type { AccessTokenSource } from '../api/access-token-source'
import type { FetchLike } from '../api/fetch-like'
import type { RetryPolicy } from '../api/retry-policy'
import { openCacheDatabase, type CacheDatabase } from '../cache/cache-database'
import { ChangeHistory } from '../changes/change-history'
import type { Clock } from '../clock'
import type { CacheKey } from '../sqlite/cache-key'
import { RosterDeskError } from '../errors'
import { ExportService } from '../export/export-service'
import type { Logger } from '../log/logger'
import type { ExportRules } from '../policy/export-rules'
import type { ExportRecord, ExportRecordInput } from '../export-record/export-record'
import type { ColumnBuilder } from '../query/column-builds'
import { QueryEngine } from '../query/query-engine'
import type { SyncCheckpoint } from '../sync/sync-options'
import { SyncService, type SyncStartOptions } from '../sync/sync-service'
import type { SessionRunners } from './session-runners'
import {
  exportContextOf,
  syncStartOptions,
  type ExportContextFacts,
  type SessionSource,
} from './session-source'

/** How a session reaches the service: its fetch and its tokens (the app's sign-in, the CLI's token file). */
export interface SessionConnection {
  readonly fetch: FetchLike
  readonly tokens: AccessTokenSource
}

/** What the services over one cache are built from, in the app and in the CLI. */
export interface SessionServicesDeps {
  /**
   * The cache file and the key its files are encrypted with; `mustExist`: a command that reads a cache never
   * creates one; `keepDamaged`: a catalog that does not open is refused, never set aside (the CLI's `--profile`,
   * whose key may not be the app's).
   */
  readonly db: {
    readonly path: string
    readonly key: CacheKey
    readonly mustExist?: boolean
    readonly keepDamaged?: boolean
  }
  /** Absent: the session does not reach the service (the CLI's reading commands); a sync is refused. */
  readonly connection?: SessionConnection
  readonly clock: Clock
  /** Jitter source for sync backoff. */
  readonly random: () => number
  readonly logger: Logger
  /** Where the heavy work runs (the app's core worker, the CLI's own thread). */
  readonly runners: SessionRunners
  /** False: syncs run on this thread whatever the runners offer (a test's clock and jitter apply only here). */
  readonly syncOnRunner?: boolean
  /** Told each named step of a sync (the crash tests kill a run at one). */
  readonly checkpoint?: (step: SyncCheckpoint) => void
  /** How a sync's list requests are retried; absent: the engine's policy. */
  readonly retry?: Partial<RetryPolicy>
  /** The machine policy's export rules (policy/export-rules.ts). */
  readonly exportRules: ExportRules
  /** Where every file written is noted (export-record.ts); absent: nowhere (tests, benches). */
  readonly exportRecord?: ExportRecord
  /** The session's source now (`SessionSource`); undefined when the host knows none. */
  readonly source: () => SessionSource | undefined
  /** The export context's own parts: the profile's name, the app's version, what the command line names. */
  readonly about: () => Pick<ExportContextFacts, 'profile' | 'appVersion' | 'named'>
  /** Wraps the first-use builder the runners give (a browser test holds one back); absent: as given. */
  readonly columnBuilder?: (builder: ColumnBuilder) => ColumnBuilder
  /** Hears what the query engine is preparing. */
  readonly onPreparing?: (queries: QueryEngine, preparing: PreparingWork[]) => void
}

/** The services over one cache: the part of a session the app and the CLI share. */
export interface SessionServices {
  readonly cache: CacheDatabase
  readonly sync: SyncService
  readonly queries: QueryEngine
  readonly changes: ChangeHistory
  readonly exports: ExportService
  /** What the next sync starts with (`syncStartOptions` over the source now). */
  startOptions(): SyncStartOptions
  /** Asks a running sync and export to stop. */
  cancel(): void
  /** Settles once no sync or export holds the cache. */
  idle(): Promise<void>
  /** Cancels, waits until idle, and closes the cache. */
  close(): Promise<void>
}

/**
 * Opens one cache and composes the services over it: the sync (on the runners' thread or this one), the query
 * engine, the change history and the export service, with the one export context and the one set of sync start
 * options. The app's session (open-session.ts) and the CLI's commands (cli/cli-session.ts) are both built here.
 */
export function openSessionServices(deps: SessionServicesDeps): SessionServices {
  const { clock, logger, runners } = deps
  const cache = openCacheDatabase(deps.db.path, {
    key: deps.db.key,
    ...(deps.db.mustExist === undefined ? {} : { mustExist: deps.db.mustExist }),
    ...(deps.db.keepDamaged === undefined ? {} : { keepDamaged: deps.db.keepDamaged }),
    logger,
  })
  const connection = deps.connection ?? offline
  const onRunner = runners.sync !== undefined && (deps.syncOnRunner ?? true)
  const sync = new SyncService(
    {
      cache,
      fetch: connection.fetch,
      tokens: connection.tokens,
      clock,
      random: deps.random,
      logger,
      ...(deps.checkpoint === undefined ? {} : { checkpoint: deps.checkpoint }),
    },
    onRunner
      ? runners.sync?.({ cache, fetch: connection.fetch, tokens: connection.tokens, logger })
      : undefined,
  )
  const given = runners.columns
  const builder = given === undefined ? undefined : (deps.columnBuilder?.(given) ?? given)
  const queries: QueryEngine = new QueryEngine(cache, {
    ...(builder === undefined ? {} : { builder }),
    logger,
    ...(deps.onPreparing === undefined
      ? {}
      : { onPreparing: (preparing) => deps.onPreparing?.(queries, preparing) }),
  })
  const changes = new ChangeHistory({ cache, queries })
  const exports = new ExportService({
    runner: runners.exports(cache, queries),
    changes,
    rules: deps.exportRules,
    ...(deps.exportRecord === undefined ? {} : { record: recorder(deps.exportRecord, logger) }),
    clock,
    context: () => {
      const lastComplete = sync.getStatus().lastComplete
      return exportContextOf({
        lastComplete,
        run: lastComplete ? cache.runs.log.settingsOf(lastComplete.id) : undefined,
        source: deps.source(),
        ...deps.about(),
      })
    },
  })
  const cancel = (): void => {
    sync.cancel()
    exports.cancel()
  }
  const idle = async (): Promise<void> => {
    await Promise.all([sync.idle(), exports.idle()])
  }
  return {
    cache,
    sync,
    queries,
    changes,
    exports,
    startOptions: () => {
      const source = deps.source()
      if (source === undefined) throw new RosterDeskError('config', 'No service to sync from is known.')
      return syncStartOptions(source, deps.retry)
    },
    cancel,
    idle,
    async close() {
      cancel()
      await idle()
      cache.close()
    },
  }
}

/** A session that does not reach the service: its fetch and tokens refuse. */
const offline: SessionConnection = {
  fetch: () => Promise.reject(notConnected()),
  tokens: {
    getAccessToken: () => Promise.reject(notConnected()),
    handleUnauthorized: () => Promise.reject(notConnected()),
  },
}

function notConnected(): RosterDeskError {
  return new RosterDeskError('internal', 'This session does not reach the service.')
}

/**
 * Notes a written file in `record`. The file is the clerk's already: a record that cannot be written (a full disk)
 * is logged as an error for IT, and the export still reports the file written.
 */
function recorder(record: ExportRecord, logger: Logger): (entry: ExportRecordInput) => void {
  return (entry) => {
    try {
      record.append(entry)
    } catch (error) {
      logger.error(
        `Export record: a ${entry.what} export of ${entry.rows} rows was written but not noted`,
        error,
      )
    }
  }
}
