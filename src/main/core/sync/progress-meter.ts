import type { SyncProgress } from '../../../shared/domain'
import type { Clock } from '../clock'

type Phase = SyncProgress['phase']

/** Progress events are for people: a few per second is plenty, however many pages arrive. */
export const PROGRESS_INTERVAL_MS = 100

/**
 * Keeps the run's progress and tells listeners, throttled. Phase changes and the first and last page of a
 * phase are always reported, so a UI never stays on a stale "page 199 of 200".
 */
export class ProgressMeter {
  private phase: Phase = 'listing'
  private pagesDone = 0
  private pagesTotal = 0
  private rows = 0
  private lastEmit = Number.NEGATIVE_INFINITY
  private readonly startedAt: number

  constructor(
    private readonly runId: number,
    private readonly clock: Clock,
    private readonly emit: (progress: SyncProgress) => void,
  ) {
    this.startedAt = clock.now()
  }

  /** Starts a phase (or a new pass of it) with its page count. */
  begin(phase: Phase, pagesTotal: number): void {
    this.phase = phase
    this.pagesTotal = pagesTotal
    this.pagesDone = 0
    this.report(true)
  }

  pageDone(rows: number): void {
    this.pagesDone++
    this.rows = rows
    this.report(this.pagesDone === 1 || this.pagesDone >= this.pagesTotal)
  }

  snapshot(): SyncProgress {
    const seconds = (this.clock.now() - this.startedAt) / 1000
    return {
      runId: this.runId,
      phase: this.phase,
      pagesDone: Math.min(this.pagesDone, this.pagesTotal),
      pagesTotal: this.pagesTotal,
      rows: this.rows,
      rowsPerSecond: seconds > 0 ? Math.round((this.rows / seconds) * 10) / 10 : 0,
    }
  }

  private report(force: boolean): void {
    const now = this.clock.now()
    if (!force && now - this.lastEmit < PROGRESS_INTERVAL_MS) return
    this.lastEmit = now
    this.emit(this.snapshot())
  }
}
