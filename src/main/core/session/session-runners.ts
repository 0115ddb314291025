import type { AccessTokenSource } from '../api/access-token-source'
import type { FetchLike } from '../api/fetch-like'
import type { CacheDatabase } from '../cache/cache-database'
import type { ExportRunner } from '../export/export-runner'
import { inlineExportRunner } from '../export/inline-export-runner'
import type { Logger } from '../log/logger'
import type { ColumnBuilder } from '../query/column-builds'
import type { QueryEngine } from '../query/query-engine'
import type { SyncRunner } from '../sync/sync-service'

/** What a sync run elsewhere needs of its session: the open cache, and the fetch and tokens only this thread has. */
export interface SyncRunnerDeps {
  readonly cache: CacheDatabase
  readonly fetch: FetchLike
  readonly tokens: AccessTokenSource
  readonly logger: Logger
}

/**
 * Where a session's heavy work runs: the port for what only a host can give. The app's core host gives its core
 * worker's runners (core-host/worker/worker-runners.ts); the CLI runs everything on its own thread
 * (`inlineRunners`). One set serves every session a host opens; `close` ends it once they are all closed.
 */
export interface SessionRunners {
  /** Runs each sync elsewhere; absent: `runSync` on this thread. */
  readonly sync?: (deps: SyncRunnerDeps) => SyncRunner
  /** Builds sort orders and column indexes on first use elsewhere; absent: the query engine builds them inline. */
  readonly columns?: ColumnBuilder
  /** The export service's runner over this cache and its query engine. */
  readonly exports: (cache: CacheDatabase, queries: QueryEngine) => ExportRunner
  close(): Promise<void>
}

/** Everything on the calling thread: the CLI's runners (and a test's that wants no worker). */
export const inlineRunners: SessionRunners = {
  exports: (_cache, queries) => inlineExportRunner({ queries }),
  close: async () => undefined,
}
