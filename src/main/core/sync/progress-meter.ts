import type { EmployeeRow } from '../../../shared/domain/rows'
import type { SyncProgress, SyncRetry } from '../../../shared/domain/sync'
import type { RetryNotice } from '../api/retry-policy'
import type { Clock } from '../clock'

type Phase = SyncProgress['phase']

/** Progress events are for people: a few per second is plenty, however many pages arrive. */
export const PROGRESS_INTERVAL_MS = 100

/**
 * No time remaining before the run has been measured this long: the first requests' latency or a token refresh
 * would make an estimate from the first seconds swing wildly.
 */
export const ETA_MIN_MEASURED_MS = 5_000

/** One list the run walks: the main list, or one tracked pay cycle's filtered list. */
interface ListWork {
  /** Rows received in earlier passes: a pass repeated because the list moved adds work, it undoes none. */
  earlier: number
  /** Rows the service reports for the current pass; undefined until that pass's page 1 has arrived. */
  total: number | undefined
  /** Rows received in the current pass. */
  received: number
}

/**
 * Keeps the run's progress and tells listeners, throttled. Everything the run downloads is on one scale, so one
 * bar goes from 0 to 1 across the main list and every tracked pay-cycle list instead of restarting per list:
 * the fraction is rows received over rows expected, where a list's expected rows are its `totalCount` once its
 * page 1 has arrived and an estimate before (see `estimate`). Time remaining is the rows still to come at the
 * row rate measured on the injected clock, leaving out the time spent waiting to retry: a wait is shown as
 * itself while it lasts, and counting it afterwards would make a 4-second Retry-After at the start read as
 * minutes left for a run seconds from done. Phase changes, the first and last page of a pass, and every change
 * of retry state are reported at once, so a UI never stays on a stale "page 199 of 200" or a wait that is over.
 */
export class ProgressMeter {
  private phase: Phase = 'listing'
  private readonly main: ListWork = { earlier: 0, total: undefined, received: 0 }
  private readonly cycles = new Map<string, ListWork>()
  /** Rows of the main list's current pass whose own `payCycleId` names each tracked cycle. */
  private readonly cycleFieldCounts = new Map<string, number>()
  private rowsWithCycleField = 0
  private staged = 0
  private retry: SyncRetry | undefined
  /** Time spent waiting to retry, with no page arriving: not part of the measured rate. */
  private pausedMs = 0
  private pausedSince: number | undefined
  private lastEmit = Number.NEGATIVE_INFINITY
  private readonly startedAt: number

  constructor(
    private readonly runId: number,
    private readonly clock: Clock,
    trackedPayCycles: readonly string[],
    private readonly emit: (progress: SyncProgress) => void,
  ) {
    this.startedAt = clock.now()
    for (const id of trackedPayCycles) {
      this.cycles.set(id, { earlier: 0, total: undefined, received: 0 })
      this.cycleFieldCounts.set(id, 0)
    }
  }

  /** A tracked pay cycle's list is about to be walked: the phase changes before its first answer. */
  startPayCycle(): void {
    this.phase = 'pay-cycles'
    this.report(true)
  }

  /** A pass over a list has learned its size from page 1. `payCycleId` undefined means the main list. */
  passStarted(payCycleId: string | undefined, pass: number, totalCount: number): void {
    const list = this.list(payCycleId)
    list.earlier += list.received
    list.total = totalCount
    list.received = 0
    // Page 1 has just answered, so the service answers again.
    this.endRetry()
    if (payCycleId === undefined) {
      this.phase = pass === 1 ? 'listing' : 'reconciling'
      for (const id of this.cycleFieldCounts.keys()) this.cycleFieldCounts.set(id, 0)
      this.rowsWithCycleField = 0
    }
    this.report(true)
  }

  /** A page of a list arrived; `staged` is the employees downloaded so far (main list only). */
  pageArrived(payCycleId: string | undefined, rows: readonly EmployeeRow[], staged?: number): void {
    const list = this.list(payCycleId)
    list.received += rows.length
    if (staged !== undefined) this.staged = staged
    if (payCycleId === undefined) this.countCycleFields(rows)
    const first = list.received === rows.length
    const last = list.total !== undefined && list.received >= list.total
    // A page arriving means the service answers again: the retry state ends here.
    const recovered = this.retry !== undefined
    this.endRetry()
    this.report(first || last || recovered)
  }

  /** A request waits to be tried again: shown at once, whatever the throttle, so a wait never looks like a hang. */
  retrying(notice: RetryNotice): void {
    this.retry = {
      reason: notice.reason,
      retryInSeconds: Math.ceil(notice.delayMs / 1000),
      attempt: notice.attempt,
      cause: notice.failure.slice(0, 2_000),
      ...(notice.attempts === undefined ? {} : { attempts: notice.attempts }),
      ...(notice.code === undefined ? {} : { code: notice.code }),
      ...(notice.host === undefined ? {} : { host: notice.host.slice(0, 300) }),
    }
    this.pausedSince ??= this.clock.now()
    this.report(true)
  }

  /** Every list is in; the snapshot is being sealed and swapped in. */
  committing(): void {
    this.phase = 'committing'
    this.endRetry()
    this.report(true)
  }

  snapshot(): SyncProgress {
    const now = this.clock.now()
    const measuredMs = now - this.startedAt - this.pausedMs - (now - (this.pausedSince ?? now))
    const received = this.receivedRows()
    const rowsPerSecond = measuredMs > 0 ? received / (measuredMs / 1000) : 0
    const totals = this.totals()
    const fraction = this.phase === 'committing' ? 1 : totals?.fraction
    const eta =
      totals !== undefined &&
      this.phase !== 'committing' &&
      this.retry === undefined &&
      measuredMs >= ETA_MIN_MEASURED_MS &&
      rowsPerSecond > 0
        ? Math.ceil(totals.remaining / rowsPerSecond)
        : undefined
    return {
      runId: this.runId,
      phase: this.phase,
      ...(fraction === undefined ? {} : { fraction }),
      rows: this.staged,
      rowsTotal: this.main.total ?? 0,
      rowsPerSecond: Math.round(rowsPerSecond * 10) / 10,
      ...(eta === undefined ? {} : { etaSeconds: eta }),
      ...(this.retry === undefined ? {} : { retry: { ...this.retry } }),
    }
  }

  /** Rows done and expected across every list; undefined until the main list's size is known. */
  private totals(): { fraction: number; remaining: number } | undefined {
    const mainTotal = this.main.total
    if (mainTotal === undefined) return undefined
    let done = 0
    let expected = 0
    const add = (list: ListWork, size: number): void => {
      const listExpected = list.earlier + size
      done += Math.min(list.earlier + list.received, listExpected)
      expected += listExpected
    }
    add(this.main, mainTotal)
    for (const [id, list] of this.cycles) add(list, list.total ?? this.estimate(id, mainTotal))
    return { fraction: expected === 0 ? 1 : done / expected, remaining: expected - done }
  }

  /**
   * A pay-cycle list's size before its page 1 has answered. Its rows are some of the main list's, so when rows
   * carry their own `payCycleId` the share of the main list seen so far that names it is a good guess; when they
   * do not, the main list's size is an upper bound, and the bar then only ever jumps forward once it is known.
   */
  private estimate(payCycleId: string, mainTotal: number): number {
    if (this.rowsWithCycleField === 0 || this.main.received === 0) return mainTotal
    const share = (this.cycleFieldCounts.get(payCycleId) ?? 0) / this.main.received
    return Math.round(share * mainTotal)
  }

  private endRetry(): void {
    this.retry = undefined
    if (this.pausedSince === undefined) return
    this.pausedMs += this.clock.now() - this.pausedSince
    this.pausedSince = undefined
  }

  private countCycleFields(rows: readonly EmployeeRow[]): void {
    for (const row of rows) {
      const id = row['payCycleId']
      if (typeof id !== 'string') continue
      this.rowsWithCycleField++
      const count = this.cycleFieldCounts.get(id)
      if (count !== undefined) this.cycleFieldCounts.set(id, count + 1)
    }
  }

  private receivedRows(): number {
    let rows = this.main.earlier + this.main.received
    for (const list of this.cycles.values()) rows += list.earlier + list.received
    return rows
  }

  private list(payCycleId: string | undefined): ListWork {
    if (payCycleId === undefined) return this.main
    let list = this.cycles.get(payCycleId)
    if (list === undefined) {
      list = { earlier: 0, total: undefined, received: 0 }
      this.cycles.set(payCycleId, list)
    }
    return list
  }

  private report(force: boolean): void {
    const now = this.clock.now()
    if (!force && now - this.lastEmit < PROGRESS_INTERVAL_MS) return
    this.lastEmit = now
    this.emit(this.snapshot())
  }
}
