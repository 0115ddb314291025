import type { RetryNotice } from '../api/retry-policy'
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

  /**
   * Before a wait to retry: throws when the run is past its deadline, or would be once the wait is over, saying
   * what happened: the service asked to wait longer than the run has left (a Retry-After), or a request failed
   * (its own words: a timeout when an answer stopped arriving) and trying again would pass the deadline.
   */
  checkWait(notice: RetryNotice): void {
    const now = this.clock.now()
    if (now + notice.delayMs <= this.endsAt) return
    if (now > this.endsAt) this.check()
    const cause =
      notice.reason === 'rate-limited'
        ? `The payroll service asked RosterDesk to wait ${waitText(notice.delayMs)} before trying again, longer than the ${this.limitText()} a sync may take, so RosterDesk stopped it.`
        : `${notice.failure} Trying again would pass the ${this.limitText()} a sync may take, so RosterDesk stopped it.`
    throw new RosterDeskError(
      'service',
      `${cause} The cache was not changed. Sync again later; if this keeps happening, raise “${SYNC_LIMIT_NAMES.syncDeadlineMinutes.name}” in Settings or ask the payroll service’s administrator.`,
      {
        detail: `run deadline of ${this.limitMs} ms: a ${notice.delayMs} ms wait (${notice.reason}) would pass it`,
      },
    )
  }

  private limitText(): string {
    const minutes = Math.round(this.limitMs / 60_000)
    return `${minutes} minute${minutes === 1 ? '' : 's'}`
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

/** A wait as a clerk reads it: "40 seconds", "4 minutes". */
function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`
  const minutes = Math.ceil(seconds / 60)
  return `${minutes} minutes`
}
