import { readFileSync } from 'node:fs'
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type Socket } from 'node:net'
import { connect as tlsConnect, getCACertificates, type PeerCertificate } from 'node:tls'
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
  /** Closes the connections kept open; the fetch must not be used afterwards. */
  close(): Promise<void>
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
export function readCertificateFile(path: string, what: string, source: NetworkSource = 'flag'): string[] {
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
 * `trustedCertificates` plus the network's extra certificates file. A failure is rethrown as a
 * NetworkFailureError that `classifyNetworkFailure` can word: a 407 says whether credentials were sent, a
 * connection failure through a proxy is the proxy's, and a refused certificate is looked at again (same route,
 * verification off, nothing sent) so the message can name its issuer.
 */
export function createNodeFetch(network: NodeNetwork): NodeFetch {
  const extra =
    network.caFile === undefined
      ? []
      : readCertificateFile(
          network.caFile,
          network.caFileSource === 'flag' ? '--ca-file' : 'The extra certificates file (Settings → Network)',
          network.caFileSource,
        )
  const ca = trustedCertificates(extra)
  const direct = new Agent({ connect: { ca } })
  const proxied = new Map<string, ProxyAgent>()
  const dispatcherFor = (proxy: ProxyEndpoint | undefined): Dispatcher => {
    if (proxy === undefined) return direct
    let agent = proxied.get(proxy.url)
    if (agent === undefined) {
      agent = new ProxyAgent({ uri: proxy.url, requestTls: { ca }, proxyTls: { ca } })
      proxied.set(proxy.url, agent)
    }
    return agent
  }

  const fetch: NodeFetch['fetch'] = async (input, init) => {
    const proxy = proxyFor(network, input)
    try {
      const response = await undiciFetch(input, {
        ...(init as UndiciRequestInit | undefined),
        dispatcher: dispatcherFor(proxy),
      })
      // undici's Response is the WHATWG one Node's own fetch also returns (same streams, same Headers API).
      return response as unknown as Response
    } catch (error) {
      if (init?.signal?.aborted === true) throw error
      throw await explainFailure(error, input, proxy)
    }
  }

  return {
    fetch,
    network,
    close: async () => {
      await Promise.all([direct.close(), ...[...proxied.values()].map((agent) => agent.close())])
    },
  }
}

/** The failure with what this adapter knows: the proxy's part in it, the certificate it was shown. */
async function explainFailure(
  error: unknown,
  url: string,
  proxy: ProxyEndpoint | undefined,
): Promise<unknown> {
  const reason = networkFailureReason(error)
  if (reason === undefined) return error
  const concerns = networkFailureConcerns(reason)
  const target = new URL(url)
  const hostPort = `${target.hostname}:${target.port || (target.protocol === 'https:' ? '443' : '80')}`
  let facts: NetworkFailureFacts = {}
  if (proxy !== undefined) {
    // Through a proxy this client connects to the proxy alone: a DNS or TCP failure is the proxy's.
    facts =
      concerns === 'connect' || concerns === 'proxy'
        ? { proxy: proxy.label, proxyAuthRefused: proxy.hasCredentials }
        : { proxy: proxy.label, host: hostPort }
  }
  if (reason !== 'proxy-407') facts = withoutAuthFact(facts)
  if (concerns === 'certificate' && target.protocol === 'https:') {
    const certificate = await probeCertificate(target, proxy).catch(() => undefined)
    if (certificate !== undefined) facts = { ...facts, certificate }
  }
  return new NetworkFailureError(reason, facts, { cause: error })
}

function withoutAuthFact(facts: NetworkFailureFacts): NetworkFailureFacts {
  const { proxyAuthRefused: _unused, ...rest } = facts
  return rest
}

/**
 * The certificate the service (or whatever answers in its place, such as an inspecting proxy) presents, read on a
 * TLS connection that does not verify it and sends nothing: direct, or through the proxy's CONNECT tunnel when the
 * request went through one. Undefined when the look fails or takes longer than CERTIFICATE_PROBE_TIMEOUT_MS.
 */
export async function probeCertificate(
  target: URL,
  proxy: ProxyEndpoint | undefined,
  timeoutMs = CERTIFICATE_PROBE_TIMEOUT_MS,
): Promise<CertificateSeen | undefined> {
  const host = target.hostname.replace(/^\[(.+)\]$/, '$1')
  const port = Number(target.port || 443)
  const servername = isIP(host) === 0 ? host : undefined
  let tunnel: ClientRequest | undefined
  let socket: Socket | undefined
  const timer = setTimeout(() => {
    tunnel?.destroy()
    socket?.destroy()
  }, timeoutMs)
  try {
    const raw =
      proxy === undefined
        ? undefined
        : await openTunnel(
            proxy,
            `${host.includes(':') ? `[${host}]` : host}:${port}`,
            (req) => (tunnel = req),
          )
    return await new Promise<CertificateSeen | undefined>((resolve, reject) => {
      const tls = tlsConnect({
        ...(raw === undefined ? { host, port } : { socket: raw }),
        ...(servername === undefined ? {} : { servername }),
        rejectUnauthorized: false,
      })
      socket = tls
      tls.once('secureConnect', () => {
        const peer = tls.getPeerCertificate()
        tls.destroy()
        resolve(peer.subject === undefined ? undefined : certificateSeen(peer))
      })
      tls.once('error', reject)
      tls.once('close', () => resolve(undefined))
    })
  } finally {
    clearTimeout(timer)
    socket?.destroy()
  }
}

/** Opens a CONNECT tunnel through the proxy (with its credentials, when it has some) and gives its socket. */
function openTunnel(
  proxy: ProxyEndpoint,
  authority: string,
  started: (request: ClientRequest) => void,
): Promise<Socket> {
  const url = new URL(proxy.url)
  const headers: Record<string, string> = { host: authority }
  if (url.username !== '') {
    const user = decodeURIComponent(url.username)
    const password = decodeURIComponent(url.password)
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
  }
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
    host: url.hostname.replace(/^\[(.+)\]$/, '$1'),
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    method: 'CONNECT',
    path: authority,
    headers,
  })
  started(request)
  return new Promise((resolve, reject) => {
    request.once('connect', (response: IncomingMessage, socket: Socket) => {
      if (response.statusCode === 200) resolve(socket)
      else {
        socket.destroy()
        reject(new Error(`proxy answered ${response.statusCode ?? 0}`))
      }
    })
    request.once('error', reject)
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
