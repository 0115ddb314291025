import { RosterDeskError } from '../errors'
import type { FetchLike } from './fetch-like'

/**
 * The most redirects one request follows. A service that moved a path redirects once (twice at most, say from
 * http to https and then to the new path); more than this is a misconfiguration, not a move.
 */
export const MAX_REDIRECTS = 5

/** The statuses that redirect (Fetch standard): 301/302/303 may turn a request into a GET, 307/308 never do. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

/**
 * A redirect RosterDesk did not follow (`fetchFollowingRedirects`): final, its `status` the redirect's. A caller
 * for whom any redirect means one thing (a token request sent to a sign-on page) can word it for its purpose.
 */
export class RedirectRefusedError extends RosterDeskError {
  constructor(
    readonly status: number,
    code: 'config' | 'service',
    message: string,
    detail: string,
  ) {
    super(code, message, { retryable: false, detail })
    this.name = 'RedirectRefusedError'
  }
}

/** One request as it is sent again at each hop: a text body, so it can be sent more than once. */
export interface RedirectableRequest {
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  readonly signal: AbortSignal
  /** The service as a sentence starts with it in messages ("The payroll service"). */
  readonly who: string
}

/**
 * Sends a request and follows the service's redirects itself, within the request's own origin only: the one
 * place the redirect rule lives, for every request to the service (token exchange, refresh, list pages, the live
 * lookup, the core worker's sync through its host). `fetch` is always asked for `redirect: 'manual'` and must
 * answer a 3xx with that response (Node's fetch does; Electron's `net.fetch` does through the app's adapter), so no
 * request is ever sent anywhere RosterDesk did not check first.
 *
 * - Same origin (scheme, host and port of the request's URL): followed, with the same headers, Authorization
 *   included (that is why only the same origin is followed). 307 and 308 keep the method and the body; 301, 302
 *   and 303 answering a GET stay a GET. Any other method answered 301, 302 or 303 is refused, since following it
 *   would drop what was sent (`service`).
 * - Another origin: never followed, nothing is sent there; refused (`config`) naming the origin only (never its
 *   path or query, which may hold data), with what to do: change the service address if the service has moved,
 *   else ask IT (a proxy or a network's sign-in page may be what redirects).
 * - A loop (an address asked for again), more than `MAX_REDIRECTS` hops, or a redirect that does not say where to
 *   (no or an unreadable Location): refused (`service`), each with its own message.
 *
 * Every refusal is final (not retryable): the same request gets the same answer. Resolves with the first answer
 * that is not a redirect; a redirect's own body is discarded unread.
 */
export async function fetchFollowingRedirects(
  fetch: FetchLike,
  request: RedirectableRequest,
): Promise<Response> {
  const origin = new URL(request.url).origin
  const asked = new Set<string>([new URL(request.url).href])
  let url = request.url
  let method = request.method
  let body = request.body
  let headers = request.headers
  for (let hops = 0; ; hops++) {
    const response = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: request.signal,
      redirect: 'manual',
    })
    if (!REDIRECT_STATUSES.has(response.status)) return response
    await response.body?.cancel().catch(() => undefined)
    const status = response.status
    const target = redirectTarget(response.headers.get('location'), url, status, request.who)
    if (target.origin !== origin) throw otherOriginError(request.who, status, target)
    if (status !== 307 && status !== 308 && method !== 'GET') {
      throw methodChangeError(request.who, status, method)
    }
    if (asked.has(target.href)) throw loopError(request.who, status, hops + 1)
    if (hops + 1 > MAX_REDIRECTS) throw tooManyError(request.who, status)
    asked.add(target.href)
    url = target.href
    if (status !== 307 && status !== 308) {
      // A GET stays a GET, with no body (it had none) and no content type.
      method = 'GET'
      body = undefined
      headers = withoutContentType(headers)
    }
  }
}

/** The Location a redirect names, resolved against the address it answered. */
function redirectTarget(location: string | null, from: string, status: number, who: string): URL {
  const unreadable = (problem: string): RosterDeskError =>
    new RedirectRefusedError(
      status,
      'service',
      `${who} answered with a redirect (HTTP ${status}) ${problem}, so RosterDesk could not follow it. Check the service address in Settings; if it is right, tell the payroll service’s administrator.`,
      `HTTP ${status} redirect: ${location === null ? 'no' : 'unreadable'} Location`,
    )
  if (location === null || location.trim() === '') throw unreadable('that does not say where to')
  try {
    return new URL(location, from)
  } catch {
    throw unreadable('to an address that is not one')
  }
}

/** The origin as a clerk or IT may read it: scheme, host and port; never a path or a query. */
function originText(target: URL): string {
  return target.origin === 'null' ? `a ${target.protocol} address` : target.origin
}

function otherOriginError(who: string, status: number, target: URL): RedirectRefusedError {
  const origin = originText(target)
  return new RedirectRefusedError(
    status,
    'config',
    `${who} redirected to ${origin}, which is not the service address RosterDesk is set to use, so RosterDesk did not follow it and sent nothing there (its sign-in goes only to the service address). If the payroll service has moved there, change the service address in Settings (the CLI: --base-url); if not, ask IT what redirects it (a proxy or a network’s sign-in page may).`,
    `HTTP ${status} redirect to another origin: ${origin}`,
  )
}

function methodChangeError(who: string, status: number, method: string): RedirectRefusedError {
  return new RedirectRefusedError(
    status,
    'service',
    `${who} answered RosterDesk’s ${method} request with a redirect (HTTP ${status}) that would send it again without its content, so RosterDesk did not follow it. Check the service address in Settings; if it is right, tell the payroll service’s administrator that this address answers ${method} with HTTP ${status} (a moved address needs 307 or 308).`,
    `HTTP ${status} redirect of a ${method}: not followed`,
  )
}

function loopError(who: string, status: number, hops: number): RedirectRefusedError {
  return new RedirectRefusedError(
    status,
    'service',
    `${who} redirected RosterDesk in a loop, back to an address it had already asked (after ${hops} redirect${hops === 1 ? '' : 's'}), so RosterDesk stopped. Tell the payroll service’s administrator; check the service address in Settings meanwhile.`,
    `HTTP ${status} redirect loop after ${hops} hops`,
  )
}

function tooManyError(who: string, status: number): RedirectRefusedError {
  return new RedirectRefusedError(
    status,
    'service',
    `${who} redirected RosterDesk more than ${MAX_REDIRECTS} times for one request, so RosterDesk stopped. Check the service address in Settings; if it is right, tell the payroll service’s administrator.`,
    `HTTP ${status} redirect: more than ${MAX_REDIRECTS} hops`,
  )
}

function withoutContentType(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'))
}
