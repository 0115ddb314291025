import http from 'node:http'
import { isIP } from 'node:net'
import { PassThrough, Writable, type Duplex } from 'node:stream'
import { connect as tlsConnect, type TLSSocket } from 'node:tls'
import { pacString, routeFor, type Route, type StandInProxyConfig } from './proxy-rules'
import { verifyHandshake, type StandInVerifyRequest } from './tls-verify'

/**
 * A stand-in for Electron's `net` in a utility process (electron 45.4.1: lib/utility/api/net.ts, whose `request`
 * is the ClientRequest of lib/common/api/net-client-request.ts), over Node's http. It behaves as that source does
 * where RosterDesk depends on it:
 *
 * - `request(options)` returns a Writable ClientRequest: headers by `setHeader`, the body written, `end()` starts
 *   it; 'response' gives an IncomingMessage (a Readable with statusCode, statusMessage, lower-cased headers);
 *   a failure is an 'error' with Chromium's `net::ERR_*` text as its message (the loader's 'error' event).
 * - Redirects: 'follow' follows (emitting 'redirect' first); 'error' fails with "Attempted to redirect, but
 *   redirect policy was 'error'"; 'manual' emits 'redirect' (statusCode, newMethod, newUrl, headers) and, unless
 *   `followRedirect()` is called during it, fails with "Redirect was cancelled" unless the request was aborted.
 * - `abort()` cancels the request and ends a response without an error, then emits 'abort' (`_die()`).
 * - The session's proxy applies (proxy-rules.ts); a 407 from the proxy, or a 401 with WWW-Authenticate from the
 *   server, asks for credentials through `host.login` (main's 'login' event: shell/browser/login_handler.cc), and
 *   credentials given are kept for that proxy and sent again up front, as Chromium's HTTP auth cache does. A
 *   cancelled challenge delivers the 407/401 answer itself to the caller (Chromium's
 *   net/url_request/url_request_http_job.cc, URLRequestHttpJob::CancelAuth: "Let the consumer read the HTTP
 *   error page"). Not modelled: https through a proxy (a CONNECT tunnel), which the shell tests do not use.
 * - An https request's own TLS handshake is verified as Electron's network service verifies it: Chromium's verdict,
 *   then the session's verify proc asked through `host.verifyCertificate` (tls-verify.ts cites the source); a
 *   refused chain fails the request with the net error, before anything is sent.
 * - `credentials: 'omit'`: a server's 401 is delivered as it is, with no 'login' and no cached server
 *   credentials sent, while a proxy's credentials still are (Electron's own specs: spec/api-net-spec.ts,
 *   "authentication when {"credentials":"omit"}" / "should not emit the login event when 401";
 *   spec/api-net-session-spec.ts, "should share proxy credentials with WebContents").
 * - The auth cache is the session's network context's, not the process's (Chromium's HttpAuthCache lives in the
 *   NetworkContext a session owns; a utility process given a session uses that context: electron 45.4.1
 *   docs/api/utility-process.md, `session`): `createUtilityNet` takes the cache its host shares.
 * - `isOnline()` answers what the host says (Chromium's NetworkChangeNotifier on a real machine).
 * - Header values (of an answer and of a redirect) and the status text arrive decoded as UTF-8, bytes that are not
 *   UTF-8 as U+FFFD (`utf8`): Electron converts the answer's net::HttpResponseHeaders in
 *   shell/common/gin_converters/net_converter.cc, `Converter<net::HttpResponseHeaders*>::ToV8`, each value through
 *   gin's `StringToV8`, and puts `GetStatusText()` in the response head in shell/common/api/electron_api_url_loader.cc,
 *   `SimpleURLLoaderWrapper::OnResponseStarted`, through gin's std::string converter: both V8's
 *   `String::NewFromUtf8` (Chromium's gin/converter.cc). Node's http reads them as Latin-1, one character a byte.
 */
export interface UtilityNetHost {
  /** The session's proxy configuration in force (main's `ses.setProxy`). */
  proxyConfig(): StandInProxyConfig
  /** Every request as it goes out: what the shell test asserts. */
  record(entry: { readonly method: string; readonly url: string; readonly route: string }): void
  /** Main's answer to a challenge: credentials, or undefined to cancel. */
  login(details: LoginDetails, authInfo: AuthInfo): Promise<readonly [string, string] | undefined>
  isOnline(): boolean
  /** The session's verify proc's answer (main's `ses.setCertificateVerifyProc`); absent: none is set. */
  readonly verifyCertificate?: (request: StandInVerifyRequest) => Promise<number>
}

export interface AuthInfo {
  readonly isProxy: boolean
  readonly scheme: string
  readonly host: string
  readonly port: number
  readonly realm: string
}

export interface LoginDetails {
  readonly url: string
  readonly pid: number
  readonly isRequestForNavigation: boolean
  readonly firstAuthAttempt: boolean
  readonly responseHeaders: Record<string, string | string[]>
}

export interface StandInRequestOptions {
  readonly method?: string
  readonly url: string
  /** lib/common/api/net-client-request.ts: 'include' (the default when not given), 'omit', 'same-origin'. */
  readonly credentials?: 'include' | 'omit' | 'same-origin'
  readonly redirect?: 'follow' | 'error' | 'manual'
  readonly headers?: Record<string, string>
}

export interface StandInNet {
  request(options: StandInRequestOptions | string): StandInClientRequest
  isOnline(): boolean
}

/** Chromium's HTTP auth cache: credentials per proxy or server (host:port), sent up front afterwards. */
export interface AuthCache {
  get(key: string): string | undefined
  set(key: string, value: string): void
}

/** `authCache`: the session's (shared by every process using it); a cache of this net's own when not given. */
export function createUtilityNet(host: UtilityNetHost, authCache: AuthCache = new Map()): StandInNet {
  return {
    request: (options) =>
      new StandInClientRequest(typeof options === 'string' ? { url: options } : options, host, authCache),
    isOnline: () => host.isOnline(),
  }
}

/** Electron's IncomingMessage: the body as a Readable, with the answer's status and headers. */
export class StandInIncomingMessage extends PassThrough {
  constructor(
    readonly statusCode: number,
    readonly statusMessage: string,
    readonly headers: Record<string, string | string[]>,
  ) {
    super()
  }
}

const MAX_REDIRECTS = 20

export class StandInClientRequest extends Writable {
  readonly #host: UtilityNetHost
  readonly #authCache: AuthCache
  readonly #omitCredentials: boolean
  readonly #headers = new Map<string, { name: string; value: string }>()
  readonly #chunks: Buffer[] = []
  readonly #redirect: 'follow' | 'error' | 'manual'
  #url: URL
  #method: string
  #aborted = false
  #current: http.ClientRequest | undefined
  /** The TLS socket of a direct https request while it is verified. */
  #tls: TLSSocket | undefined
  #response: StandInIncomingMessage | undefined
  #followRedirectCb: (() => void) | undefined
  #redirects = 0
  /** Challenges already answered with credentials for this request: a second one means they were refused. */
  readonly #tried = new Set<string>()

  constructor(options: StandInRequestOptions, host: UtilityNetHost, authCache: AuthCache) {
    super()
    this.#host = host
    this.#authCache = authCache
    this.#omitCredentials = options.credentials === 'omit'
    this.#url = new URL(options.url)
    if (this.#url.protocol !== 'http:' && this.#url.protocol !== 'https:')
      throw new Error('ClientRequest only supports http: and https: protocols')
    this.#method = (options.method ?? 'GET').toUpperCase()
    this.#redirect = options.redirect ?? 'follow'
    if (!['follow', 'error', 'manual'].includes(this.#redirect))
      throw new Error('redirect mode should be one of follow, error or manual')
    for (const [name, value] of Object.entries(options.headers ?? {})) this.setHeader(name, value)
  }

  setHeader(name: string, value: string): void {
    this.#headers.set(name.toLowerCase(), { name, value: String(value) })
  }

  getHeader(name: string): string | undefined {
    return this.#headers.get(name.toLowerCase())?.value
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.#chunks.push(Buffer.from(chunk))
    callback()
  }

  override _final(callback: () => void): void {
    this.#start()
    callback()
  }

  followRedirect(): void {
    if (this.#followRedirectCb === undefined)
      throw new Error('followRedirect() called, but was not waiting for a redirect')
    this.#followRedirectCb()
  }

  abort(): void {
    if (!this.#aborted) process.nextTick(() => this.emit('abort'))
    this.#aborted = true
    this.#die()
  }

  #die(error?: Error): void {
    if (error !== undefined && !this.#aborted) this.emit('error', error)
    this.#current?.destroy()
    this.#current = undefined
    this.#tls?.destroy()
    this.#tls = undefined
    if (this.#response !== undefined && !this.#response.destroyed) this.#response.destroy(error)
  }

  #start(): void {
    if (this.#aborted) return
    const route = routeFor(this.#host.proxyConfig(), this.#url)
    this.#host.record({ method: this.#method, url: this.#url.href, route: pacString(route) })
    const body = Buffer.concat(this.#chunks)
    const headers: Record<string, string> = {}
    for (const { name, value } of this.#headers.values()) headers[name] = value
    if (body.length > 0) headers['Content-Length'] = String(body.length)
    const serverAuth = this.#omitCredentials ? undefined : this.#authCache.get(`server:${this.#url.host}`)
    if (serverAuth !== undefined) headers['Authorization'] = serverAuth
    let request: http.ClientRequest
    if (route.kind === 'proxy' && this.#url.protocol === 'http:') {
      const proxyAuth = this.#authCache.get(proxyKey(route))
      request = http.request({
        host: route.host,
        port: route.port,
        method: this.#method,
        path: this.#url.href,
        headers: {
          ...headers,
          Host: this.#url.host,
          ...(proxyAuth ? { 'Proxy-Authorization': proxyAuth } : {}),
        },
      })
    } else if (route.kind === 'proxy') {
      this.#tunnel(headers, body, route)
      return
    } else if (this.#url.protocol === 'https:') {
      this.#startTls(headers, body, route, undefined)
      return
    } else {
      request = http.request(this.#url, { method: this.#method, headers })
    }
    this.#send(request, body, route)
  }

  /**
   * An https request through a proxy: a CONNECT to the service's host:port (with the proxy's cached credentials),
   * then the handshake and the request inside the tunnel. A 407 asks for credentials as for a plain request and
   * tries again; a cancelled 407, or any answer but 200, fails with ERR_TUNNEL_CONNECTION_FAILED and never shows
   * the proxy's answer as the server's (Chromium's net/http/http_proxy_client_socket.cc, DoReadHeadersComplete,
   * crbug.com/137891; net/http/http_network_transaction.cc, Read: "We reach this case when the user cancels a
   * 407 proxy auth prompt", crbug.com/8473).
   */
  #tunnel(headers: Record<string, string>, body: Buffer, route: Route & { kind: 'proxy' }): void {
    const hostname = this.#url.hostname.replace(/^\[(.+)\]$/, '$1')
    const target = `${this.#url.hostname}:${Number(this.#url.port || 443)}`
    const proxyAuth = this.#authCache.get(proxyKey(route))
    const connect = http.request({
      host: route.host,
      port: route.port,
      method: 'CONNECT',
      path: target,
      headers: { Host: target, ...(proxyAuth ? { 'Proxy-Authorization': proxyAuth } : {}) },
    })
    this.#current = connect
    connect.on('connect', (answer, socket) => {
      if (this.#current !== connect) return void socket.destroy()
      this.#current = undefined
      if (answer.statusCode === 200) return this.#startTls(headers, body, route, socket, hostname)
      // Node hands every answer to a CONNECT here, the socket with it.
      socket.destroy()
      if (answer.statusCode === 407) return void this.#proxyChallenge(answer, route)
      this.#die(new Error('net::ERR_TUNNEL_CONNECTION_FAILED'))
    })
    connect.on('error', (error: NodeJS.ErrnoException) => {
      if (this.#current === connect) this.#die(new Error(netError(error, route)))
    })
    connect.end()
  }

  /** A proxy's 407 to a CONNECT: credentials asked for, then the tunnel again; cancelled: the tunnel failed. */
  async #proxyChallenge(answer: http.IncomingMessage, route: Route & { kind: 'proxy' }): Promise<void> {
    answer.resume()
    const realm = basicChallenge(answer.headers['proxy-authenticate'])
    const key = proxyKey(route)
    const credentials =
      realm === undefined
        ? undefined
        : await this.#host.login(
            {
              url: this.#url.href,
              pid: process.pid,
              isRequestForNavigation: false,
              firstAuthAttempt: !this.#tried.has(key),
              responseHeaders: flatHeaders(answer.headers),
            },
            { isProxy: true, scheme: 'basic', host: route.host, port: route.port, realm },
          )
    if (this.#aborted) return
    if (credentials === undefined) return this.#die(new Error('net::ERR_TUNNEL_CONNECTION_FAILED'))
    this.#tried.add(key)
    this.#authCache.set(key, `Basic ${Buffer.from(`${credentials[0]}:${credentials[1]}`).toString('base64')}`)
    this.#start()
  }

  /**
   * An https request's handshake, direct or inside a proxy's tunnel (`tunnel`), its verification
   * (tls-verify.ts), then the request on that socket.
   */
  #startTls(
    headers: Record<string, string>,
    body: Buffer,
    route: Route,
    tunnel: Duplex | undefined,
    name: string = this.#url.hostname.replace(/^\[(.+)\]$/, '$1'),
  ): void {
    const hostname = name
    const port = Number(this.#url.port || 443)
    const socket = tlsConnect({
      ...(tunnel === undefined ? { host: hostname, port } : { socket: tunnel }),
      ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    })
    const failed = (error: NodeJS.ErrnoException) => {
      if (this.#tls === socket) this.#die(new Error(netError(error, route)))
    }
    this.#tls = socket
    socket.once('error', failed)
    socket.once('secureConnect', () => {
      void verifyHandshake(socket, hostname, this.#host.verifyCertificate).then(
        (refusal) => {
          if (this.#aborted || this.#tls !== socket) return void socket.destroy()
          if (refusal !== undefined) {
            socket.destroy()
            return this.#die(new Error(refusal))
          }
          socket.off('error', failed)
          this.#tls = undefined
          const verified = http.request({
            host: this.#url.hostname,
            port,
            path: `${this.#url.pathname}${this.#url.search}`,
            method: this.#method,
            headers,
            createConnection: () => socket,
          })
          this.#send(verified, body, route)
        },
        () => this.#die(new Error('net::ERR_FAILED')),
      )
    })
  }

  #send(request: http.ClientRequest, body: Buffer, route: Route): void {
    this.#current = request
    request.on('response', (answer) => void this.#answered(answer, route))
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (this.#current !== request) return
      this.#die(new Error(netError(error, route)))
    })
    request.end(body)
  }

  async #answered(answer: http.IncomingMessage, route: Route): Promise<void> {
    if (this.#aborted) {
      answer.resume()
      return
    }
    const status = answer.statusCode ?? 0
    const challenge =
      status === 407 && route.kind === 'proxy'
        ? { header: answer.headers['proxy-authenticate'], isProxy: true, host: route.host, port: route.port }
        : status === 401 && !this.#omitCredentials
          ? {
              header: answer.headers['www-authenticate'],
              isProxy: false,
              host: this.#url.hostname,
              port: Number(this.#url.port || (this.#url.protocol === 'https:' ? 443 : 80)),
            }
          : undefined
    const offered = challenge === undefined ? undefined : basicChallenge(challenge.header)
    if (challenge !== undefined && offered !== undefined) {
      const key = challenge.isProxy
        ? proxyKey({ host: challenge.host, port: challenge.port })
        : `server:${this.#url.host}`
      const credentials = await this.#host.login(
        {
          url: this.#url.href,
          pid: process.pid,
          isRequestForNavigation: false,
          firstAuthAttempt: !this.#tried.has(key),
          responseHeaders: flatHeaders(answer.headers),
        },
        {
          isProxy: challenge.isProxy,
          scheme: 'basic',
          host: challenge.host,
          port: challenge.port,
          realm: offered,
        },
      )
      if (this.#aborted) {
        answer.resume()
        return
      }
      if (credentials !== undefined) {
        answer.resume()
        this.#tried.add(key)
        this.#authCache.set(
          key,
          `Basic ${Buffer.from(`${credentials[0]}:${credentials[1]}`).toString('base64')}`,
        )
        this.#start()
        return
      }
    }
    const location = answer.headers.location
    if (status >= 300 && status < 400 && status !== 304 && location !== undefined) {
      answer.resume()
      this.#redirected(status, new URL(location, this.#url), answer.headers)
      return
    }
    const response = new StandInIncomingMessage(
      status,
      utf8(answer.statusMessage ?? ''),
      utf8Headers(flatHeaders(answer.headers)),
    )
    this.#response = response
    answer.on('error', () => this.#die(new Error('net::ERR_CONNECTION_RESET')))
    answer.on('aborted', () => this.#die(new Error('net::ERR_CONNECTION_RESET')))
    answer.pipe(response)
    this.emit('response', response)
  }

  #redirected(status: number, target: URL, headers: http.IncomingHttpHeaders): void {
    if (++this.#redirects > MAX_REDIRECTS) return this.#die(new Error('net::ERR_TOO_MANY_REDIRECTS'))
    const method =
      status === 303 || ((status === 301 || status === 302) && this.#method === 'POST') ? 'GET' : this.#method
    const listed: Record<string, string[]> = {}
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) listed[name] = (Array.isArray(value) ? value : [value]).map(utf8)
    const follow = (): void => {
      this.#url = target
      if (method !== this.#method) {
        this.#method = method
        this.#chunks.length = 0
      }
      this.#start()
    }
    if (this.#redirect === 'error') {
      this.#die(new Error("Attempted to redirect, but redirect policy was 'error'"))
    } else if (this.#redirect === 'manual') {
      let followed = false
      this.#followRedirectCb = () => (followed = true)
      try {
        this.emit('redirect', status, method, target.href, listed)
      } finally {
        this.#followRedirectCb = undefined
        if (followed && !this.#aborted) follow()
        else if (!this.#aborted) this.#die(new Error('Redirect was cancelled'))
      }
    } else {
      this.#followRedirectCb = () => undefined
      try {
        this.emit('redirect', status, method, target.href, listed)
      } finally {
        this.#followRedirectCb = undefined
      }
      if (!this.#aborted) follow()
    }
  }
}

/** The realm of a Basic challenge, or undefined when none is offered (the stand-in answers Basic only). */
function basicChallenge(header: string | string[] | undefined): string | undefined {
  const offers = Array.isArray(header) ? header : header === undefined ? [] : [header]
  const basic = offers.find((offer) => /^basic\b/i.test(offer.trim()))
  if (basic === undefined) return undefined
  return /realm="([^"]*)"/i.exec(basic)?.[1] ?? ''
}

function proxyKey(route: { readonly host: string; readonly port: number }): string {
  return `proxy:${route.host}:${route.port}`
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const flat: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = value
  return flat
}

/** Bytes Node's http read as Latin-1 (one character a byte), decoded as UTF-8 as Electron decodes them. */
function utf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8')
}

function utf8Headers(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  const decoded: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers))
    decoded[name] = Array.isArray(value) ? value.map(utf8) : utf8(value)
  return decoded
}

/** Node's socket errors as the Chromium errors a real network stack reports for them (net/base/net_error_list.h). */
function netError(error: NodeJS.ErrnoException, route: Route): string {
  if (route.kind === 'proxy' && (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND'))
    return 'net::ERR_PROXY_CONNECTION_FAILED'
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'net::ERR_CONNECTION_REFUSED'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'net::ERR_NAME_NOT_RESOLVED'
    case 'ETIMEDOUT':
      return 'net::ERR_CONNECTION_TIMED_OUT'
    case 'ECONNRESET':
      return 'net::ERR_CONNECTION_RESET'
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'net::ERR_CERT_AUTHORITY_INVALID'
    case 'CERT_HAS_EXPIRED':
      return 'net::ERR_CERT_DATE_INVALID'
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'net::ERR_CERT_COMMON_NAME_INVALID'
    default:
      return 'net::ERR_FAILED'
  }
}
