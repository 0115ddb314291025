import { CHANGE_HISTORY_RUNS } from '../../../shared/change-rules'

/**
 * How much change history a cache keeps: the reports of the last CHANGE_HISTORY_RUNS complete syncs, and their
 * entries while all the kept change logs together stay within CHANGE_HISTORY_BYTES. A typical day at a million
 * employees (a few thousand joiners, leavers and edits) logs a few MB, so the byte bound only bites after mass
 * edits (a field every row gained, a re-keyed pay cycle): then older syncs keep their counts but no longer list
 * their employees, and the cache cannot grow by gigabytes. The newest sync keeps its entries whatever their size.
 */
export const CHANGE_HISTORY_BYTES = 256 * 1024 * 1024

/** A complete run, newest first, and the size of its change log file (absent: it has none). */
export interface LoggedRun {
  readonly runId: number
  readonly changeLogBytes?: number
}

export interface RetentionLimits {
  readonly runs: number
  readonly bytes: number
}

const DEFAULT_LIMITS: RetentionLimits = { runs: CHANGE_HISTORY_RUNS, bytes: CHANGE_HISTORY_BYTES }

/** The runs (of `newestFirst`, complete runs newest first) whose change logs are to be let go. */
export function changeLogsToRelease(
  newestFirst: readonly LoggedRun[],
  limits: RetentionLimits = DEFAULT_LIMITS,
): number[] {
  const release: number[] = []
  let kept = 0
  let overBudget = false
  newestFirst.forEach((run, index) => {
    if (run.changeLogBytes === undefined) return
    if (index >= limits.runs || overBudget) {
      release.push(run.runId)
      return
    }
    // The newest log is always kept; an older one only while the total stays within the budget, and once one
    // does not fit, no older one is kept either (the history never has holes).
    if (kept > 0 && kept + run.changeLogBytes > limits.bytes) {
      overBudget = true
      release.push(run.runId)
      return
    }
    kept += run.changeLogBytes
  })
  return release
}
