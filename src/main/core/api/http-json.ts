import { RosterDeskError, cancelledError } from '../errors'
import { classifyNetworkFailure } from '../net/network-failure'
import type { FetchLike } from './fetch-like'
import { fetchFollowingRedirects } from './redirects'

/** How long one request (headers and body) may take before it counts as a network failure. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** One JSON request. `what` names the service in clerk-readable messages ("the payroll service"). */
export interface HttpJsonRequest {
  readonly url: string
  readonly method?: HttpMethod
  readonly headers?: Readonly<Record<string, string>>
  /** Serialised as the JSON body, with Content-Type application/json. */
  readonly json?: unknown
  readonly timeoutMs?: number
  /**
   * The largest body read, counted as the bytes arrive: a larger one is refused before it is all downloaded
   * or parsed (`BodyTooLargeError`). Unlimited when absent.
   */
  readonly maxBodyBytes?: number
  readonly signal?: AbortSignal
  readonly what?: string
  /** How the body's text becomes its value (`JSON.parse` when absent); a throw says the body is not JSON. */
  readonly parse?: (text: string) => unknown
}

/** A response whose body was read. `body` is the parsed JSON, or undefined when the body was empty or not JSON. */
export interface HttpJsonResponse {
  readonly status: number
  readonly ok: boolean
  readonly headers: Headers
  readonly body: unknown
  /** False when a body was present but was not JSON (an HTML error page, a truncated document). */
  readonly bodyIsJson: boolean
}

/**
 * A non-2xx answer as a RosterDeskError, with what a caller needs to decide what to do next: the status, the
 * parsed body (for OAuth `error` fields) and the server's Retry-After wish.
 */
export class HttpStatusError extends RosterDeskError {
  readonly status: number
  readonly body: unknown
  /** Milliseconds the server asked us to wait (Retry-After), when it said. */
  readonly retryAfterMs: number | undefined

  constructor(
    response: HttpJsonResponse,
    message: string,
    options: { code: RosterDeskError['code']; retryable: boolean; retryAfterMs?: number },
  ) {
    super(options.code, message, { retryable: options.retryable, detail: `HTTP ${response.status}` })
    this.name = 'HttpStatusError'
    this.status = response.status
    this.body = response.body
    this.retryAfterMs = options.retryAfterMs
  }
}

/**
 * A body larger than the request's `maxBodyBytes`: not retryable, because the same request gets the same answer.
 * The caller words it for its purpose (which page, what to change).
 */
export class BodyTooLargeError extends RosterDeskError {
  constructor(
    readonly limitBytes: number,
    readonly status: number,
    what: string,
  ) {
    super(
      'service',
      `${capitalise(what)} sent an answer larger than ${megabytes(limitBytes)}, more than RosterDesk accepts.`,
      {
        retryable: false,
        detail: `HTTP ${status}: body over ${limitBytes} bytes`,
      },
    )
    this.name = 'BodyTooLargeError'
  }
}

/**
 * A 2xx answer whose body is not JSON (`requestJson`): a web page ('web-page', `pageTitle` its title, '' for none)
 * or other text ('service'). A caller for whom this means one thing (a sign-in that failed) can word it so.
 */
export class NotJsonAnswerError extends RosterDeskError {
  constructor(
    code: 'web-page' | 'service',
    message: string,
    options: { retryable: boolean; detail: string },
    readonly pageTitle?: string,
  ) {
    super(code, message, options)
    this.name = 'NotJsonAnswerError'
  }
}

export function isHttpStatusError(value: unknown): value is HttpStatusError {
  return value instanceof HttpStatusError
}

/**
 * Sends one request and reads its JSON body, whatever the status. Throws RosterDeskError only when no usable
 * answer arrived: 'cancelled' when the caller's signal aborted, 'timeout' (retryable) when no answer came within
 * the request's time, the cause `classifyNetworkFailure` names for a failed connection (proxy, certificate, host
 * name, refused, …), 'web-page' for a 2xx web page (a portal or block page), 'service' (retryable) for another
 * 2xx whose body is not JSON. Non-2xx answers are returned so the caller can read OAuth error bodies or
 * Retry-After; `ensureOk` turns them into errors. Redirects are followed within the request's origin only, by the
 * rule of `fetchFollowingRedirects` (redirects.ts), which refuses the rest (another origin, a loop, too many, a
 * POST turned into a GET); the timeout covers every hop.
 */
export async function requestJson(fetch: FetchLike, request: HttpJsonRequest): Promise<HttpJsonResponse> {
  const what = request.what ?? 'the payroll service'
  const timeoutMs = request.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS
  if (request.signal?.aborted) throw cancelledError('The request')

  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(new Error('timeout')), timeoutMs)
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers }
  if (request.json !== undefined) headers['Content-Type'] = 'application/json'

  try {
    const response = await fetchFollowingRedirects(fetch, {
      url: request.url,
      method: request.method ?? (request.json === undefined ? 'GET' : 'POST'),
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      signal,
      who: capitalise(what),
    })
    const text = await readBodyText(response, request.maxBodyBytes, what)
    const parsed = parseJsonText(text, request.parse)
    const page =
      response.ok && !parsed.isJson ? webPage(text, response.headers.get('content-type')) : undefined
    if (page !== undefined) {
      // A page a retry gets again: a proxy's sign-in or block page, or a guest network's login page.
      throw new NotJsonAnswerError(
        'web-page',
        `${capitalise(what)} answered with a web page${page.title === '' ? '' : ` titled “${page.title}”`} where data was expected: a company proxy's sign-in or block page, or a network's login page, may be in the way. Open the service address in a browser, or ask IT.`,
        {
          retryable: false,
          detail: `HTTP ${response.status}: a web page where JSON was expected (${text.length} characters)`,
        },
        page.title,
      )
    }
    if (response.ok && !parsed.isJson) {
      throw new NotJsonAnswerError(
        'service',
        `${capitalise(what)} sent an answer RosterDesk could not read. Try again in a moment.`,
        { retryable: true, detail: `HTTP ${response.status}: body is not JSON (${text.length} characters)` },
      )
    }
    return {
      status: response.status,
      ok: response.ok,
      headers: response.headers,
      body: parsed.value,
      bodyIsJson: parsed.isJson,
    }
  } catch (error) {
    if (error instanceof RosterDeskError) throw error
    if (request.signal?.aborted) throw cancelledError('The request')
    if (timeout.signal.aborted) {
      throw new RosterDeskError(
        'timeout',
        `${capitalise(what)} did not answer within ${seconds(timeoutMs)}. Check the connection and try again.`,
        { retryable: true, detail: 'timeout', cause: error },
      )
    }
    throw classifyNetworkFailure(error, { what, url: request.url })
  } finally {
    clearTimeout(timer)
  }
}

/** Returns the response when it is 2xx; otherwise throws its `statusError`. */
export function ensureOk(response: HttpJsonResponse, what = 'the payroll service'): HttpJsonResponse {
  if (response.ok) return response
  throw statusError(response, what)
}

/** `requestJson` followed by `ensureOk`. */
export async function requestJsonOk(fetch: FetchLike, request: HttpJsonRequest): Promise<HttpJsonResponse> {
  return ensureOk(await requestJson(fetch, request), request.what)
}

/**
 * Classifies a non-2xx status: 401/403 'auth', 404 'not-found', 408/429/5xx retryable 'service' (429 and 503
 * with Retry-After), every other 4xx a non-retryable 'service' error (the request itself is wrong).
 */
export function statusError(
  response: HttpJsonResponse,
  what = 'the payroll service',
  now = Date.now(),
): HttpStatusError {
  const status = response.status
  const name = capitalise(what)
  if (status === 401 || status === 403) {
    return new HttpStatusError(
      response,
      `${name} refused RosterDesk's sign-in (HTTP ${status}). Sign in again.`,
      {
        code: 'auth',
        retryable: false,
      },
    )
  }
  if (status === 404) {
    return new HttpStatusError(
      response,
      `${name} does not know this address (HTTP 404). Check the service address in Settings.`,
      {
        code: 'not-found',
        retryable: false,
      },
    )
  }
  if (status === 429 || status === 408 || status >= 500) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now)
    const message =
      status === 429
        ? `${name} asked RosterDesk to slow down (HTTP 429). It will try again shortly.`
        : `${name} had a problem (HTTP ${status})${serviceSaid(response.body)}. Try again in a few minutes.`
    return new HttpStatusError(response, message, { code: 'service', retryable: true, retryAfterMs })
  }
  return new HttpStatusError(response, `${name} rejected the request (HTTP ${status}).`, {
    code: 'service',
    retryable: false,
  })
}

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

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/** The body as text (as response.text() decodes: UTF-8, a byte order mark dropped), read within `maxBytes`. */
async function readBodyText(response: Response, maxBytes: number | undefined, what: string): Promise<string> {
  if (maxBytes === undefined || response.body === null) return response.text()
  return new TextDecoder().decode(await readBodyWithin(response, maxBytes, what))
}

/**
 * The body's bytes, counted as they arrive, so that a page of hundreds of megabytes is refused after the first
 * chunk past `maxBytes` (a declared Content-Length over it, before any), never held whole or parsed: a
 * `BodyTooLargeError` then, the stream cancelled. The one place a body is held to its limit, by whichever side
 * reads it from the network: `requestJson` here, or the core host for its worker's sync (worker-sync.ts).
 */
export async function readBodyWithin(
  response: Response,
  maxBytes: number,
  what = 'the payroll service',
): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array(0)
  const tooLarge = (): BodyTooLargeError => new BodyTooLargeError(maxBytes, response.status, what)
  const declared = Number(response.headers.get('content-length') ?? '')
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel().catch(() => undefined)
    throw tooLarge()
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    received += value.byteLength
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  // A buffer of its own (never a slice of a shared pool), so the core host can transfer it to its worker.
  const body = new Uint8Array(received)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}

/**
 * The answer as a web page (an HTML content type, or text that opens as a document does), with its title
 * (whitespace collapsed, controls dropped, at most 80 characters), or undefined when it is not one.
 */
export function webPage(text: string, contentType: string | null): { title: string } | undefined {
  const isPage =
    (contentType ?? '').toLowerCase().includes('text/html') ||
    /^\s*<(!doctype\s+html|html|head|body|title)\b/i.test(text)
  if (!isPage) return undefined
  const title = /<title[^>]*>([\s\S]{0,400}?)<\/title>/i.exec(text)?.[1] ?? ''
  return {
    title: title
      // eslint-disable-next-line no-control-regex -- the title is service text shown to the clerk
      .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80),
  }
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return mb >= 1 ? `${Math.round(mb)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`
}

function parseJsonText(
  text: string,
  parse: (text: string) => unknown = JSON.parse,
): { isJson: boolean; value: unknown } {
  if (text.trim() === '') return { isJson: true, value: undefined }
  try {
    return { isJson: true, value: parse(text) }
  } catch {
    return { isJson: false, value: undefined }
  }
}

function seconds(ms: number): string {
  const value = Math.max(1, Math.round(ms / 1000))
  return value === 1 ? '1 second' : `${value} seconds`
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
