import { lookup } from 'node:dns/promises'
import { request as httpRequest } from 'node:http'
import { connect as netConnect, isIP, type Socket } from 'node:net'
import { connect as tlsConnect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls'
import type { CertificateSummary } from '../../../shared/connection-report'
import { RosterDeskError } from '../errors'
import { classifyNetworkFailure, NetworkFailureError } from '../net/network-failure'
import type { ConnectionProbes, DnsAnswer, ProxyRoute, TcpAnswer, TlsAnswer } from './connection-check'

/** How long one probe (a lookup, a connection, a handshake) may take. */
export const PROBE_TIMEOUT_MS = 15_000

/** A proxy route as the CLI resolved it, with the credentials the tunnel needs (never shown). */
export interface NodeProxyRoute {
  readonly route: ProxyRoute
  /** user:password for the proxy's Basic challenge, when known (HTTPS_PROXY's URL, ROSTERDESK_PROXY_*). */
  readonly credentials?: { readonly username: string; readonly password: string }
}

export interface NodeProbeOptions {
  /** Which proxy the URL goes through: the CLI's resolution (flags, environment, profile). */
  readonly resolveProxy: (url: string) => Promise<NodeProxyRoute>
  /** The certificates trusted (PEM): Node's bundled list, the OS store and any --ca-file. */
  readonly trustedCertificates: readonly string[]
  /** That set in words, for the TLS step: "Node's bundled list, the OS store and ca.pem". */
  readonly trustSet: string
  readonly timeoutMs?: number
}

/**
 * The command line's view of the network, with Node's own modules: `dns.lookup` (what a connection uses), a TCP
 * connection opened and closed, and a TLS handshake checked against the CLI's trust set, through the proxy's
 * CONNECT tunnel when one is in use, so the chain seen is the one an inspecting proxy presents. The handshake
 * never sends a request: it ends as soon as the chain is read.
 */
export function nodeProbes(options: NodeProbeOptions): ConnectionProbes {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS
  const routes = new Map<string, NodeProxyRoute>()
  return {
    runtime: 'cli',
    proxy: async (url) => {
      const resolved = await options.resolveProxy(url)
      routes.set(proxyKey(resolved.route), resolved)
      return resolved.route
    },
    dns: (host) => withTimeout(dnsProbe(host), timeoutMs, `looking up ${host}`),
    tcp: (host, port) => tcpProbe(host, port, timeoutMs),
    tls: async (host, port, route) => {
      const socket =
        route.kind === 'proxy'
          ? await tunnel(routes.get(proxyKey(route)) ?? { route }, host, port, timeoutMs)
          : undefined
      return tlsProbe({ host, port, socket, options, timeoutMs })
    },
  }
}

function proxyKey(route: ProxyRoute): string {
  return route.kind === 'proxy' ? route.url : 'direct'
}

async function dnsProbe(host: string): Promise<DnsAnswer> {
  if (isIP(host) !== 0) return { addresses: [host] }
  const found = await lookup(host, { all: true })
  return { addresses: found.map((entry) => entry.address) }
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<TcpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port })
    socket.setTimeout(timeoutMs, () => {
      socket.destroy()
      reject(timeoutError(`connecting to ${host}:${port}`, timeoutMs))
    })
    socket.once('connect', () => {
      const address = `${socket.remoteAddress ?? host}:${socket.remotePort ?? port}`
      socket.destroy()
      resolve({ address })
    })
    socket.once('error', (error) => {
      socket.destroy()
      reject(error)
    })
  })
}

/**
 * A CONNECT tunnel to host:port through the proxy (plain HTTP to the proxy, as HTTPS_PROXY=http://… means): the
 * socket once the proxy answered 200, else a NetworkFailureError the classifier reads as 'proxy-auth' for a 407
 * (credentials missing or refused) or as a refused tunnel.
 */
function tunnel(proxy: NodeProxyRoute, host: string, port: number, timeoutMs: number): Promise<Socket> {
  const { route } = proxy
  if (route.kind !== 'proxy') throw new RangeError('tunnel needs a proxy route')
  const proxyUrl = new URL(route.url)
  const where = `${proxyUrl.hostname}:${proxyUrl.port || (proxyUrl.protocol === 'https:' ? '443' : '80')}`
  const credentials = proxy.credentials ?? credentialsOf(proxyUrl)
  const headers: Record<string, string> = { host: `${host}:${port}` }
  if (credentials !== undefined) {
    const token = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')
    headers['proxy-authorization'] = `Basic ${token}`
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: proxyUrl.hostname,
      port: Number(proxyUrl.port || 80),
      method: 'CONNECT',
      path: `${host}:${port}`,
      headers,
      timeout: timeoutMs,
    })
    req.once('timeout', () => {
      req.destroy()
      reject(timeoutError(`opening a tunnel through the proxy ${where}`, timeoutMs))
    })
    req.once('error', reject)
    req.once('connect', (response, socket) => {
      const status = response.statusCode ?? 0
      if (status === 200) {
        resolve(socket)
        return
      }
      socket.destroy()
      // The one classifier words it: 407 as proxy-auth (refused when credentials were sent), others as a refused tunnel.
      reject(
        new NetworkFailureError(`proxy-${status}`, {
          proxy: route.url,
          ...(status === 407 ? { proxyAuthRefused: credentials !== undefined } : {}),
        }),
      )
    })
    req.end()
  })
}

function credentialsOf(url: URL): NodeProxyRoute['credentials'] {
  if (url.username === '') return undefined
  return { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
}

/** The handshake, checked but never refused, so the chain is read whether or not it is trusted. */
function tlsProbe(args: {
  host: string
  port: number
  socket: Socket | undefined
  options: NodeProbeOptions
  timeoutMs: number
}): Promise<TlsAnswer> {
  const { host, port, socket: through, options, timeoutMs } = args
  return new Promise((resolve, reject) => {
    const socket: TLSSocket = tlsConnect({
      host,
      port,
      ...(through === undefined ? {} : { socket: through }),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      ca: [...options.trustedCertificates],
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(timeoutError(`the secure connection to ${host}:${port}`, timeoutMs))
    }, timeoutMs)
    socket.once('secureConnect', () => {
      clearTimeout(timer)
      const certificates = chainOf(socket.getPeerCertificate(true))
      const protocol = socket.getProtocol() ?? undefined
      const failure = socket.authorized ? undefined : String(socket.authorizationError ?? 'untrusted')
      socket.destroy()
      resolve({
        certificates,
        trusted: failure === undefined,
        trustSet: options.trustSet,
        ...(protocol === undefined ? {} : { protocol }),
        ...(failure === undefined
          ? {}
          : { problem: certificateProblem(failure, certificates, host, port, options.trustSet) }),
      })
    })
    socket.once('error', (error) => {
      clearTimeout(timer)
      socket.destroy()
      reject(error)
    })
  })
}

/** The chain as presented, leaf first, each certificate once (a self-signed root names itself as issuer). */
export function chainOf(leaf: DetailedPeerCertificate): CertificateSummary[] {
  const chain: CertificateSummary[] = []
  const seen = new Set<string>()
  for (let current: DetailedPeerCertificate | undefined = leaf; current?.fingerprint256;) {
    if (seen.has(current.fingerprint256)) break
    seen.add(current.fingerprint256)
    chain.push({
      subject: distinguishedName(current.subject),
      issuer: distinguishedName(current.issuer),
      validFrom: new Date(current.valid_from).toISOString(),
      validTo: new Date(current.valid_to).toISOString(),
      fingerprint256: current.fingerprint256,
    })
    current = current.issuerCertificate
  }
  return chain
}

/** A certificate's name as people read it: "CN=Zscaler Root CA, O=Zscaler Inc., C=US". */
function distinguishedName(
  name: Readonly<Record<string, string | string[] | undefined>> | undefined,
): string {
  if (name === undefined) return '(no name)'
  const order = ['CN', 'OU', 'O', 'L', 'ST', 'C']
  const keys = [
    ...order.filter((key) => key in name),
    ...Object.keys(name).filter((key) => !order.includes(key)),
  ]
  const parts = keys.flatMap((key) => {
    const value = name[key]
    if (value === undefined) return []
    return (Array.isArray(value) ? value : [value]).map((item) => `${key}=${item}`)
  })
  return parts.length === 0 ? '(no name)' : parts.join(', ')
}

/**
 * Node's verification failure (an OpenSSL code, or ERR_TLS_CERT_ALTNAME_INVALID) as the one classifier words it:
 * not trusted, naming the issuer the chain ends with (the root an inspecting proxy signs with), expired, or for
 * another host; then the set it was checked against.
 */
function certificateProblem(
  failure: string,
  chain: readonly CertificateSummary[],
  host: string,
  port: number,
  trustSet: string,
): RosterDeskError {
  const leaf = chain[0]
  const top = chain[chain.length - 1]
  const facts =
    leaf === undefined || top === undefined
      ? {}
      : {
          certificate: {
            subject: leaf.subject,
            issuer: failure === 'ERR_TLS_CERT_ALTNAME_INVALID' ? leaf.issuer : top.issuer,
            validTo: leaf.validTo,
          },
        }
  const classified = classifyNetworkFailure(new NetworkFailureError(failure, facts), {
    what: 'the payroll service',
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
  })
  return new RosterDeskError(classified.code, `${classified.message} (Checked against ${trustSet}.)`, {
    ...(classified.detail === undefined ? {} : { detail: classified.detail }),
  })
}

function timeoutError(what: string, timeoutMs: number): RosterDeskError {
  return new RosterDeskError('timeout', `No answer within ${Math.round(timeoutMs / 1000)} seconds ${what}.`, {
    detail: 'probe timeout',
  })
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(what, timeoutMs)), timeoutMs)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}
