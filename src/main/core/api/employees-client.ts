import type { AccessTokenSource } from '../auth/access-token-source'
import type { Clock } from '../clock'
import { RosterDeskError, cancelledError, isAbortError } from '../errors'
import type { FetchLike } from './fetch-like'
import { parseRetryAfter, requestJson } from './http-json'
import type { HttpJsonResponse } from './http-json'
import { checkListEnvelope } from './list-envelope'
import type { ListEnvelope } from './list-envelope'
import { DEFAULT_RETRY_POLICY, backoffDelay } from './retry-policy'
import type { RetryPolicy } from './retry-policy'

/** The header spec section 5 names for multi-tenant environments. */
export const TENANT_HEADER = 'vnd.a1.tenant-id'
const LIST_PATH = '/employees/list'

export interface EmployeesClientOptions {
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
}

export interface PageRequest {
  readonly page: number
  readonly limit: number
  readonly payCycleId?: string
}

/**
 * GET /employees/list, one page at a time, with everything a single request needs to succeed: the bearer
 * token (refreshed once, shared, on a 401), the tenant header, bounded retries with backoff for failures a
 * retry can fix, Retry-After on 429, and strict checking of the envelope. Errors a retry cannot fix (403, 400,
 * 404) are thrown at once with a message a clerk can act on.
 */
export class EmployeesClient {
  private readonly policy: RetryPolicy
  private sent = 0

  constructor(private readonly options: EmployeesClientOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
  }

  /** HTTP requests sent so far, retries included. */
  get requests(): number {
    return this.sent
  }

  async fetchPage(request: PageRequest, signal?: AbortSignal): Promise<ListEnvelope> {
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
      if (signal?.aborted || isAbortError(error)) throw cancelledError('The sync')
      throw error
    }
  }

  private async attempt(
    request: PageRequest,
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
        url: this.pageUrl(request),
        headers,
        signal,
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      })
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw cancelledError('The sync')
      if (error instanceof RosterDeskError && error.retryable) return { kind: 'retry', error }
      throw error
    }
    if (response.ok) {
      const checked = checkListEnvelope(response.body)
      if (checked.ok) return { kind: 'page', envelope: checked.envelope }
      return {
        kind: 'retry',
        error: new RosterDeskError(
          'service',
          `The payroll service sent an employee list RosterDesk could not read (${checked.problem}). Try again later; if it keeps happening, contact the service’s support.`,
          { detail: `page ${request.page}: ${checked.problem}`, retryable: true },
        ),
      }
    }
    return this.classify(response)
  }

  private classify(response: HttpJsonResponse): Attempt {
    const status = response.status
    const said = serviceSaid(response.body)
    if (status === 401) return { kind: 'unauthorized' }
    if (status === 403) {
      const tenantId = this.options.tenantId?.trim() ?? ''
      const message =
        tenantId === ''
          ? `The payroll service refused access to the employee list (HTTP 403)${said}. It may need a tenant ID: enter it in Settings and sync again.`
          : `The payroll service refused access to tenant “${tenantId}” (HTTP 403)${said}. Check the tenant ID in Settings, or ask your administrator for access.`
      throw new RosterDeskError('auth', message, { detail: 'HTTP 403' })
    }
    if (status === 404) {
      throw new RosterDeskError(
        'config',
        `The payroll service has no employee list at this address (HTTP 404). Check the service address in Settings.`,
        { detail: 'HTTP 404' },
      )
    }
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.options.clock.now())
      const error = new RosterDeskError(
        'service',
        'The payroll service kept asking RosterDesk to slow down (HTTP 429). Try again in a few minutes.',
        { detail: 'HTTP 429', retryable: true },
      )
      return retryAfterMs === undefined ? { kind: 'retry', error } : { kind: 'retry', error, retryAfterMs }
    }
    if (status === 408 || status >= 500) {
      return {
        kind: 'retry',
        error: new RosterDeskError(
          'service',
          `The payroll service had a problem (HTTP ${status}). Try again in a few minutes.`,
          { detail: `HTTP ${status}`, retryable: true },
        ),
      }
    }
    throw new RosterDeskError(
      'service',
      `The payroll service rejected RosterDesk’s request for employees (HTTP ${status})${said}. Check the page size and tenant in Settings; if it keeps happening, contact support.`,
      { detail: `HTTP ${status}` },
    )
  }

  private pageUrl(request: PageRequest): string {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + LIST_PATH)
    url.searchParams.set('page', String(request.page))
    url.searchParams.set('limit', String(request.limit))
    if (request.payCycleId !== undefined) url.searchParams.set('payCycleId', request.payCycleId)
    return url.toString()
  }
}

type Attempt =
  | { kind: 'page'; envelope: ListEnvelope }
  | { kind: 'unauthorized' }
  | { kind: 'retry'; error: RosterDeskError; retryAfterMs?: number }

/** The service's own explanation from an error body, when it gave a short one (never a row or a token). */
function serviceSaid(body: unknown): string {
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
