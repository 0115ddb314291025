import { X509Certificate } from 'node:crypto'
import { MAX_PATH, verifyServerChain } from '../../core/net/server-chain'
import type { CertificateSummary } from '../../../shared/connection-report'
import type { RefusedCertificate } from '../../core-host/process/electron-net-fetch'

/**
 * Electron's Certificate as a session's verify proc receives it (electron 45.4.1,
 * docs/api/structures/certificate.md): PEM `data`, names, and the issuer's certificate as presented, up the chain.
 */
export interface PresentedCertificate {
  readonly data: string
  readonly issuerName: string
  readonly subjectName: string
  readonly validStart: number
  readonly validExpiry: number
  readonly fingerprint: string
  readonly issuerCert?: PresentedCertificate
}

/** The request of `ses.setCertificateVerifyProc` (docs/api/session.md, electron 45.4.1). */
export interface VerifyRequest {
  readonly hostname: string
  readonly certificate: PresentedCertificate
  /** 'OK', or Chromium's error such as 'net::ERR_CERT_AUTHORITY_INVALID'. */
  readonly verificationResult: string
  /** Chromium's net error code: 0 when trusted, -202 for an unknown authority (net/base/net_error_list.h). */
  readonly errorCode: number
}

/** The verify proc's answers (docs/api/session.md): 0 accepts, -3 keeps Chromium's own verdict. */
export const ACCEPT_CERTIFICATE = 0
export const CHROMIUM_VERDICT = -3
/** net::ERR_CERT_AUTHORITY_INVALID: the chain leads to no root Chromium trusts (net/base/net_error_list.h). */
export const CERT_AUTHORITY_INVALID = -202

/** The longest chain walked (a loop in issuerCert, or a hostile chain, stops here). */
const MAX_CHAIN = MAX_PATH

/**
 * Which hosts a session lets the extra certificates vouch for: the core's session, the profile's service host
 * and the HTTPS proxy on the way to it (an inspecting proxy re-signs the service's certificate, which then still
 * names the service host; an HTTPS proxy's own certificate names the proxy); a follower (the updater's), the
 * proxy only, so the update feed's certificate is never one the file vouches for.
 */
export type TrustUse = 'service' | 'proxy-only'

export interface CertificateTrustOptions {
  readonly now?: () => Date
  /** The profile's service host name (lower case, no port), or undefined (Demo, none set): nothing trusted. */
  readonly serviceHost: () => string | undefined
  /** The HTTPS proxies' host names on the route to the service, as Chromium resolves it now. */
  readonly proxyHosts?: () => Promise<readonly string[]>
}

/**
 * The core process's certificate decisions, made in main by its session's verify proc (called by Chromium after
 * its own verification: Electron's cert_verifier_client.cc): Chromium's verdict stands, except that a chain
 * Chromium refused only for its authority is accepted when it leads to a root of the profile's extra
 * certificates file by the rules of server-chain.ts (RFC 5280 §6.1 with the TLS server purpose) and the host is
 * one the session lets the file vouch for (TrustUse). It remembers, per host, the chain it last saw and why it let
 * Chromium refuse one, so the core's error and the connection check can name them.
 */
export class CertificateTrust {
  #extra: readonly X509Certificate[] = []
  readonly #seen = new Map<string, readonly CertificateSummary[]>()
  readonly #refused = new Map<string, RefusedCertificate>()
  readonly #now: () => Date

  constructor(private readonly options: CertificateTrustOptions) {
    this.#now = options.now ?? (() => new Date())
  }

  /** The certificates trusted besides the OS's store (the profile's file); [] for none. */
  setExtra(certificates: readonly X509Certificate[]): void {
    this.#extra = [...certificates]
  }

  get extraCount(): number {
    return this.#extra.length
  }

  /** The verify proc: answers `callback` once with ACCEPT_CERTIFICATE or CHROMIUM_VERDICT. */
  verify(
    request: VerifyRequest,
    callback: (verificationResult: number) => void,
    use: TrustUse = 'service',
  ): void {
    const chain = chainOf(request.certificate)
    const host = hostNameOf(request.hostname)
    this.#seen.set(host, chain.map(summaryOf))
    if (request.errorCode === 0) {
      this.#refused.delete(host)
      callback(CHROMIUM_VERDICT)
      return
    }
    if (request.errorCode !== CERT_AUTHORITY_INVALID || this.#extra.length === 0) {
      this.#refuse(host, request, chain, undefined)
      callback(CHROMIUM_VERDICT)
      return
    }
    void this.#decide(chain, host, use).then(
      (why) => {
        if (why === undefined) {
          this.#refused.delete(host)
          callback(ACCEPT_CERTIFICATE)
          return
        }
        this.#refuse(host, request, chain, why)
        callback(CHROMIUM_VERDICT)
      },
      // Never left unanswered: Chromium would hold the request until it times out.
      () => {
        this.#refuse(host, request, chain, undefined)
        callback(CHROMIUM_VERDICT)
      },
    )
  }

  /** Undefined when the file vouches for the chain for `host` in this use; else why not. */
  async #decide(
    chain: readonly PresentedCertificate[],
    host: string,
    use: TrustUse,
  ): Promise<string | undefined> {
    return (await this.#vouches(host, use)) ?? this.#check(chain, host)
  }

  /** The issuer of the chain last refused for `host` (host name, any port), or undefined. */
  refused(host: string): RefusedCertificate | undefined {
    return this.#refused.get(hostNameOf(host))
  }

  /** The chain last presented for `host`, leaf first, or undefined when none was seen. */
  seen(host: string): readonly CertificateSummary[] | undefined {
    return this.#seen.get(hostNameOf(host))
  }

  /** Undefined when the file may vouch for `host` in this use; else why not, in words. */
  async #vouches(host: string, use: TrustUse): Promise<string | undefined> {
    const service = this.options.serviceHost()
    if (use === 'service' && service !== undefined && host === hostNameOf(service)) return undefined
    const proxies = (await this.options.proxyHosts?.()) ?? []
    if (proxies.some((proxy) => hostNameOf(proxy) === host)) return undefined
    return use === 'service'
      ? `${host} is not the profile’s service (${service ?? 'none set'}) nor its proxy: the extra certificates file is trusted for those only.`
      : `${host} is not the profile’s proxy: the extra certificates file is never trusted for updates.`
  }

  #check(chain: readonly PresentedCertificate[], host: string): string | undefined {
    let parsed: X509Certificate[]
    try {
      parsed = chain.map((certificate) => new X509Certificate(certificate.data))
    } catch {
      return 'A certificate the server presented cannot be read.'
    }
    const verdict = verifyServerChain({ presented: parsed, anchors: this.#extra, host, now: this.#now() })
    return verdict.ok ? undefined : verdict.message
  }

  #refuse(
    host: string,
    request: VerifyRequest,
    chain: readonly PresentedCertificate[],
    why: string | undefined,
  ): void {
    const top = chain.at(-1) ?? request.certificate
    this.#refused.set(host, {
      subject: request.certificate.subjectName,
      issuer: top.issuerName || top.subjectName || 'an unnamed issuer',
      validTo: new Date(request.certificate.validExpiry * 1000).toISOString(),
      verificationResult: request.verificationResult,
      ...(why === undefined ? {} : { why }),
    })
  }
}

function chainOf(leaf: PresentedCertificate): PresentedCertificate[] {
  const chain: PresentedCertificate[] = []
  for (let at: PresentedCertificate | undefined = leaf; at !== undefined && chain.length < MAX_CHAIN;) {
    chain.push(at)
    at = at.issuerCert
  }
  return chain
}

function summaryOf(certificate: PresentedCertificate): CertificateSummary {
  let fingerprint256 = ''
  try {
    fingerprint256 = new X509Certificate(certificate.data).fingerprint256
  } catch {
    fingerprint256 = certificate.fingerprint.replace(/^sha256\//, '')
  }
  return {
    subject: certificate.subjectName,
    issuer: certificate.issuerName,
    validFrom: new Date(certificate.validStart * 1000).toISOString(),
    validTo: new Date(certificate.validExpiry * 1000).toISOString(),
    fingerprint256,
  }
}

/** "host:443" or "[::1]:443" to the bare, lower-case host name the verify proc is given. */
function hostNameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host)
  if (bracketed) return (bracketed[1] ?? host).toLowerCase()
  const colon = host.lastIndexOf(':')
  return (colon > 0 && host.indexOf(':') === colon ? host.slice(0, colon) : host).toLowerCase()
}

/** The hosts of the HTTPS proxies in a PAC-style route ("HTTPS proxy.corp:443; DIRECT"): TLS peers of their own. */
export function httpsProxyHosts(route: string): string[] {
  return route
    .split(';')
    .map((entry) => /^\s*HTTPS\s+(\S+)\s*$/i.exec(entry)?.[1])
    .filter((hostPort): hostPort is string => hostPort !== undefined)
    .map((hostPort) => {
      const bracketed = /^\[([^\]]+)\]/.exec(hostPort)
      return (bracketed ? (bracketed[1] as string) : hostPort.replace(/:\d+$/, '')).toLowerCase()
    })
}
