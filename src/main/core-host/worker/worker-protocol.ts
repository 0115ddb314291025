import type { ErrorCode } from '../../core/errors'
import { RosterDeskError } from '../../core/errors'
import { LOG_LEVELS } from '../../core/log/logger'
import type { LogLevel } from '../../core/log/logger'

/**
 * One kind of job a worker runs: what goes in, what comes out and what it reports on the way. A worker's job
 * table (`JobMap`) types both ends: the host's `run` and the worker's handlers are checked against the same map.
 */
export interface JobSpec<Input, Output, Progress = never, Calls extends CallMap = Record<never, never>> {
  readonly input: Input
  readonly output: Output
  readonly progress: Progress
  /** What the job may ask of the host while it runs (what only the host has: its fetch, its tokens). */
  readonly calls: Calls
}

/** One request a job makes of the host, and its answer. */
export interface CallSpec<Arg, Result> {
  readonly arg: Arg
  readonly result: Result
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bound of a generic, never a value's type
export type CallMap = Record<string, CallSpec<any, unknown>>

// Handler inputs are contravariant, so a map of specific specs is only assignable to a spec over `never` inputs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bound of a generic, never a value's type
export type JobMap = Record<string, JobSpec<any, unknown, unknown, any>>

/** An error as it crosses the thread boundary: a RosterDeskError's fields, rebuilt on the other side. */
export interface WorkerError {
  readonly code: ErrorCode
  readonly message: string
  readonly detail?: string
  readonly retryable?: boolean
}

/** Host → worker. `reply` answers a job's `call` (by the call's own number). */
export type ToWorker =
  | { readonly type: 'run'; readonly id: number; readonly job: string; readonly input: unknown }
  | { readonly type: 'cancel'; readonly id: number }
  | { readonly type: 'reply'; readonly id: number; readonly call: number; readonly value: unknown }
  | { readonly type: 'reply'; readonly id: number; readonly call: number; readonly error: WorkerError }

/**
 * Worker → host. `log` is an entry for the host's Logger, from a job or from the worker itself (no job id):
 * already formatted and redacted on the worker's side, where the error it describes is.
 */
export type FromWorker =
  | { readonly type: 'log'; readonly level: LogLevel; readonly text: string }
  | { readonly type: 'progress'; readonly id: number; readonly value: unknown }
  | { readonly type: 'done'; readonly id: number; readonly output: unknown }
  | { readonly type: 'failed'; readonly id: number; readonly error: WorkerError }
  | {
      readonly type: 'call'
      readonly id: number
      readonly call: number
      readonly name: string
      readonly arg: unknown
    }
  | { readonly type: 'call-cancel'; readonly id: number; readonly call: number }

/** What a worker sends for a failure: a RosterDeskError as it is, anything else as 'internal' with its stack. */
export function toWorkerError(error: unknown): WorkerError {
  if (error instanceof RosterDeskError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.detail === undefined ? {} : { detail: error.detail }),
      ...(error.retryable ? { retryable: true } : {}),
    }
  }
  return {
    code: 'internal',
    message:
      'A background task of RosterDesk failed. Try again; if it keeps happening, send the log to support.',
    detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
  }
}

export function fromWorkerError(error: WorkerError): RosterDeskError {
  return new RosterDeskError(error.code, error.message, {
    ...(error.detail === undefined ? {} : { detail: error.detail }),
    ...(error.retryable === true ? { retryable: true } : {}),
  })
}

/** Messages are checked by shape at the boundary; a worker is our code, but a malformed message must not throw. */
export function isFromWorker(value: unknown): value is FromWorker {
  if (typeof value !== 'object' || value === null) return false
  const message = value as { type?: unknown; id?: unknown }
  if (message.type === 'log') {
    const { level, text } = value as { level?: unknown; text?: unknown }
    return typeof text === 'string' && LOG_LEVELS.some((known) => known === level)
  }
  if (typeof message.id !== 'number') return false
  if (message.type === 'call' || message.type === 'call-cancel') {
    return typeof (value as { call?: unknown }).call === 'number'
  }
  return message.type === 'progress' || message.type === 'done' || message.type === 'failed'
}

export function isToWorker(value: unknown): value is ToWorker {
  if (typeof value !== 'object' || value === null) return false
  const message = value as { type?: unknown; id?: unknown; job?: unknown }
  if (typeof message.id !== 'number') return false
  if (message.type === 'reply') return typeof (value as { call?: unknown }).call === 'number'
  return message.type === 'cancel' || (message.type === 'run' && typeof message.job === 'string')
}
