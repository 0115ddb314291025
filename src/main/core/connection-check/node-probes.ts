import { lookup } from 'node:dns/promises'
import { connect as netConnect, isIP } from 'node:net'
import type { DetailedPeerCertificate } from 'node:tls'
import type { CertificateSummary } from '../../../shared/connection-report'
import { classifyNetworkFailure, NetworkFailureError } from '../net/network-failure'
import { routeFor, type ProxyEndpoint } from '../net/network-options'
import { certificateFailure, tlsHandshake, type NodeFetch } from '../net/node-fetch'
import type { ConnectionProbes, DnsAnswer, TcpAnswer } from './check-inputs'

/** How long one probe (a lookup, a connection, a handshake) may take. */
export const PROBE_TIMEOUT_MS = 15_000

export interface NodeProbeOptions {
  /**
   * The fetch the command reaches the service with (`openCliFetch`): its network choice says which proxy a URL
   * goes through and why, its trust set is what the TLS step checks the chain against. Nothing is decided here.
   */
  readonly net: Pick<NodeFetch, 'network' | 'trust'>
  readonly timeoutMs?: number
}

/**
 * The command line's view of the network, with Node's own modules and the network layer (core/net): the route
 * `routeFor` gives (the proxy, or direct and why), `dns.lookup` (what a connection uses), a TCP connection opened
 * and closed, and `tlsHandshake` checked against the fetch's trust set, through the proxy's CONNECT tunnel when
 * one is in use, so the chain seen is the one an inspecting proxy presents. A refused chain is worded by
 * `certificateFailure` and the one classifier, as a failed sync says it. The handshake never sends a request.
 */
export function nodeProbes(options: NodeProbeOptions): ConnectionProbes {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS
  const { network, trust } = options.net
  // The proxies the proxy step named, by the address the report shows: the tunnel needs their credentials.
  const proxies = new Map<string, ProxyEndpoint>()
  return {
    runtime: 'cli',
    proxy: async (url) => {
      const route = routeFor(network, url)
      if (route.kind === 'direct') return { kind: 'direct', source: route.why }
      proxies.set(route.proxy.address, route.proxy)
      return { kind: 'proxy', url: route.proxy.address, source: route.proxy.origin }
    },
    dns: (host) => dnsProbe(host, timeoutMs),
    tcp: (host, port) => tcpProbe(host, port, timeoutMs),
    tls: async (host, port, route) => {
      const proxy = route.kind === 'proxy' ? proxies.get(route.url) : undefined
      if (route.kind === 'proxy' && proxy === undefined) throw new RangeError(`unknown proxy ${route.url}`)
      const target = new URL(`https://${host.includes(':') ? `[${host}]` : host}:${port}`)
      const seen = await tlsHandshake(target, proxy, { ca: trust.certificates, timeoutMs })
      const certificates = chainOf(seen.peer)
      const problem =
        seen.refusal === undefined
          ? undefined
          : classifyNetworkFailure(certificateFailure(seen.refusal, target, proxy, seen.peer), {
              what: 'the payroll service',
              url: target.href,
            })
      return {
        certificates,
        trusted: problem === undefined,
        trustSet: trust.words,
        ...(seen.protocol === undefined ? {} : { protocol: seen.protocol }),
        ...(problem === undefined ? {} : { problem }),
      }
    },
  }
}

/** The name looked up as a connection would; no answer in time is the name service not answering (EAI_AGAIN). */
async function dnsProbe(host: string, timeoutMs: number): Promise<DnsAnswer> {
  if (isIP(host) !== 0) return { addresses: [host] }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NetworkFailureError('EAI_AGAIN', {})), timeoutMs)
  })
  try {
    const found = await Promise.race([lookup(host, { all: true }), timeout])
    return { addresses: found.map((entry) => entry.address) }
  } finally {
    clearTimeout(timer)
  }
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<TcpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port })
    socket.setTimeout(timeoutMs, () => {
      socket.destroy()
      reject(new NetworkFailureError('ETIMEDOUT', {}))
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
