import { X509Certificate } from 'node:crypto'
import { isIP } from 'node:net'
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
const MAX_CHAIN = 10

/**
 * The core process's certificate decisions, made in main by its session's verify proc: Chromium's verdict
 * stands, except that a chain Chromium refused only for its authority is accepted when it is issued by one of
 * the profile's extra trusted certificates (the link verified with node:crypto's checkIssued and verify, the leaf
 * for this host and every certificate within its dates). It remembers, per host, the chain it last saw and the
 * issuer of a chain it let Chromium refuse, so the core's error and the connection check can name them.
 */
export class CertificateTrust {
  #extra: readonly X509Certificate[] = []
  readonly #seen = new Map<string, readonly CertificateSummary[]>()
  readonly #refused = new Map<string, RefusedCertificate>()

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** The certificates trusted besides the OS's store (the profile's file); [] for none. */
  setExtra(certificates: readonly X509Certificate[]): void {
    this.#extra = [...certificates]
  }

  get extraCount(): number {
    return this.#extra.length
  }

  /** The verify proc: answers `callback` once with ACCEPT_CERTIFICATE or CHROMIUM_VERDICT. */
  verify(request: VerifyRequest, callback: (verificationResult: number) => void): void {
    const chain = chainOf(request.certificate)
    const host = request.hostname.toLowerCase()
    this.#seen.set(host, chain.map(summaryOf))
    if (request.errorCode === 0) {
      this.#refused.delete(host)
      callback(CHROMIUM_VERDICT)
      return
    }
    if (request.errorCode === CERT_AUTHORITY_INVALID && this.issuedByExtra(chain, host)) {
      this.#refused.delete(host)
      callback(ACCEPT_CERTIFICATE)
      return
    }
    const top = chain.at(-1) ?? request.certificate
    this.#refused.set(host, {
      subject: request.certificate.subjectName,
      issuer: top.issuerName || top.subjectName || 'an unnamed issuer',
      validTo: new Date(request.certificate.validExpiry * 1000).toISOString(),
      verificationResult: request.verificationResult,
    })
    callback(CHROMIUM_VERDICT)
  }

  /** The issuer of the chain last refused for `host` (host name, any port), or undefined. */
  refused(host: string): RefusedCertificate | undefined {
    return this.#refused.get(hostNameOf(host))
  }

  /** The chain last presented for `host`, leaf first, or undefined when none was seen. */
  seen(host: string): readonly CertificateSummary[] | undefined {
    return this.#seen.get(hostNameOf(host))
  }

  private issuedByExtra(chain: readonly PresentedCertificate[], host: string): boolean {
    if (this.#extra.length === 0 || chain.length === 0) return false
    let parsed: X509Certificate[]
    try {
      parsed = chain.map((certificate) => new X509Certificate(certificate.data))
    } catch {
      return false
    }
    const [leaf] = parsed
    if (leaf === undefined) return false
    if ((isIP(host) === 0 ? leaf.checkHost(host) : leaf.checkIP(host)) === undefined) return false
    const now = this.now().getTime()
    const current = (certificate: X509Certificate) =>
      Date.parse(certificate.validFrom) <= now && now <= Date.parse(certificate.validTo)
    for (let index = 0; index < parsed.length; index++) {
      const certificate = parsed[index] as X509Certificate
      if (!current(certificate)) return false
      const anchor = this.#extra.find(
        (extra) =>
          extra.fingerprint256 === certificate.fingerprint256 ||
          (certificate.checkIssued(extra) && certificate.verify(extra.publicKey) && current(extra)),
      )
      if (anchor !== undefined) return true
      const issuer = parsed[index + 1]
      if (issuer === undefined || !certificate.checkIssued(issuer) || !certificate.verify(issuer.publicKey))
        return false
    }
    return false
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
