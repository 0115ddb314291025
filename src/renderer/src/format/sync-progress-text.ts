import type { SyncProgress, SyncRetry } from '../../../shared/domain/sync'
import { formatCount } from './format-value'

/** Every word the progress line uses, in one place, so the app says the same thing wherever a sync shows. */

const PHASES: Record<SyncProgress['phase'], string> = {
  listing: 'Downloading employees',
  reconciling: 'Checking for changes',
  'pay-cycles': 'Reading pay cycles',
  committing: 'Saving',
}

export const STARTING_TEXT = 'Starting sync…'

/** What the service did and when the next attempt goes; `secondsLeft` counts down from `retryInSeconds`. */
export function retryText(retry: SyncRetry, secondsLeft: number = retry.retryInSeconds): string {
  const when = secondsLeft > 0 ? `retrying in ${formatCount(secondsLeft)} s` : 'retrying…'
  switch (retry.reason) {
    case 'rate-limited':
      return `Service busy, ${when}`
    case 'server-error':
      return `Service error, ${when}`
    case 'network':
      // Backoff after a lost connection is short and jittered: a number would only flicker.
      return 'Connection lost, retrying…'
  }
}

/** Time remaining, as coarse as a clerk plans with: seconds in fives, then minutes, then hours and minutes. */
export function etaText(seconds: number): string {
  if (seconds <= 10) return 'a few seconds left'
  if (seconds < 60) return `about ${Math.ceil(seconds / 5) * 5} s left`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `about ${minutes} min left`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`
}

/** The progress line: what is happening, how much, how fast and how long, or why it is waiting. */
export function syncProgressText(progress: SyncProgress | undefined, retrySecondsLeft?: number): string {
  if (progress === undefined) return STARTING_TEXT
  if (progress.retry !== undefined) return retryText(progress.retry, retrySecondsLeft)
  if (progress.phase === 'committing') return `Saving ${formatCount(progress.rows)} employees…`
  const counted =
    progress.phase === 'listing'
      ? `: ${formatCount(progress.rows)}${progress.rowsTotal > 0 ? ` of ${formatCount(progress.rowsTotal)}` : ''}`
      : ''
  // Rows per second, so a clerk can tell a slow service from a stuck sync.
  const rate =
    progress.rowsPerSecond > 0 ? ` (${formatCount(Math.round(progress.rowsPerSecond))} rows/s)` : ''
  const eta = progress.etaSeconds === undefined ? '' : `, ${etaText(progress.etaSeconds)}`
  return `${PHASES[progress.phase]}${counted}${rate}${eta}`
}
