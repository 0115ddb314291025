import type { CacheDatabase } from '../cache/cache-database'
import type { RunSettings } from '../cache/run-log'
import type { SnapshotReader } from '../snapshot/snapshot-reader'

/** What in a run's settings says whose employees it read. */
export type RunSource = Pick<RunSettings, 'environment' | 'baseUrl' | 'tenantId' | 'statusFilter'>

/**
 * Whether two runs read the same employees: the same environment, service address, tenant and scope. Only then is
 * a run compared with the previous one; a run from another source counts as a first sync, because "+N −M" against
 * another company's (or another scope's) employees would tell a clerk of hires and leavers that never happened.
 *
 * What a run log did not record is not held against a run: runs logged before the environment was kept have none,
 * and the CLI does not say it. Demo's address is not compared either, because its built-in sandbox listens on a
 * new port each time RosterDesk starts; its environment and tenant still are. An absent tenant or scope is none
 * (everyone), as the run log writes them only when set.
 */
export function sameSource(previous: RunSource, next: RunSource): boolean {
  if (
    previous.environment !== undefined &&
    next.environment !== undefined &&
    previous.environment !== next.environment
  ) {
    return false
  }
  const demo = previous.environment === 'demo' || next.environment === 'demo'
  if (!demo && previous.baseUrl && next.baseUrl && previous.baseUrl !== next.baseUrl) return false
  if ((previous.tenantId ?? '') !== (next.tenantId ?? '')) return false
  return (previous.statusFilter ?? '') === (next.statusFilter ?? '')
}

/**
 * The snapshot a run with these settings is compared with: the cache's current one when the run that wrote it read
 * the same source, else none (the run is then a first sync). A current snapshot whose run settings cannot be read
 * is compared, as before this rule existed.
 */
export function comparableSnapshot(cache: CacheDatabase, next: RunSource): SnapshotReader | null {
  const current = cache.currentSnapshot()
  if (current === null) return null
  const previous = cache.runs.log.settingsOf(current.runId)
  return previous === undefined || sameSource(previous, next) ? current : null
}
