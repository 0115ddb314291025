import type { Logger } from '../../core/log/logger'
import type { SessionRunners } from '../../core/session/session-runners'
import type { CoreJobs } from './core-jobs'
import { workerColumnBuilder } from './worker-column-builder'
import { CORE_WORKER_IDLE_STOP_MS, coreWorkerEntry } from './worker-entry'
import { workerExportRunner } from './worker-exports'
import { WorkerHost, type WorkerEntry } from './worker-host'
import { workerSyncRunner } from './worker-sync'
import { withCacheKey } from './worker-cache-key'
import type { CacheKey } from '../../core/sqlite/cache-key'

/**
 * The app's session runners: syncs, first-use builds and exports as jobs on one core worker, which every profile's
 * session shares, so the thread that answers IPC never waits on them (ARCHITECTURE, "Runtimes and threads").
 * `close` stops the worker. `entry`: the worker's code (worker-entry.ts finds the built file or the source).
 */
export function coreWorkerRunners(options: {
  readonly logger: Logger
  readonly entry?: WorkerEntry
  /** The user's cache key, given to the worker once (worker-cache-key.ts). */
  readonly cacheKey: CacheKey
}): SessionRunners {
  const entry = withCacheKey(options.entry ?? coreWorkerEntry(), options.cacheKey)
  const worker = new WorkerHost<CoreJobs>(entry, {
    name: 'core worker',
    logger: options.logger,
    idleStopMs: CORE_WORKER_IDLE_STOP_MS,
  })
  return {
    sync: (deps) => workerSyncRunner(worker, deps),
    columns: workerColumnBuilder(worker),
    exports: (cache) => workerExportRunner(worker, cache),
    close: () => worker.stop(),
  }
}
