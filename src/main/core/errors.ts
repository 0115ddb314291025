import type { IpcError } from '../../shared/ipc-contract'

/**
 * Every failure the product can explain to a clerk is a RosterDeskError with a code from the IPC contract and a
 * message that says what happened and what to do. `detail` is for logs and must never contain a secret.
 */
export type ErrorCode = IpcError['code']

export class RosterDeskError extends Error {
  readonly code: ErrorCode
  readonly detail: string | undefined
  /** Whether trying again later could succeed (network blips, 5xx, 429). */
  readonly retryable: boolean
  /** Per-field messages for a form ('validation' errors only). */
  readonly fieldErrors: Readonly<Record<string, string>> | undefined

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      detail?: string
      retryable?: boolean
      cause?: unknown
      fieldErrors?: Record<string, string>
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'RosterDeskError'
    this.code = code
    this.detail = options.detail
    this.retryable = options.retryable ?? false
    this.fieldErrors = options.fieldErrors
  }
}

export function isRosterDeskError(value: unknown): value is RosterDeskError {
  return value instanceof RosterDeskError
}

export function cancelledError(what = 'The operation'): RosterDeskError {
  return new RosterDeskError('cancelled', `${what} was cancelled.`)
}

/** True for an AbortSignal's abort, whichever way the platform reported it. */
export function isAbortError(value: unknown): boolean {
  if (value instanceof RosterDeskError) return value.code === 'cancelled'
  return value instanceof Error && (value.name === 'AbortError' || value.name === 'TimeoutError')
}

/** The contract's error value: what crosses IPC and what the CLI prints. Unknown errors are not echoed verbatim. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof RosterDeskError) {
    return error.fieldErrors === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, fieldErrors: { ...error.fieldErrors } }
  }
  return {
    code: 'internal',
    message:
      'Something went wrong inside RosterDesk. Try again; if it keeps happening, send the log to support.',
  }
}
