import { RosterDeskError, isAbortError, type ErrorCode } from '../errors'
import type { LogLevel, Logger } from './logger'

/** Failures that are the clerk's own doing or an ordinary state; the clerk read why, support rarely needs it. */
const ORDINARY: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['validation', 'busy', 'not-signed-in'])

/**
 * How loud a failure is in the log. Anything not a RosterDeskError is unexpected (the clerk was told only "send
 * the log to support"), so it is an error; a RosterDeskError the clerk was shown is a warning, or info when it is
 * ordinary; a cancel is not a failure and is not logged.
 */
export function failureLevel(error: unknown): LogLevel | undefined {
  if (isAbortError(error)) return undefined
  if (!(error instanceof RosterDeskError)) return 'error'
  return ORDINARY.has(error.code) ? 'info' : 'warn'
}

/** Logs a caught failure at its failureLevel, with the error so its detail, causes and stack reach the log. */
export function logFailure(logger: Logger, message: string, error: unknown): void {
  const level = failureLevel(error)
  if (level !== undefined) logger[level](message, error)
}
