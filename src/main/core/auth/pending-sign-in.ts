import { timingSafeEqual } from 'node:crypto'
import type { Clock } from '../clock'
import type { Logger } from '../log/logger'
import { matchesRedirectUri, parseCallbackUrl, readCallbackPayload } from './callback-url'

/** How long the browser has to come back: long enough to find a password, short enough that a stale link dies. */
export const SIGN_IN_TTL_MS = 10 * 60_000

/** How one sign-in attempt ended. */
export type SignInOutcome =
  | { readonly type: 'code'; readonly code: string }
  | { readonly type: 'refused'; readonly error: string; readonly description?: string }
  | { readonly type: 'timed-out' }
  | { readonly type: 'cancelled' }
  | { readonly type: 'superseded' }

/** Why a callback was not taken; logged as is, so it names no value. */
export type IgnoredReason =
  'not-a-callback' | 'no-pending-sign-in' | 'wrong-address' | 'expired' | 'malformed' | 'state-mismatch'

export type CallbackVerdict =
  | { readonly accepted: true; readonly attemptId: number }
  | { readonly accepted: false; readonly reason: IgnoredReason }

export interface PendingSignIn {
  readonly id: number
  readonly redirectUri: string
  readonly expiresAt: number
  /** Settles exactly once: with the callback, a refusal, the timeout, a cancel or a newer sign-in. */
  readonly outcome: Promise<SignInOutcome>
}

interface Attempt extends PendingSignIn {
  readonly state: string
  readonly settle: (outcome: SignInOutcome) => void
}

/**
 * The one sign-in waiting for the browser (as Bruno keeps one pending authorization). A callback is taken only
 * when it is addressed to the attempt's redirect URI, arrives before expiry and carries the attempt's `state`;
 * taking it ends the attempt, so a replayed callback finds nothing to match. Starting a new attempt supersedes
 * the old one. Everything refused is logged by reason only.
 */
export class PendingSignInRegistry {
  readonly #clock: Clock
  readonly #logger: Logger
  readonly #ttlMs: number
  #current: Attempt | undefined
  #nextId = 1

  constructor(deps: { clock: Clock; logger: Logger; ttlMs?: number }) {
    this.#clock = deps.clock
    this.#logger = deps.logger
    this.#ttlMs = deps.ttlMs ?? SIGN_IN_TTL_MS
  }

  /** The attempt waiting for the browser, if any. */
  get pending(): PendingSignIn | undefined {
    return this.#current
  }

  /** Starts waiting for the callback of a sign-in whose authorize URL carried `state`. */
  begin(options: { state: string; redirectUri: string }): PendingSignIn {
    this.cancel('superseded')
    const timer = new AbortController()
    let settle: (outcome: SignInOutcome) => void = () => undefined
    const outcome = new Promise<SignInOutcome>((resolve) => {
      settle = (value) => {
        timer.abort()
        resolve(value)
      }
    })
    const attempt: Attempt = {
      id: this.#nextId++,
      redirectUri: options.redirectUri,
      expiresAt: this.#clock.now() + this.#ttlMs,
      outcome,
      state: options.state,
      settle,
    }
    this.#current = attempt
    this.#clock.sleep(this.#ttlMs, timer.signal).then(
      () => {
        if (this.#current !== attempt) return
        this.#logger.warn('Sign-in: the browser did not come back in time')
        this.#finish(attempt, { type: 'timed-out' })
      },
      () => undefined,
    )
    return attempt
  }

  /** Ends the waiting attempt (cancelled by the clerk, or superseded by a newer one); false when none was waiting. */
  cancel(reason: 'cancelled' | 'superseded' = 'cancelled'): boolean {
    if (!this.#current) return false
    this.#logger.info(
      reason === 'cancelled'
        ? 'Sign-in: cancelled'
        : 'Sign-in: a newer sign-in replaced the one waiting for the browser',
    )
    this.#finish(this.#current, { type: reason })
    return true
  }

  /** Offers a URL that claims to be the browser's answer. */
  handleCallback(url: string): CallbackVerdict {
    const parsed = parseCallbackUrl(url)
    if (parsed.kind === 'unsupported') return this.#ignore('not-a-callback')
    const attempt = this.#current
    if (!attempt) return this.#ignore('no-pending-sign-in')
    if (!matchesRedirectUri(parsed, attempt.redirectUri)) return this.#ignore('wrong-address')
    if (this.#clock.now() >= attempt.expiresAt) {
      this.#finish(attempt, { type: 'timed-out' })
      return this.#ignore('expired')
    }
    const payload = readCallbackPayload(parsed.params)
    if (payload.type === 'malformed') return this.#ignore('malformed')
    if (payload.state === undefined || !sameSecret(payload.state, attempt.state))
      return this.#ignore('state-mismatch')
    this.#finish(
      attempt,
      payload.type === 'code'
        ? { type: 'code', code: payload.code }
        : {
            type: 'refused',
            error: payload.error,
            ...(payload.description === undefined ? {} : { description: payload.description }),
          },
    )
    this.#logger.info(
      `Sign-in: accepted the browser's ${payload.type === 'code' ? 'authorization' : 'refusal'}`,
    )
    return { accepted: true, attemptId: attempt.id }
  }

  #finish(attempt: Attempt, outcome: SignInOutcome): void {
    if (this.#current === attempt) this.#current = undefined
    attempt.settle(outcome)
  }

  #ignore(reason: IgnoredReason): CallbackVerdict {
    this.#logger.warn(`Sign-in: ignored a callback URL (${reason})`)
    return { accepted: false, reason }
  }
}

/** Compares without revealing through timing how much of the state an attacker guessed right. */
function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
