import type { IncomingMessage, Net } from 'electron/utility'
import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import type { FetchLike } from '../../core/api/fetch-like'
import {
  NetworkFailureError,
  networkFailureConcerns,
  type NetworkFailureFacts,
} from '../../core/net/network-failure'

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
  /** The leaf's subject as a person reads it (its common name). */
  readonly subject: string
  /** The issuer of the chain's top certificate ("Zscaler Root CA"). */
  readonly issuer: string
  /** The end of the leaf's validity (ISO time). */
  readonly validTo?: string
  /** Chromium's verdict, e.g. "net::ERR_CERT_AUTHORITY_INVALID". */
  readonly verificationResult: string
}

export interface ElectronNetFetchOptions {
  /**
   * What main knows of a failed request, asked only after a failure and only for what it concerns
   * (`networkFailureConcerns`): the chain its verify proc saw refused, the proxy Electron resolved. The error
   * then names them ("issued by …", "the proxy proxy.corp:8080").
   */
  readonly failureFacts?: (
    url: string,
    concerns: ReturnType<typeof networkFailureConcerns>,
  ) => Promise<NetworkFailureFacts>
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
 * - Chromium's `net::ERR_*` failures are thrown as NetworkFailureErrors with the facts main has (the caller's
 *   `classifyNetworkFailure` names their cause), and a computer the OS reports offline fails at once, as
 *   `net::ERR_INTERNET_DISCONNECTED` ('offline', never retried), rather than after a run of retries.
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
    // Chromium's own word for it (net_error_list.h), classified as every network failure is: fails fast.
    if (!net.isOnline()) throw await failureOf('net::ERR_INTERNET_DISCONNECTED', request.url, options)
    // Small bodies only (token forms, JSON): read whole, then written in one piece.
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    let response: Response
    try {
      response = await send(net, request, body)
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('net::')) throw error
      throw await failureOf(error.message.split(/\s/)[0] ?? error.message, request.url, options, error)
    }
    // A 407 reaches here only when main's login handler cancelled the proxy's challenge (Chromium then lets the
    // consumer read the proxy's answer): the clerk's Cancel, no window to ask in, or no answer in time.
    if (response.status === 407) {
      await response.body?.cancel().catch(() => undefined)
      throw await failureOf('proxy-407', request.url, options)
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

/**
 * A failed request as a NetworkFailureError (core/net/network-failure.ts) carrying what main knows about it:
 * Chromium's `net::ERR_*` reason (the message Electron's ClientRequest fails with: net-client-request.ts, the
 * loader's 'error' event), the refused chain's issuer, the proxy in use. The caller words it with the one
 * classification, `classifyNetworkFailure`, naming what it asked for (http-json.ts; worker-sync.ts for the
 * core worker's requests).
 */
async function failureOf(
  reason: string,
  url: string,
  options: ElectronNetFetchOptions,
  cause?: unknown,
): Promise<NetworkFailureError> {
  const facts =
    (await options.failureFacts?.(url, networkFailureConcerns(reason)).catch(() => undefined)) ?? {}
  return new NetworkFailureError(reason, facts, cause === undefined ? undefined : { cause })
}
