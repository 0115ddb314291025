import type { AccessTokenSource } from './access-token-source'
import type { Clock } from '../clock'
import { isUnreachableErrorCode } from '../../../shared/ipc-error-codes'
import { RosterDeskError, cancelledError, isAbortError } from '../errors'
import { parseJsonExactly } from './exact-json'
import type { ExactJson } from './exact-json'
import type { FetchLike } from './fetch-like'
import {
  BodyTooLargeError,
  DEFAULT_HTTP_TIMEOUT_MS,
  HttpStatusError,
  parseRetryAfter,
  requestJson,
  serviceSaid,
} from './http-json'
import type { HttpJsonResponse } from './http-json'
import { malformedAnswerReason } from '../net/network-failure'
import { checkListEnvelope } from './list-envelope'
import type { EnvelopeProblem, ListEnvelope } from './list-envelope'
import { listRequestUrl } from './list-request'
import type { ListRequest } from './list-request'
import { DEFAULT_RETRY_POLICY, backoffDelay, failingBudgetMs, triedTimesText } from './retry-policy'
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
  /**
   * The largest answer read for one page, counted while it streams in; a larger one ends the request at once.
   * Absent when `fetch` reads the body and holds it to the limit itself (the core worker's: its host reads each
   * body), answering a larger one with a `BodyTooLargeError`, which is worded here the same way.
   */
  readonly maxResponseBytes?: number
  /** Told before each wait for a retry; a throw here is the caller's bug and fails the request. */
  readonly onRetry?: (notice: RetryNotice) => void
}

/**
 * One list endpoint, one page at a time, with everything a single request needs to succeed: the request built by
 * the one list-request builder, the bearer token (refreshed once, shared, on a 401), the tenant header, bounded
 * retries with backoff for failures a retry can fix (network, 5xx, 429, a body cut short or not JSON),
 * Retry-After on 429, every number read exactly as written (`parseJsonExactly`), and the one envelope reader.
 * Retries end early when an answer the service means comes back the same (a 204, a 304, a 429 without
 * Retry-After, a 5xx's stated reason, an answer the HTTP client cannot read: decision 053), or once one request
 * has kept failing for its budget (`failingBudgetMs`: three timeouts, 30 s to `maxFailingMs`). Errors a retry cannot fix are thrown at once with a message a clerk can act
 * on: 403, 400 and 404 as HttpStatusErrors (the status and body kept for callers that word them for their own
 * purpose), and answers that are whole JSON but wrong (`ServiceDataError`: a malformed envelope, a row
 * without its id or with one twice, a page that contradicts its own envelope or the request, an answer over
 * `maxResponseBytes`), naming the page, the row and the field, because asking again gets the same answer.
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
    let lastAnswer: string | undefined
    const startedAt = this.options.clock.now()
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
      const verdict = (why: string): RosterDeskError =>
        new RosterDeskError(outcome.error.code, `${outcome.error.message} RosterDesk ${why}.`, {
          detail: outcome.error.detail,
          cause: outcome.error,
        })
      if (outcome.answer !== undefined && outcome.answer === lastAnswer) {
        throw verdict(
          `${triedTimesText(failures)} and got the same answer ${failures === 2 ? 'each time' : 'twice in a row'}, so it stopped`,
        )
      }
      lastAnswer = outcome.answer
      if (failures >= this.policy.maxAttempts) throw verdict(`${triedTimesText(failures)} without success`)
      const delay = outcome.retryAfterMs ?? backoffDelay(this.policy, failures, this.options.random)
      const failingMs = this.options.clock.now() - startedAt
      const budget = failingBudgetMs(this.policy, this.options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS)
      if (outcome.retryAfterMs === undefined && failingMs + delay > budget) {
        throw verdict(`${triedTimesText(failures)} over ${secondsText(failingMs)} without success`)
      }
      if (delay > this.policy.maxRetryAfterMs) {
        const minutes = Math.ceil(delay / 60_000)
        throw new RosterDeskError(
          'service',
          `The payroll service asked RosterDesk to wait ${minutes} minute${minutes === 1 ? '' : 's'} before trying again. Sync again later.`,
          { detail: 'Retry-After beyond the limit' },
        )
      }
      this.options.onRetry?.({
        reason: outcome.reason,
        attempt: failures,
        delayMs: delay,
        failure: outcome.error.message,
        attempts: this.policy.maxAttempts,
        code: outcome.error.code,
        host: hostOf(this.options.baseUrl),
      })
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
    let exact: ExactJson | undefined
    this.sent++
    try {
      response = await requestJson(this.options.fetch, {
        url: listRequestUrl(this.options.baseUrl, this.options.endpoint.path, request),
        headers,
        signal,
        parse: (text) => {
          exact = parseJsonExactly(text)
          return exact.value
        },
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
        ...(this.options.maxResponseBytes === undefined
          ? {}
          : { maxBodyBytes: this.options.maxResponseBytes }),
      })
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw cancelledError('The request')
      if (error instanceof BodyTooLargeError) throw this.tooLarge(request, error)
      if (error instanceof RosterDeskError && error.retryable) {
        // requestJson's retryable errors are no answer at all (the unreachable codes), a 2xx that is not JSON, or
        // an answer the HTTP client could not read (the same one again on a retry).
        return {
          kind: 'retry',
          reason: isUnreachableErrorCode(error.code) ? 'network' : 'server-error',
          error,
          ...(malformedAnswerReason(error) === undefined ? {} : { answer: error.detail ?? error.message }),
        }
      }
      throw error
    }
    if (response.ok && response.body === undefined) {
      // An empty 2xx body is a connection cut before the first byte, like a truncated one: worth another try. A
      // 204 says "no content" on purpose: the same answer again is the verdict.
      return {
        kind: 'retry',
        reason: 'server-error',
        error: new RosterDeskError(
          'service',
          `The payroll service sent an empty answer (HTTP ${response.status}) for the ${this.options.endpoint.name}. Try again in a few minutes.`,
          { detail: `page ${request.page ?? 1}: HTTP ${response.status}, empty body`, retryable: true },
        ),
        ...(response.status === 204 ? { answer: 'HTTP 204' } : {}),
      }
    }
    if (response.ok) {
      const checked = checkListEnvelope(response.body, this.options.endpoint.idField)
      if (!checked.ok) throw this.wrongData(request, checked, undefined)
      const contradiction = contradictionOf(request, checked.envelope)
      if (contradiction !== undefined) {
        const error = this.wrongData(request, contradiction, checked.envelope)
        throw contradiction.underfilled === true ? new UnderfilledPageError(error) : error
      }
      const tooLarge = exact?.tooLarge ?? 0
      const tooSmall = exact?.tooSmall ?? 0
      const envelope =
        tooLarge + tooSmall === 0
          ? checked.envelope
          : { ...checked.envelope, numbersAsText: { tooLarge, tooSmall } }
      return { kind: 'page', envelope }
    }
    return this.classify(response)
  }

  /** An answer that is whole but wrong: said with the page, the row (and its list position) and the field. */
  private wrongData(
    request: ListRequest,
    found: EnvelopeProblem,
    envelope: ListEnvelope | undefined,
  ): ServiceDataError {
    const page = request.page ?? 1
    const limit = envelope?.limit ?? request.limit
    const where =
      found.row === undefined
        ? `page ${page}`
        : `page ${page}, row ${found.row}` +
          (limit === undefined ? '' : ` (employee ${(page - 1) * limit + found.row} of the list)`)
    return new ServiceDataError(
      `The payroll service sent an ${this.options.endpoint.name} RosterDesk cannot use: on ${where}, ${found.problem}. ` +
        'Asking again gives the same answer, so RosterDesk stopped. Tell the payroll service’s administrator ' +
        `(field “${found.field}”), then sync again once it is fixed.`,
      { page, field: found.field, ...(found.row === undefined ? {} : { row: found.row }) },
      `page ${page}${found.row === undefined ? '' : ` row ${found.row}`} field ${found.field}: ${found.problem}`,
    )
  }

  private tooLarge(request: ListRequest, error: BodyTooLargeError): PageTooLargeError {
    const page = request.page ?? 1
    const megabytes = Math.max(1, Math.round(error.limitBytes / (1024 * 1024)))
    return new PageTooLargeError(
      `The payroll service answered page ${page} of the ${this.options.endpoint.name} with more than ${megabytes} MB, ` +
        'the most RosterDesk accepts for one page, so it stopped reading. Lower the page size in Settings and sync ' +
        'again; if pages are still this large, tell the payroll service’s administrator.',
      { page, field: 'rows' },
      error.detail ?? 'body too large',
    )
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
        `The payroll service asked RosterDesk to slow down (HTTP 429)${retryAfterMs === undefined ? ' without saying for how long' : ''}. Try again in a few minutes.`,
        { detail: 'HTTP 429', retryable: true },
      )
      const retry = { kind: 'retry', reason: 'rate-limited', error } as const
      // Without Retry-After, asking again at once is no wiser: the same answer again is the verdict.
      return retryAfterMs === undefined ? { ...retry, answer: 'HTTP 429' } : { ...retry, retryAfterMs }
    }
    if (status === 408 || status >= 500) {
      // The service's own reason, by the rule the 403 follows; said again word for word, it is the verdict.
      return {
        kind: 'retry',
        reason: 'server-error',
        error: new RosterDeskError(
          'service',
          `The payroll service had a problem (HTTP ${status})${said}. Try again in a few minutes.`,
          { detail: `HTTP ${status}`, retryable: true },
        ),
        ...(said === '' ? {} : { answer: `HTTP ${status}${said}` }),
      }
    }
    if (status === 304) {
      return {
        kind: 'retry',
        reason: 'server-error',
        error: new RosterDeskError(
          'service',
          `The payroll service answered “not modified” (HTTP 304) to a request for the ${list}, though RosterDesk asked for no cached copy: a cache or proxy on the way may answer in its place. Tell the payroll service’s administrator or IT.`,
          { detail: 'HTTP 304 to a request without validators', retryable: true },
        ),
        answer: 'HTTP 304',
      }
    }
    throw new HttpStatusError(
      response,
      `The payroll service rejected RosterDesk’s request for the ${list} (HTTP ${status})${said}. Check the page size and tenant in Settings; if it keeps happening, contact support.`,
      { code: 'service', retryable: false },
    )
  }
}

/**
 * A deterministic fault of the service's answer, where it is: the page, the 1-based row of that page when the
 * fault is in one row, and the field. Never retried.
 */
export class ServiceDataError extends RosterDeskError {
  constructor(
    message: string,
    readonly where: { readonly page: number; readonly field: string; readonly row?: number },
    detail: string,
  ) {
    super('service', message, { detail, retryable: false })
    this.name = 'ServiceDataError'
  }
}

/**
 * How a well-formed page can still contradict the request or its own envelope (spec §4.4 "Pagination
 * behaviour"): it must be the page asked for, at no more rows per page than asked, and hold exactly the rows its
 * own totalCount and limit put on it: a full page before the last, the remainder on the last, none after. A page
 * inside the claimed range that comes back short is proof the envelope lies (one claiming a billion employees
 * and serving a thousand is found on the first page past the real end).
 */
function contradictionOf(request: ListRequest, envelope: ListEnvelope): Contradiction | undefined {
  const page = request.page ?? 1
  if (envelope.currentPage !== page) {
    return { problem: `"currentPage" says ${envelope.currentPage} for page ${page}`, field: 'currentPage' }
  }
  if (request.limit !== undefined && envelope.limit > request.limit) {
    return {
      problem: `"limit" says ${envelope.limit} where RosterDesk asked for ${request.limit} per page`,
      field: 'limit',
    }
  }
  const pages = envelope.totalCount === 0 ? 0 : Math.ceil(envelope.totalCount / envelope.limit)
  const expected =
    page > pages ? 0 : Math.min(envelope.limit, envelope.totalCount - (page - 1) * envelope.limit)
  if (envelope.rows.length !== expected) {
    return {
      problem:
        `the page holds ${envelope.rows.length} rows where "totalCount" ${envelope.totalCount} and "limit" ` +
        `${envelope.limit} mean ${expected}: the service claims employees it does not list`,
      field: 'totalCount',
      underfilled: envelope.rows.length < expected && envelope.limit === request.limit,
    }
  }
  return undefined
}

/** A contradiction, and whether it is a page short of the `limit` it confirms (`UnderfilledPageError`). */
type Contradiction = EnvelopeProblem & { readonly underfilled?: boolean }

/** An answer over the largest page allowed (`maxResponseBytes`): a smaller page size may still be read. */
export class PageTooLargeError extends ServiceDataError {
  constructor(message: string, where: ServiceDataError['where'], detail: string) {
    super(message, where, detail)
    this.name = 'PageTooLargeError'
  }
}

/**
 * A page that confirms the `limit` asked for yet holds fewer rows than that limit and its `totalCount` put on it.
 * Either the service claims employees it does not list, or it echoes the asked limit while serving fewer rows a
 * page than that (issue 22, fault 7): from one page the two cannot be told apart. The message is the
 * `ServiceDataError`'s; a request above the settings' page size so answered is asked again at that size
 * (`PageSizeNegotiation`, sync/page-size.ts), where a service that only misreports its page size is read whole
 * and a list that lies is still found out.
 */
export class UnderfilledPageError extends ServiceDataError {
  constructor(error: ServiceDataError) {
    super(error.message, error.where, error.detail ?? '')
    this.name = 'UnderfilledPageError'
  }
}

type Attempt =
  | { kind: 'page'; envelope: ListEnvelope }
  | { kind: 'unauthorized' }
  | {
      kind: 'retry'
      reason: RetryNotice['reason']
      error: RosterDeskError
      retryAfterMs?: number
      /**
       * The answer, when it is one the service means (a status and its stated reason, an answer the HTTP client
       * cannot read): the same again on the next try ends the request (`fetchPage`). None for a timeout or a cut.
       */
      answer?: string
    }

/** The service's host as its address names it ("payroll.example.com", "127.0.0.1:8443"); the address if unparsable. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl
  }
}

/** Seconds as the verdict says them: "91 seconds". */
function secondsText(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000))
  return seconds === 1 ? '1 second' : `${seconds} seconds`
}
