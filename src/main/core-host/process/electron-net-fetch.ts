import type { IncomingMessage, Net } from 'electron/utility'
import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import type { FetchLike } from '../../core/api/fetch-like'
import { RosterDeskError } from '../../core/errors'
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
  /** Why the extra certificates file did not vouch for the chain, when it was asked (certificate-trust.ts). */
  readonly why?: string
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
    // Nothing thrown in a listener may leave it: Electron calls them from its URL loader's callbacks, where a throw
    // is the process's uncaught exception, which ends it (serve-core-process.ts). It fails this request instead.
    const guarded =
      <A extends unknown[]>(listener: (...args: A) => void) =>
      (...args: A): void => {
        try {
          listener(...args)
        } catch (error) {
          settle(() => reject(unreadableAnswer(error)))
          try {
            client.abort()
          } catch {
            // Already ended: nothing more to stop.
          }
        }
      }
    request.signal.addEventListener(
      'abort',
      guarded(() => {
        settle(() => reject(abortReason(request.signal)))
        client.abort()
      }),
      { once: true },
    )
    for (const [name, value] of request.headers) client.setHeader(name, value)
    client.on(
      'response',
      guarded((response: IncomingMessage) => {
        // Read before settling: a throw here must still be able to fail the request.
        const answer = toResponse(response, request.method, () => client.abort())
        settle(() => resolve(answer))
      }),
    )
    client.on(
      'redirect',
      guarded(
        (statusCode: number, _method: string, redirectUrl: string, headers: Record<string, string[]>) => {
          if (!manual) return
          // Answered here as the 3xx it is; aborting inside the event keeps Electron from failing the request.
          client.abort()
          const answer = byteHeaders(Object.entries(headers))
          answer.set('location', redirectUrl)
          settle(() => resolve(new Response(null, { status: statusCode, headers: answer })))
        },
      ),
    )
    client.on(
      'error',
      guarded((error: Error) => settle(() => reject(error))),
    )
    if (body !== undefined && body.byteLength > 0) client.write(body)
    client.end()
  })
}

function toResponse(response: IncomingMessage, method: string, abort: () => void): Response {
  const headers = byteHeaders(Object.entries(response.headers))
  let statusText: string
  try {
    statusText = asLatin1(response.statusMessage) ?? ''
    // Refused by Response, as by the fetch standard, when not a reason phrase (a control character in it).
    new Response(null, { status: 200, statusText })
  } catch (error) {
    throw new UnreadableAnswer('status-text', error)
  }
  const empty = NULL_BODY_STATUSES.has(response.statusCode) || method === 'HEAD'
  if (empty) abort()
  const body = empty ? null : (Readable.toWeb(response as unknown as Readable) as ReadableStream<Uint8Array>)
  return new Response(body, { status: response.statusCode, statusText, headers })
}

/**
 * Response headers as `Headers` holds them: each value the bytes the service sent, read as Latin-1 (`asLatin1`),
 * as Node's own fetch reads them. A value whose bytes are lost is left out; one `Headers` still refuses (a control
 * character) throws an UnreadableAnswer naming the header, never its value, which may be a secret.
 */
function byteHeaders(entries: ReadonlyArray<readonly [string, string | readonly string[]]>): Headers {
  const headers = new Headers()
  for (const [name, value] of entries) {
    const text = asLatin1(typeof value === 'string' ? value : value.join(', '))
    if (text === undefined) continue
    try {
      headers.set(name, text)
    } catch (error) {
      throw new UnreadableAnswer('header', error, name)
    }
  }
  return headers
}

/**
 * A response header's value or status text, decoded by Electron as UTF-8, back as the service's bytes read as
 * Latin-1: the ByteString `Headers` and `Response` take (they throw a TypeError on any character above U+00FF,
 * as "€" or "日本" sent as UTF-8 arrive; "ü" would pass, as other bytes than those sent). Electron decodes them in its converter of response headers
 * (shell/common/gin_converters/net_converter.cc, `Converter<net::HttpResponseHeaders*>::ToV8`, each value through
 * gin's `StringToV8`) and, for the status text, `SimpleURLLoaderWrapper::OnResponseStarted`
 * (shell/common/api/electron_api_url_loader.cc, `GetStatusText()` into a gin dictionary): both V8's
 * `String::NewFromUtf8` (Chromium's gin/converter.cc), which puts U+FFFD for bytes that are not UTF-8. Undefined
 * then: those bytes are lost. The shell tests' stand-in decodes the same way (test/shell/stand-in/utility-net.ts).
 */
function asLatin1(text: string): string | undefined {
  if (text.includes('\uFFFD')) return undefined
  return Buffer.from(text, 'utf8').toString('latin1')
}

/** What a listener threw while reading an answer: which part, for `unreadableAnswer`'s message. */
class UnreadableAnswer extends Error {
  constructor(
    readonly part: 'header' | 'status-text',
    cause: unknown,
    /** The header's name (its value is never kept: it may hold a token). */
    readonly header?: string,
  ) {
    super(`electron-net-fetch: unreadable ${part}`, { cause })
  }
}

/**
 * A throw inside one of net's listeners, as the failed request it is: never retried (the same answer comes
 * again). Its detail names the header, never its value, nor the cause's message, which quotes the value.
 */
function unreadableAnswer(error: unknown): RosterDeskError {
  const advice =
    'Try again later; if it keeps happening, tell the payroll service’s administrator and send the log to support.'
  if (error instanceof UnreadableAnswer && error.part === 'header')
    return new RosterDeskError(
      'service',
      `The service sent a response header RosterDesk cannot read. ${advice}`,
      {
        detail: `electron-net-fetch: response header "${error.header ?? ''}" refused by Headers (${causeName(error)})`,
      },
    )
  if (error instanceof UnreadableAnswer)
    return new RosterDeskError(
      'service',
      `The service sent a status line RosterDesk cannot read. ${advice}`,
      {
        detail: `electron-net-fetch: status text refused by Response (${causeName(error)})`,
      },
    )
  return new RosterDeskError('service', `RosterDesk could not read the service’s answer. ${advice}`, {
    detail: `electron-net-fetch: a listener of net's request threw (${error instanceof Error ? error.name : typeof error})`,
  })
}

function causeName(error: Error): string {
  return error.cause instanceof Error ? error.cause.name : typeof error.cause
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
