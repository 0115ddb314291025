import type { SyncRetryReason } from '../../../shared/domain/sync'
import type { IpcErrorCode } from '../../../shared/ipc-error-codes'

/**
 * How the list client waits between attempts. Exponential with jitter so that four parallel page requests
 * failing together do not all come back at the same instant; capped so a long outage does not mean hour-long
 * silences; bounded so a broken service ends the run with a message instead of retrying forever.
 */
export interface RetryPolicy {
  /** Attempts per request for failures a retry can fix (network, 5xx, 429, unreadable bodies). */
  readonly maxAttempts: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  /** A Retry-After longer than this ends the run: the clerk is told when to try again instead. */
  readonly maxRetryAfterMs: number
  /**
   * The longest one request may keep failing, from its first try: a retry whose backoff would end past it is not
   * made (failingBudgetMs lowers it to three of the request timeouts), so a page that never answers costs about
   * three request timeouts, not eight.
   * Waits the service asked for (Retry-After) are bounded by `maxRetryAfterMs` and the run's deadline instead.
   */
  readonly maxFailingMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 5 * 60_000,
  maxFailingMs: 90_000,
})

/** However short a request's timeout, a request may keep failing this long: a blip gets its few retries. */
export const MIN_FAILING_MS = 30_000

/**
 * How long one request may keep failing, from its first try: three of its timeouts (a page that never answers
 * is tried about three times), at least MIN_FAILING_MS, at most the policy's `maxFailingMs`. With a 3 s timeout a
 * silent page costs about 30 s, not eight tries; with the default 30 s, 90 s.
 */
export function failingBudgetMs(policy: RetryPolicy, timeoutMs: number): number {
  return Math.min(policy.maxFailingMs, Math.max(MIN_FAILING_MS, 3 * timeoutMs))
}

/**
 * The wait before retry number `retry` (1 for the first retry): "equal jitter", half of the exponential step
 * fixed and half random, so waits never collapse to zero yet still spread out.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1))
  return Math.round(step / 2 + random() * (step / 2))
}

/** The one wording of how often a request was tried: "tried once", "tried twice", "tried 3 times". */
export function triedTimesText(attempts: number): string {
  if (attempts === 1) return 'tried once'
  if (attempts === 2) return 'tried twice'
  return `tried ${attempts} times`
}

/** A request about to be tried again, told to whoever shows progress, so a wait never looks like a hang. */
export interface RetryNotice {
  readonly reason: SyncRetryReason
  /** 1 for the first retry of the request. */
  readonly attempt: number
  /** The wait before it (Retry-After on 429, else `backoffDelay`). */
  readonly delayMs: number
  /** What went wrong with the attempt, in the clerk's words (the failure's message): the progress says it. */
  readonly failure: string
  /** The most attempts the request gets (`maxAttempts`). */
  readonly attempts?: number
  /** The failed attempt's error code: its cause ('connection-refused', 'timeout', …). */
  readonly code?: IpcErrorCode
  /** The service's host (URL `host`: with its port when not the default). */
  readonly host?: string
}
