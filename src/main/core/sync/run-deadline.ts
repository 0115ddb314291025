import type { Clock } from '../clock'
import { SYNC_LIMIT_NAMES } from '../../../shared/settings-rules'
import { RosterDeskError } from '../errors'

/**
 * The whole run's time limit, read on the injected clock before every request and before every wait to retry
 * (a wait that would end past it ends the run now). A stalled request is bounded by the per-request timeout, so a
 * run ends at most one request timeout after its deadline, whatever the service does.
 */
export class RunDeadline {
  private readonly endsAt: number

  constructor(
    private readonly clock: Clock,
    startedAt: number,
    private readonly limitMs: number,
  ) {
    this.endsAt = startedAt + limitMs
  }

  /** Throws when the run is past its deadline, or would be after waiting `waitMs`. */
  check(waitMs = 0): void {
    if (this.clock.now() + waitMs <= this.endsAt) return
    const minutes = Math.round(this.limitMs / 60_000)
    throw new RosterDeskError(
      'service',
      `The sync did not finish within the ${minutes} minute${minutes === 1 ? '' : 's'} it may take, so RosterDesk ` +
        'stopped it. The cache was not changed. Sync again later; if syncs keep running this long, raise ' +
        `“${SYNC_LIMIT_NAMES.syncDeadlineMinutes.name}” in Settings or ask the payroll service’s administrator why the service is slow.`,
      {
        detail: `run deadline of ${this.limitMs} ms reached${waitMs > 0 ? ` (before a ${waitMs} ms wait)` : ''}`,
      },
    )
  }
}
