import type { AccessTokenSource } from '../auth/access-token-source'
import type { Clock } from '../clock'
import { RosterDeskError, cancelledError, isAbortError } from '../errors'
import type { FetchLike } from './fetch-like'
import { HttpStatusError, parseRetryAfter, requestJson } from './http-json'
import type { HttpJsonResponse } from './http-json'
import { checkListEnvelope } from './list-envelope'
import type { ListEnvelope } from './list-envelope'
import { listRequestUrl } from './list-request'
import type { ListRequest } from './list-request'
import { DEFAULT_RETRY_POLICY, backoffDelay } from './retry-policy'
import type { RetryNotice, RetryPolicy } from './retry-policy'

/** The header spec section 5 names for multi-tenant environments. */
export const TENANT_HEADER = 'vnd.a1.tenant-id'

/** One list endpoint: every one takes the same parameters and answers the same envelope (spec §4.5). */
export interface ListEndpoint {
  /** Relative to the base address, e.g. `/employees/list`. */
  readonly path: string
  /** What the clerk reads in messages: "the payroll service has no employee list at this address". */
  readonly name: string
  /** A field every row must carry as non-empty text, when the list's rows are known to have one. */
  readonly idField?: string
}

/** GET /employees/list (spec §4.4), whose rows carry a UUID. */
export const EMPLOYEE_LIST: ListEndpoint = Object.freeze({
  path: '/employees/list',
  name: 'employee list',
  idField: 'UUID',
})

export interface ListClientOptions {
  readonly endpoint: ListEndpoint
  readonly baseUrl: string
  /** Sent as vnd.a1.tenant-id when not empty. */
  readonly tenantId?: string
  readonly fetch: FetchLike
  readonly tokens: AccessTokenSource
  readonly clock: Clock
  /** [0, 1) source for backoff jitter; injected so tests are deterministic. */
  readonly random: () => number
  readonly retry?: Partial<RetryPolicy>
  /** Per request, headers and body together. */
  readonly timeoutMs?: number
  /** Told before each wait for a retry; a throw here is the caller's bug and fails the request. */
  readonly onRetry?: (notice: RetryNotice) => void
}

/**
 * One list endpoint, one page at a time, with everything a single request needs to succeed: the request built by
 * the one list-request builder, the bearer token (refreshed once, shared, on a 401), the tenant header, bounded
 * retries with backoff for failures a retry can fix, Retry-After on 429, and the one envelope reader. Errors a
 * retry cannot fix (403, 400, 404) are thrown at once as HttpStatusErrors (the status and body kept for callers
 * that word them for their own purpose) with a message a clerk can act on.
 */
export class ListClient {
  private readonly policy: RetryPolicy
  private sent = 0

  constructor(private readonly options: ListClientOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
  }

  /** HTTP requests sent so far, retries included. */
  get requests(): number {
    return this.sent
  }

  async fetchPage(request: ListRequest, signal?: AbortSignal): Promise<ListEnvelope> {
    let failures = 0
    let justRefreshed = false
    let token = await this.token(signal)
    for (;;) {
      const outcome = await this.attempt(request, token, signal)
      if (outcome.kind === 'page') return outcome.envelope
      if (outcome.kind === 'unauthorized') {
        if (justRefreshed) {
          throw new RosterDeskError(
            'auth',
            'The payroll service keeps refusing RosterDesk’s sign-in (HTTP 401), even after renewing it. Sign in again.',
          )
        }
        token = await this.guard(signal, () => this.options.tokens.handleUnauthorized(token, signal))
        justRefreshed = true
        continue
      }
      justRefreshed = false
      failures++
      if (failures >= this.policy.maxAttempts) {
        throw new RosterDeskError(
          outcome.error.code,
          `${outcome.error.message} RosterDesk tried ${failures} times without success.`,
          { detail: outcome.error.detail, cause: outcome.error },
        )
      }
      const delay = outcome.retryAfterMs ?? backoffDelay(this.policy, failures, this.options.random)
      if (delay > this.policy.maxRetryAfterMs) {
        const minutes = Math.ceil(delay / 60_000)
        throw new RosterDeskError(
          'service',
          `The payroll service asked RosterDesk to wait ${minutes} minute${minutes === 1 ? '' : 's'} before trying again. Sync again later.`,
          { detail: 'Retry-After beyond the limit' },
        )
      }
      this.options.onRetry?.({ reason: outcome.reason, attempt: failures, delayMs: delay })
      await this.guard(signal, () => this.options.clock.sleep(delay, signal))
      token = await this.token(signal)
    }
  }

  private async token(signal: AbortSignal | undefined): Promise<string> {
    return this.guard(signal, () => this.options.tokens.getAccessToken(signal))
  }

  /** Runs a step, turning an abort (however the platform reports it) into the one cancelled error. */
  private async guard<T>(signal: AbortSignal | undefined, step: () => Promise<T>): Promise<T> {
    try {
      return await step()
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw cancelledError('The request')
      throw error
    }
  }

  private async attempt(
    request: ListRequest,
    token: string,
    signal: AbortSignal | undefined,
  ): Promise<Attempt> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' }
    const tenantId = this.options.tenantId?.trim() ?? ''
    if (tenantId !== '') headers[TENANT_HEADER] = tenantId
    let response: HttpJsonResponse
    this.sent++
    try {
      response = await requestJson(this.options.fetch, {
        url: listRequestUrl(this.options.baseUrl, this.options.endpoint.path, request),
        headers,
        signal,
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      })
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw cancelledError('The request')
      if (error instanceof RosterDeskError && error.retryable) {
        // requestJson's retryable errors are no answer at all ('network') or a 2xx that is not JSON.
        return { kind: 'retry', reason: error.code === 'network' ? 'network' : 'server-error', error }
      }
      throw error
    }
    if (response.ok) {
      const checked = checkListEnvelope(response.body, this.options.endpoint.idField)
      if (checked.ok) return { kind: 'page', envelope: checked.envelope }
      return {
        kind: 'retry',
        reason: 'server-error',
        error: new RosterDeskError(
          'service',
          `The payroll service sent an ${this.options.endpoint.name} RosterDesk could not read (${checked.problem}). Try again later; if it keeps happening, contact the service’s support.`,
          { detail: `page ${request.page ?? 1}: ${checked.problem}`, retryable: true },
        ),
      }
    }
    return this.classify(response)
  }

  private classify(response: HttpJsonResponse): Attempt {
    const status = response.status
    const said = serviceSaid(response.body)
    const list = this.options.endpoint.name
    if (status === 401) return { kind: 'unauthorized' }
    if (status === 403) {
      const tenantId = this.options.tenantId?.trim() ?? ''
      const message =
        tenantId === ''
          ? `The payroll service refused access to the ${list} (HTTP 403)${said}. It may need a tenant ID: enter it in Settings and try again.`
          : `The payroll service refused access to tenant “${tenantId}” (HTTP 403)${said}. Check the tenant ID in Settings, or ask your administrator for access.`
      throw new HttpStatusError(response, message, { code: 'auth', retryable: false })
    }
    if (status === 404) {
      throw new HttpStatusError(
        response,
        `The payroll service has no ${list} at this address (HTTP 404). Check the service address in Settings.`,
        { code: 'config', retryable: false },
      )
    }
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.options.clock.now())
      const error = new RosterDeskError(
        'service',
        'The payroll service kept asking RosterDesk to slow down (HTTP 429). Try again in a few minutes.',
        { detail: 'HTTP 429', retryable: true },
      )
      const retry = { kind: 'retry', reason: 'rate-limited', error } as const
      return retryAfterMs === undefined ? retry : { ...retry, retryAfterMs }
    }
    if (status === 408 || status >= 500) {
      return {
        kind: 'retry',
        reason: 'server-error',
        error: new RosterDeskError(
          'service',
          `The payroll service had a problem (HTTP ${status}). Try again in a few minutes.`,
          { detail: `HTTP ${status}`, retryable: true },
        ),
      }
    }
    throw new HttpStatusError(
      response,
      `The payroll service rejected RosterDesk’s request for the ${list} (HTTP ${status})${said}. Check the page size and tenant in Settings; if it keeps happening, contact support.`,
      { code: 'service', retryable: false },
    )
  }
}

type Attempt =
  | { kind: 'page'; envelope: ListEnvelope }
  | { kind: 'unauthorized' }
  | { kind: 'retry'; reason: RetryNotice['reason']; error: RosterDeskError; retryAfterMs?: number }

/**
 * The service's own explanation from an error body, when it gave a short one (never a row or a token), as
 * `: “…”` to follow a sentence; empty otherwise.
 */
export function serviceSaid(body: unknown): string {
  if (typeof body !== 'object' || body === null) return ''
  const record = body as Record<string, unknown>
  for (const key of ['message', 'error_description', 'error']) {
    const value = record[key]
    if (typeof value === 'string' && value.trim() !== '' && value.length <= 200) {
      return `: “${value.trim().replace(/\s+/g, ' ')}”`
    }
  }
  return ''
}
