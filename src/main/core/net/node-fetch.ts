import { readFileSync } from 'node:fs'
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type Socket } from 'node:net'
import { Readable } from 'node:stream'
import {
  connect as tlsConnect,
  getCACertificates,
  type DetailedPeerCertificate,
  type PeerCertificate,
  type TLSSocket,
} from 'node:tls'
import { X509Certificate } from 'node:crypto'
import {
  Agent,
  ProxyAgent,
  fetch as undiciFetch,
  type Dispatcher,
  type RequestInit as UndiciRequestInit,
} from 'undici'
import {
  NetworkFailureError,
  networkFailureConcerns,
  networkFailureReason,
  UNASKED_CONTINUE_REASON,
  type CertificateSeen,
  type NetworkFailureFacts,
} from './network-failure'
import {
  NetworkOptionError,
  proxyFor,
  type NetworkSource,
  type NodeNetwork,
  type ProxyEndpoint,
} from './network-options'

/** How long the look at a refused certificate may take before the failure is reported without it. */
const CERTIFICATE_PROBE_TIMEOUT_MS = 5_000

/** The fetch everything under plain Node uses (the CLI, scheduled jobs, tests, benches), and how to end it. */
export interface NodeFetch {
  /** The core's FetchLike (api/fetch-like.ts), spelled out: core/api imports this folder, not the other way. */
  readonly fetch: (input: string, init?: RequestInit) => Promise<Response>
  readonly network: NodeNetwork
  /** The certificates every connection of this fetch trusts, and that set in words. */
  readonly trust: TrustSet
  /** Closes the connections kept open; the fetch must not be used afterwards. */
  close(): Promise<void>
}

/** The certificates a fetch trusts (PEM), and their description for a report: never the certificates' contents. */
export interface TrustSet {
  readonly certificates: readonly string[]
  /** "Node's bundled list and this computer's store (and /path/ca.pem)". */
  readonly words: string
}

/**
 * The certificates a connection under plain Node trusts: Node's bundled list, the OS store (on Linux, OpenSSL's
 * paths, which honour SSL_CERT_FILE and SSL_CERT_DIR; Node ≥ 22.19) and the extra certificates given, if any.
 */
export function trustedCertificates(extra: readonly string[] = []): string[] {
  return [...getCACertificates('bundled'), ...getCACertificates('system'), ...extra]
}

/**
 * The PEM certificates in `path` (one or more), each checked to be a certificate. A missing, unreadable or empty
 * file, or one that is not PEM, is a NetworkOptionError ('config') naming `what` ("--ca-file", "The extra certificates file")
 * and the file.
 */
export function readCertificateFile(
  path: string,
  what: string,
  source: NetworkSource = 'command-line',
): string[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EISDIR'
          ? 'it is a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'RosterDesk may not read it'
            : 'it cannot be read'
    throw new NetworkOptionError(source, `${what}: ${path} cannot be used: ${why}.`, {
      detail: code ?? 'read failed',
      cause: error,
    })
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) {
    throw new NetworkOptionError(
      source,
      `${what}: ${path} holds no certificate in PEM form (text starting “-----BEGIN CERTIFICATE-----”). Export the certificate as PEM (Base-64) and try again.`,
    )
  }
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block)
    } catch (error) {
      throw new NetworkOptionError(
        source,
        `${what}: certificate ${index + 1} of ${blocks.length} in ${path} is damaged and cannot be read.`,
        { detail: 'X509 parse failed', cause: error },
      )
    }
  })
  return blocks
}

/**
 * A fetch over undici's own `fetch` (a dispatcher set with the package's setGlobalDispatcher would not reach
 * Node's built-in one) that goes through the proxy `proxyFor` names for each URL, or direct, and trusts
 * `trustedCertificates`, plus the network's extra certificates file for `serviceHost` and the proxy alone
 * (decision 049: OpenSSL checks the chain, with the sslserver purpose); no `serviceHost`, no host. A failure is rethrown as a
 * NetworkFailureError that `classifyNetworkFailure` can word: a 407 says whether credentials were sent, a
 * connection failure through a proxy is the proxy's, and a refused certificate is looked at again (same route,
 * verification off, nothing sent) so the message can name its issuer.
 */
export function createNodeFetch(
  network: NodeNetwork,
  options: { readonly serviceHost?: string | undefined } = {},
): NodeFetch {
  const extra =
    network.caFile === undefined
      ? []
      : readCertificateFile(
          network.caFile,
          network.caFileSource === 'command-line'
            ? '--ca-file'
            : 'The extra certificates file (Settings → Network)',
          network.caFileSource,
        )
  const ca = trustedCertificates(extra)
  const base = extra.length === 0 ? ca : trustedCertificates()
  const serviceHost = options.serviceHost?.replace(/^\[(.+)\]$/, '$1').toLowerCase()
  /** The file vouches for the service's host (and, below, its proxy) only (decision 049). */
  const caFor = (url: string): string[] =>
    serviceHost !== undefined &&
    new URL(url).hostname.replace(/^\[(.+)\]$/, '$1').toLowerCase() === serviceHost
      ? ca
      : base
  const trust: TrustSet = {
    certificates: serviceHost === undefined ? base : ca,
    words: `Node's bundled list and this computer's store${network.caFile === undefined || serviceHost === undefined ? '' : ` and ${network.caFile}`}`,
  }
  const agents = new Map<string, Dispatcher>()
  const dispatcherFor = (proxy: ProxyEndpoint | undefined, url: string): Dispatcher => {
    const trusted = caFor(url)
    const key = `${proxy?.url ?? 'direct'} ${trusted === ca ? 'service' : 'other'}`
    let agent = agents.get(key)
    if (agent === undefined) {
      // An HTTPS proxy's own certificate is the proxy's: the file vouches for the service's proxy too.
      agent =
        proxy === undefined
          ? new Agent({ connect: { ca: trusted } })
          : new ProxyAgent({ uri: proxy.url, requestTls: { ca: trusted }, proxyTls: { ca } })
      agents.set(key, agent)
    }
    return agent
  }

  const fetch: NodeFetch['fetch'] = async (input, init) => {
    const proxy = proxyFor(network, input)
    try {
      const response = await undiciFetch(input, {
        ...(init as UndiciRequestInit | undefined),
        dispatcher: dispatcherFor(proxy, input),
      })
      // undici's Response is the WHATWG one Node's own fetch also returns (same streams, same Headers API).
      return response as unknown as Response
    } catch (error) {
      if (init?.signal?.aborted === true) throw error
      if (networkFailureReason(error) === UNASKED_CONTINUE_REASON && init?.body == null) {
        // undici refuses an interim 100 Continue no request asked for; Node's HTTP client reads past it.
        try {
          return await fetchReadingPastInterim(input, init, proxy, caFor(input))
        } catch (again) {
          // Read again: the signal may have been aborted while the request was sent anew.
          if (isAborted(init?.signal)) throw again
          throw await explainFailure(again, input, proxy, caFor(input))
        }
      }
      throw await explainFailure(error, input, proxy, caFor(input))
    }
  }

  return {
    fetch,
    network,
    trust,
    close: async () => {
      await Promise.all([...agents.values()].map((agent) => agent.close()))
    },
  }
}

/**
 * A request without a body sent again with Node's own HTTP client, which reads past every interim 1xx answer (it
 * reports them as 'information') where undici ends the connection on an unasked 100 Continue (client-h1.js): the
 * same route (direct, through the proxy's CONNECT tunnel for HTTPS, or in absolute form to the proxy for HTTP), the
 * same certificates, headers and signal, and no redirect followed (the caller asks for `redirect: 'manual'`).
 */
async function fetchReadingPastInterim(
  url: string,
  init: RequestInit | undefined,
  proxy: ProxyEndpoint | undefined,
  ca: readonly string[],
): Promise<Response> {
  const target = new URL(url)
  const secure = target.protocol === 'https:'
  const headers = Object.fromEntries(new Headers(init?.headers).entries())
  const method = init?.method ?? 'GET'
  const signal = init?.signal ?? undefined
  const host = target.hostname.replace(/^\[(.+)\]$/, '$1')
  const port = Number(target.port || (secure ? 443 : 80))
  let request: ClientRequest
  if (proxy === undefined || !secure) {
    const via = proxy === undefined ? undefined : new URL(proxy.url)
    const send = (via ?? target).protocol === 'https:' ? httpsRequest : httpRequest
    request = send({
      host: via === undefined ? host : via.hostname.replace(/^\[(.+)\]$/, '$1'),
      port: via === undefined ? port : Number(via.port || (via.protocol === 'https:' ? 443 : 80)),
      path: via === undefined ? `${target.pathname}${target.search}` : target.href,
      method,
      headers: { ...headers, host: target.host, ...(via === undefined ? {} : proxyAuthorization(via)) },
      ca: [...ca],
      ...(signal === undefined ? {} : { signal }),
    })
  } else {
    const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`
    const tunnel = await openTunnel(proxy, authority, ca, () => undefined)
    request = httpsRequest({
      host,
      port,
      path: `${target.pathname}${target.search}`,
      method,
      headers: { ...headers, host: target.host },
      ca: [...ca],
      ...(isIP(host) === 0 ? { servername: host } : {}),
      createConnection: () =>
        // `host` is the name the certificate is checked against (the default would be localhost).
        tlsConnect({ socket: tunnel, host, ca: [...ca], ...(isIP(host) === 0 ? { servername: host } : {}) }),
      ...(signal === undefined ? {} : { signal }),
    })
  }
  return new Promise<Response>((resolve, reject) => {
    request.once('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0
      const bodiless = status === 204 || status === 304 || method === 'HEAD'
      if (bodiless) response.resume()
      const responseHeaders = new Headers()
      for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) {
        responseHeaders.append(response.rawHeaders[index] ?? '', response.rawHeaders[index + 1] ?? '')
      }
      resolve(
        new Response(bodiless ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
          status,
          statusText: response.statusMessage ?? '',
          headers: responseHeaders,
        }),
      )
    })
    request.once('error', reject)
    request.end()
  })
}

function isAborted(signal: AbortSignal | null | undefined): boolean {
  return signal?.aborted === true
}

/** The Proxy-Authorization header for a proxy URL's user name and password, if it has them. */
function proxyAuthorization(url: URL): Record<string, string> {
  if (url.username === '') return {}
  const user = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  return { 'proxy-authorization': `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` }
}

/** The failure with what this adapter knows: the proxy's part in it, the certificate it was shown. */
async function explainFailure(
  error: unknown,
  url: string,
  proxy: ProxyEndpoint | undefined,
  ca: readonly string[],
): Promise<unknown> {
  const reason = networkFailureReason(error)
  if (reason === undefined) return error
  const concerns = networkFailureConcerns(reason)
  const target = new URL(url)
  if (concerns === 'certificate' && target.protocol === 'https:') {
    const seen = await tlsHandshake(target, proxy, { ca }).catch(() => undefined)
    return certificateFailure(reason, target, proxy, seen?.peer, { cause: error })
  }
  let facts: NetworkFailureFacts = {}
  if (proxy !== undefined) {
    // Through a proxy this client connects to the proxy alone: a DNS or TCP failure is the proxy's.
    facts =
      concerns === 'connect' || concerns === 'proxy'
        ? { proxy: proxy.label, proxyAuthRefused: proxy.hasCredentials }
        : { proxy: proxy.label, host: hostPortOf(target) }
  }
  if (reason !== 'proxy-407') facts = withoutAuthFact(facts)
  return new NetworkFailureError(reason, facts, { cause: error })
}

/**
 * A refused certificate as a NetworkFailureError `classifyNetworkFailure` words: the reason (an OpenSSL code such
 * as UNABLE_TO_VERIFY_LEAF_SIGNATURE or CERT_HAS_EXPIRED, or ERR_TLS_CERT_ALTNAME_INVALID), the certificate `peer`
 * presented when it was seen, and through a proxy the proxy and the service's host:port (the certificate is the
 * service's, or an inspecting proxy's in its place). A failed request and `cli check`'s TLS step both build it
 * here, so both say the same words.
 */
export function certificateFailure(
  reason: string,
  target: URL,
  proxy: ProxyEndpoint | undefined,
  peer: PeerCertificate | undefined,
  options: { cause?: unknown } = {},
): NetworkFailureError {
  const facts: NetworkFailureFacts = {
    ...(proxy === undefined ? {} : { proxy: proxy.label, host: hostPortOf(target) }),
    ...(peer === undefined || peer.subject === undefined ? {} : { certificate: certificateSeen(peer) }),
  }
  return new NetworkFailureError(reason, facts, options)
}

function hostPortOf(target: URL): string {
  return `${target.hostname}:${target.port || (target.protocol === 'https:' ? '443' : '80')}`
}

function withoutAuthFact(facts: NetworkFailureFacts): NetworkFailureFacts {
  const { proxyAuthRefused: _unused, ...rest } = facts
  return rest
}

/** A TLS handshake as far as it got: the chain presented and whether the trust set accepted it. */
export interface TlsHandshake {
  /** The leaf, with its issuers linked (`issuerCertificate`) as far as the server sent them. */
  readonly peer: DetailedPeerCertificate
  /** Undefined when trusted; else the reason (an OpenSSL code, or ERR_TLS_CERT_ALTNAME_INVALID for a name mismatch). */
  readonly refusal: string | undefined
  /** "TLSv1.3", when known. */
  readonly protocol: string | undefined
}

/**
 * A TLS handshake with the service at `target` that reads its chain and sends nothing: direct, or through the
 * proxy's CONNECT tunnel when requests go through one (so the chain is the one an inspecting proxy presents),
 * checked against `ca` (the fetch's trust set, `NodeFetch.trust`) and the target's host name, but never refused,
 * so an untrusted chain is seen too. Rejects with a NetworkFailureError when no chain was seen: the proxy refused
 * the tunnel (a 407 says whether credentials were sent) or could not be reached (the proxy's), no answer within
 * `timeoutMs` (ETIMEDOUT), or the connection failed (Node's error, concerning the target).
 */
export async function tlsHandshake(
  target: URL,
  proxy: ProxyEndpoint | undefined,
  options: { readonly ca?: readonly string[]; readonly timeoutMs?: number } = {},
): Promise<TlsHandshake> {
  const timeoutMs = options.timeoutMs ?? CERTIFICATE_PROBE_TIMEOUT_MS
  const host = target.hostname.replace(/^\[(.+)\]$/, '$1')
  const port = Number(target.port || 443)
  const servername = isIP(host) === 0 ? host : undefined
  let tunnel: ClientRequest | undefined
  let socket: TLSSocket | undefined
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    tunnel?.destroy()
    socket?.destroy()
  }, timeoutMs)
  const timeout = (): NetworkFailureError =>
    new NetworkFailureError(
      'ETIMEDOUT',
      proxy === undefined ? {} : { proxy: proxy.label, host: hostPortOf(target) },
    )
  try {
    const raw =
      proxy === undefined
        ? undefined
        : await openTunnel(proxy, `${host.includes(':') ? `[${host}]` : host}:${port}`, options.ca, (req) => {
            tunnel = req
          }).catch((error: unknown) => {
            throw timedOut ? timeout() : error
          })
    return await new Promise<TlsHandshake>((resolve, reject) => {
      const tls = tlsConnect({
        ...(raw === undefined ? { host, port } : { socket: raw }),
        ...(servername === undefined ? {} : { servername }),
        ...(options.ca === undefined ? {} : { ca: [...options.ca] }),
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1'],
      })
      socket = tls
      tls.once('secureConnect', () => {
        const peer = tls.getPeerCertificate(true)
        const refusal = tls.authorized ? undefined : String(tls.authorizationError ?? 'CERT_UNTRUSTED')
        resolve({ peer, refusal, protocol: tls.getProtocol() ?? undefined })
        tls.destroy()
      })
      tls.once('error', (error) => reject(timedOut ? timeout() : error))
      tls.once('close', () => reject(timedOut ? timeout() : new NetworkFailureError('ECONNRESET', {})))
    })
  } finally {
    clearTimeout(timer)
    socket?.destroy()
  }
}

/**
 * Opens a CONNECT tunnel through the proxy (with its credentials, when it has some) and gives its socket. A
 * refusal is a NetworkFailureError `proxy-<status>` (407: whether credentials were sent); a failure to reach the
 * proxy is the proxy's (its label, no host).
 */
function openTunnel(
  proxy: ProxyEndpoint,
  authority: string,
  ca: readonly string[] | undefined,
  started: (request: ClientRequest) => void,
): Promise<Socket> {
  const url = new URL(proxy.url)
  const headers: Record<string, string> = { host: authority, ...proxyAuthorization(url) }
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
    host: url.hostname.replace(/^\[(.+)\]$/, '$1'),
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    method: 'CONNECT',
    path: authority,
    headers,
    ...(url.protocol === 'https:' && ca !== undefined ? { ca: [...ca] } : {}),
  })
  started(request)
  return new Promise((resolve, reject) => {
    request.once('connect', (response: IncomingMessage, socket: Socket) => {
      const status = response.statusCode ?? 0
      if (status === 200) {
        resolve(socket)
        return
      }
      socket.destroy()
      reject(
        new NetworkFailureError(`proxy-${status}`, {
          proxy: proxy.label,
          ...(status === 407 ? { proxyAuthRefused: proxy.hasCredentials } : {}),
        }),
      )
    })
    request.once('error', (error: NodeJS.ErrnoException) => {
      reject(new NetworkFailureError(error.code ?? 'ECONNRESET', { proxy: proxy.label }, { cause: error }))
    })
    request.end()
  })
}

/** A certificate as the messages name it: the subject's and the issuer's common name (or organisation). */
function certificateSeen(peer: PeerCertificate): CertificateSeen {
  return {
    subject: distinguishedName(peer.subject),
    issuer: distinguishedName(peer.issuer),
    ...(peer.valid_to === '' ? {} : { validTo: peer.valid_to }),
  }
}

function distinguishedName(name: PeerCertificate['subject'] | undefined): string {
  const first = (value: string | string[] | undefined): string | undefined =>
    Array.isArray(value) ? value[0] : value
  const common = first(name?.CN)
  const organisation = first(name?.O)
  if (common !== undefined && organisation !== undefined && organisation !== common) {
    return `${common} (${organisation})`
  }
  return common ?? organisation ?? 'an unnamed authority'
}
