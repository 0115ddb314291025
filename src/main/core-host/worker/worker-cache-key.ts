import { workerData } from 'node:worker_threads'
import { RosterDeskError } from '../../core/errors'
import { CacheKey } from '../../core/sqlite/cache-key'
import type { WorkerEntry } from './worker-host'

/**
 * How the user's cache key reaches the core worker: once, as the thread's `workerData` (its hexadecimal digits;
 * a CacheKey does not survive structured cloning), never in a job's message and never in a log. Every job that
 * opens a cache file (a sync, a first-use build, an export) opens it with this key.
 */
interface CacheKeyWorkerData {
  readonly cacheKeyHex: string
}

/** `entry` started with `key` as its workerData. */
export function withCacheKey(entry: WorkerEntry, key: CacheKey): WorkerEntry {
  const data: CacheKeyWorkerData = { cacheKeyHex: key.revealHex() }
  return { ...entry, workerData: data }
}

/** The key this worker was started with; a worker started without one refuses every job that needs it. */
export function workerCacheKey(data: unknown = workerData): CacheKey {
  const hex =
    typeof data === 'object' && data !== null && 'cacheKeyHex' in data
      ? (data as CacheKeyWorkerData).cacheKeyHex
      : ''
  if (typeof hex !== 'string' || hex === '')
    throw new RosterDeskError(
      'internal',
      'The core worker was started without the key of the saved employees.',
    )
  return CacheKey.fromHex(hex)
}
