import type { IncomingMessage, Net } from 'electron/utility'
import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import type { FetchLike } from '../../core/api/fetch-like'
import { RosterDeskError } from '../../core/errors'

/**
 * The part of Electron's `net` module a utility process has that this adapter uses (electron 45.4.1,
 * `lib/utility/api/net.ts`: `request` builds the ClientRequest of `lib/common/api/net-client-request.ts`;
 * `isOnline` is Chromium's answer whether the OS is online). Types only: the module itself is given by the
 * process's entry (core-process.ts), or by the shell tests' stand-in.
 */
export type UtilityNet = Pick<Net, 'request' | 'isOnline'>

/**
 * Electron's `net` when this is Electron's utility process (`process.type` is 'utility' there: electron 45.4.1
 * docs/api/process.md), required only then: under plain Node (tests and benchmarks running the built bundle)
 * `require('electron')` is the npm package, a path to a binary that may not even be installed.
 */
export function utilityNet(): { net?: UtilityNet } {
  if ((process as { type?: string }).type !== 'utility') return {}
  const electron = createRequire(__filename)('electron') as { readonly net: Net }
  return { net: electron.net }
}

/** What main learned of a certificate Chromium refused for a host (the session's verify proc records it). */
export interface RefusedCertificate {
  /** The issuer of the chain's top certificate as a person reads it ("Zscaler Root CA"). */
  readonly issuer: string
  /** Chromium's verdict, e.g. "net::ERR_CERT_AUTHORITY_INVALID". */
  readonly verificationResult: string
}

export interface ElectronNetFetchOptions {
  /**
   * Main's record of the last chain refused for a host, asked only after a certificate error, so the message
   * can name who issued it. Undefined when main saw none.
   */
  readonly refusedCertificate?: (host: string) => Promise<RefusedCertificate | undefined>
  /**
   * Settled once the session's proxy and certificates are those of the current settings: every request waits
   * for it, so none leaves with the previous profile's proxy.
   */
  readonly networkReady?: () => Promise<void>
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

/**
 * The app's FetchLike over Electron's network stack, for the core (utility) process: the OS's proxy settings,
 * PAC/WPAD, proxy sign-in (main's `login` handler) and the OS's certificate store all apply, as they do to
 * Chromium. Built like Electron's own `net.fetch` in a utility process (`fetchWithSession(input, init, undefined,
 * net.request)`, lib/browser/api/net-fetch.ts) with two differences:
 *
 * - `redirect: 'manual'` answers the 3xx itself (status and Location) instead of failing: Electron's ClientRequest
 *   emits 'redirect' and, unless `followRedirect()` is called, dies with "Redirect was cancelled"
 *   (net-client-request.ts, the 'manual' branch of the loader's 'redirect'); aborting inside the event stops
 *   that, and the redirect rule stays with core's http-json.ts, which decides what to follow.
 * - Chromium's `net::ERR_*` failures become RosterDeskErrors with their own codes (`electronNetFailure`), and a
 *   computer the OS reports offline fails at once with 'offline' rather than after a run of retries.
 *
 * Bodies stream (the IncomingMessage as a web stream), so the size limits, timeouts, deadline and cancellation
 * of http-json.ts and the sync, which all sit above fetch, keep working; the caller's AbortSignal aborts the
 * ClientRequest, as Electron's net.fetch does.
 */
export function electronNetFetch(net: UtilityNet, options: ElectronNetFetchOptions = {}): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init)
    if (request.signal.aborted) throw abortReason(request.signal)
    await options.networkReady?.()
    if (request.signal.aborted) throw abortReason(request.signal)
    if (!net.isOnline()) throw offlineError(request.url)
    // Small bodies only (token forms, JSON): read whole, then written in one piece.
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    let response: Response
    try {
      response = await send(net, request, body)
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('net::')) throw error
      throw await failureOf(error, request.url, options)
    }
    // A 407 reaches here only when main's login handler cancelled the proxy's challenge (Chromium then lets the
    // consumer read the proxy's answer): the clerk's Cancel, no window to ask in, or no answer in time.
    if (response.status === 407) {
      await response.body?.cancel().catch(() => undefined)
      throw electronNetFailure(new Error('net::ERR_PROXY_AUTH_REQUESTED'), request.url)
    }
    return response
  }
}

function send(net: UtilityNet, request: Request, body: Buffer | undefined): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const manual = request.redirect === 'manual'
    const client = net.request({
      method: request.method,
      url: request.url,
      redirect: request.redirect === 'error' ? 'error' : manual ? 'manual' : 'follow',
      // The service's sign-in is a Bearer header; no cookie is sent or kept, and no answer is cached.
      credentials: 'omit',
      cache: 'no-store',
    })
    let settled = false
    const settle = (finish: () => void): void => {
      if (settled) return
      settled = true
      finish()
    }
    // Kept for the whole request, body included, as Electron's net.fetch keeps it: an abort while the body is
    // read ends the ClientRequest, and with it the body's stream.
    request.signal.addEventListener(
      'abort',
      () => {
        settle(() => reject(abortReason(request.signal)))
        client.abort()
      },
      { once: true },
    )
    for (const [name, value] of request.headers) client.setHeader(name, value)
    client.on('response', (response) =>
      settle(() => resolve(toResponse(response, request.method, () => client.abort()))),
    )
    client.on('redirect', (statusCode, _method, redirectUrl, headers) => {
      if (!manual) return
      // Answered here as the 3xx it is; aborting inside the event keeps Electron from failing the request.
      client.abort()
      const answer = new Headers()
      for (const [name, values] of Object.entries(headers)) answer.set(name, values.join(', '))
      answer.set('location', redirectUrl)
      settle(() => resolve(new Response(null, { status: statusCode, headers: answer })))
    })
    client.on('error', (error) => settle(() => reject(error)))
    if (body !== undefined && body.byteLength > 0) client.write(body)
    client.end()
  })
}

function toResponse(response: IncomingMessage, method: string, abort: () => void): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(response.headers))
    headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  const empty = NULL_BODY_STATUSES.has(response.statusCode) || method === 'HEAD'
  if (empty) abort()
  const body = empty ? null : (Readable.toWeb(response as unknown as Readable) as ReadableStream<Uint8Array>)
  return new Response(body, { status: response.statusCode, statusText: response.statusMessage, headers })
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError')
}

function offlineError(url: string): RosterDeskError {
  return new RosterDeskError(
    'offline',
    'This computer is offline, so RosterDesk cannot reach the payroll service. Connect to the network and try again; the data already synced stays available.',
    { retryable: false, detail: `net.isOnline() is false before ${originOf(url)}` },
  )
}

async function failureOf(
  error: Error,
  url: string,
  options: ElectronNetFetchOptions,
): Promise<RosterDeskError> {
  const host = hostOf(url)
  const certificate =
    error.message.startsWith('net::ERR_CERT_') && host !== undefined
      ? await options.refusedCertificate?.(host).catch(() => undefined)
      : undefined
  return electronNetFailure(error, url, certificate)
}

/**
 * A Chromium network error (`net::ERR_…`, the message Electron's ClientRequest fails with:
 * net-client-request.ts, the loader's 'error' event) as the RosterDeskError that names its cause: a proxy that
 * wants credentials, a certificate not trusted (with its issuer when main saw the chain), expired or for another
 * host, a name that does not resolve, a refused connection, no answer in time, the computer offline. Anything
 * else is the retryable 'network' error. The detail keeps Chromium's code for the log; never a URL's query.
 */
export function electronNetFailure(
  error: Error,
  url: string,
  certificate?: RefusedCertificate,
): RosterDeskError {
  const code = error.message.split(/\s/)[0] ?? error.message
  const where = originOf(url)
  const host = hostOf(url) ?? where
  const detail = `${code} (${where})`
  const make = (
    kind: ConstructorParameters<typeof RosterDeskError>[0],
    message: string,
    retryable: boolean,
  ) => new RosterDeskError(kind, message, { retryable, detail, cause: error })
  if (PROXY_AUTH_ERRORS.has(code))
    return make(
      'proxy-auth',
      'The company proxy asks for a sign-in that was not given or was refused. Try again and enter the proxy user name and password, or ask IT.',
      false,
    )
  if (code === 'net::ERR_CERT_DATE_INVALID')
    return make(
      'certificate',
      `The certificate of ${host} has expired or is not valid yet. Check the computer's date and time; if it is right, tell the service's administrator.`,
      false,
    )
  if (code === 'net::ERR_CERT_COMMON_NAME_INVALID')
    return make(
      'certificate',
      `The certificate presented for ${host} is for another host name. Check the service address in Settings; a proxy that inspects secure connections may also cause this.`,
      false,
    )
  if (code.startsWith('net::ERR_CERT_') || code === 'net::ERR_SSL_PROTOCOL_ERROR')
    return make(
      'certificate',
      `The connection to ${host} is not trusted${certificate === undefined ? '' : `: its certificate is issued by ${certificate.issuer}`}. If your company inspects secure connections, IT must install its certificate in the operating system, or choose it in Settings → Network (Extra trusted certificates).`,
      false,
    )
  if (code === 'net::ERR_NAME_NOT_RESOLVED' || code === 'net::ERR_NAME_RESOLUTION_FAILED')
    return make(
      'host-not-found',
      `The host name ${host} could not be found. Check the service address in Settings and the network connection.`,
      true,
    )
  if (code === 'net::ERR_PROXY_CONNECTION_FAILED' || code === 'net::ERR_TUNNEL_CONNECTION_FAILED')
    return make(
      'connection-refused',
      'The proxy could not be reached or refused to connect to the service. Check Settings → Network, or ask IT whether the service is allowed through the proxy.',
      true,
    )
  if (code === 'net::ERR_CONNECTION_REFUSED')
    return make(
      'connection-refused',
      `${host} refused the connection. Check the service address and port in Settings; the service may be down.`,
      true,
    )
  if (TIMEOUT_ERRORS.has(code))
    return make('timeout', `${host} did not answer in time. Check the connection and try again.`, true)
  if (code === 'net::ERR_INTERNET_DISCONNECTED')
    return make(
      'offline',
      'This computer is offline, so RosterDesk cannot reach the payroll service. Connect to the network and try again; the data already synced stays available.',
      false,
    )
  return make(
    'network',
    `RosterDesk could not reach ${host}. Check the network connection and the service address, then try again.`,
    true,
  )
}

/** Chromium's codes for a proxy that asked for credentials none answered, or that refused them. */
const PROXY_AUTH_ERRORS = new Set([
  'net::ERR_PROXY_AUTH_REQUESTED',
  'net::ERR_PROXY_AUTH_UNSUPPORTED',
  'net::ERR_PROXY_AUTH_REQUESTED_WITH_NO_CONNECTION',
  'net::ERR_INVALID_AUTH_CREDENTIALS',
  'net::ERR_UNEXPECTED_PROXY_AUTH',
])

const TIMEOUT_ERRORS = new Set([
  'net::ERR_TIMED_OUT',
  'net::ERR_CONNECTION_TIMED_OUT',
  'net::ERR_PROXY_TIMED_OUT',
])

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : 'an invalid address'
}

function hostOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).host : undefined
}
