import type { SyncProgress, SyncRetry } from '../../../shared/domain/sync'
import type { IpcErrorCode } from '../../../shared/ipc-error-codes'
import { formatCount } from './format-value'

/** Every word the progress line uses, in one place, so the app says the same thing wherever a sync shows. */

const PHASES: Record<SyncProgress['phase'], string> = {
  listing: 'Downloading employees',
  reconciling: 'Checking for changes',
  'pay-cycles': 'Reading pay cycles',
  committing: 'Saving',
}

export const STARTING_TEXT = 'Starting sync…'

/**
 * What the service did, when the next attempt goes and which of how many it is ("Service busy, retrying in 8 s —
 * attempt 2 of 8"); `secondsLeft` counts down from `retryInSeconds`.
 */
export function retryText(retry: SyncRetry, secondsLeft: number = retry.retryInSeconds): string {
  const when = secondsLeft > 0 ? `retrying in ${formatCount(secondsLeft)} s` : 'retrying…'
  switch (retry.reason) {
    case 'rate-limited':
      return `Service busy, ${when} — ${attemptText(retry)}`
    case 'server-error':
      return `Service error, ${when} — ${attemptText(retry)}`
    case 'network':
      return notAnsweringText(retry, secondsLeft)
  }
}

/** A failed attempt's cause, by its error code, as the progress line says it in brackets. */
const NO_ANSWER_CAUSES: Partial<Record<IpcErrorCode, string>> = {
  'connection-refused': 'connection refused',
  timeout: 'timed out',
  'host-not-found': 'name not found',
}

/**
 * No answer at all from the service: which service, why, when the next attempt goes and which of how many it is
 * ("The payroll service at payroll.example.com is not answering (connection refused). Trying again in 5 s —
 * attempt 2 of 8."). Said from the first refusal on; the Cancel button stands beside it.
 */
function notAnsweringText(retry: SyncRetry, secondsLeft: number): string {
  const at = retry.host === undefined ? '' : ` at ${retry.host}`
  const cause = (retry.code === undefined ? undefined : NO_ANSWER_CAUSES[retry.code]) ?? 'connection lost'
  const when = secondsLeft > 0 ? `in ${formatCount(secondsLeft)} s` : 'now'
  return `The payroll service${at} is not answering (${cause}). Trying again ${when} — ${attemptText(retry)}.`
}

/** The attempt to come, of how many when the retry policy says ("attempt 2 of 8", else "attempt 2"). */
function attemptText(retry: SyncRetry): string {
  const of = retry.attempts === undefined ? '' : ` of ${formatCount(retry.attempts)}`
  return `attempt ${formatCount(retry.attempt + 1)}${of}`
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
