import { createHash, X509Certificate } from 'node:crypto'
import { checkServerIdentity, type DetailedPeerCertificate, type TLSSocket } from 'node:tls'

/**
 * The stand-in's certificate verification, as Electron's network service does it for a session (electron
 * 45.4.1): Chromium verifies the chain first (here: Node's OpenSSL against its default CA list, the stand-in's
 * "OS store", and the host name), then the session's verify proc, when one is set, is asked with Chromium's
 * verdict (shell/browser/net/cert_verifier_client.cc, `CertVerifierClient::Verify`: hostname, the certificate
 * as presented, the validated one, isIssuedByKnownRoot, `net::ErrorToString` of the error and its code; the
 * object: shell/common/gin_converters/net_converter.cc, `Converter<electron::VerifyRequestParams>::ToV8`), and
 * its answer decides (patches/chromium/network_service_allow_remote_certificate_verification_logic.patch,
 * `RemoteCertVerifier::Request::OnRemoteResponse`: -3, net::ERR_ABORTED, keeps Chromium's verdict; any other
 * code is the result, 0 accepting). Not modelled: Chromium's CachingCertVerifier, which keeps a verdict for a
 * (chain, host) for a while, so a real session may not ask again (spec/api-session-spec.ts, "saves cached
 * results").
 */
export interface StandInVerifyRequest {
  readonly hostname: string
  readonly certificate: StandInCertificate
  readonly validatedCertificate: StandInCertificate
  readonly isIssuedByKnownRoot: boolean
  readonly verificationResult: string
  readonly errorCode: number
}

/** Electron's Certificate (docs/api/structures/certificate.md; net_converter.cc, X509Certificate's ToV8). */
export interface StandInCertificate {
  readonly data: string
  readonly issuer: { readonly commonName: string }
  readonly issuerName: string
  readonly subject: { readonly commonName: string }
  readonly subjectName: string
  readonly serialNumber: string
  readonly validStart: number
  readonly validExpiry: number
  readonly fingerprint: string
  readonly issuerCert?: StandInCertificate
}

/** Chromium's net error names for the codes certificates meet (net/base/net_error_list.h). */
const NET_ERRORS: Record<number, string> = {
  0: 'net::OK',
  [-2]: 'net::ERR_FAILED',
  [-3]: 'net::ERR_ABORTED',
  [-200]: 'net::ERR_CERT_COMMON_NAME_INVALID',
  [-201]: 'net::ERR_CERT_DATE_INVALID',
  [-202]: 'net::ERR_CERT_AUTHORITY_INVALID',
  [-207]: 'net::ERR_CERT_INVALID',
}

export function netErrorName(code: number): string {
  return NET_ERRORS[code] ?? 'net::ERR_FAILED'
}

const UNKNOWN_AUTHORITY = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
])

/**
 * Chromium's verdict on a finished handshake, as MapCertStatusToNetError ranks a chain's faults
 * (net/cert/cert_status_flags.cc): an unknown authority before a wrong name before a date.
 */
function chromiumVerdict(socket: TLSSocket, hostname: string, peer: DetailedPeerCertificate): number {
  const error = socket.authorized ? undefined : String(socket.authorizationError ?? 'CERT_UNTRUSTED')
  if (error !== undefined && UNKNOWN_AUTHORITY.has(error)) return -202
  if (checkServerIdentity(hostname, peer) !== undefined) return -200
  if (error === 'CERT_HAS_EXPIRED' || error === 'CERT_NOT_YET_VALID') return -201
  return error === undefined ? 0 : -207
}

/** The presented chain, leaf first, as Electron's Certificate with each issuer the server sent as `issuerCert`. */
function electronCertificate(peer: DetailedPeerCertificate): StandInCertificate {
  const chain: DetailedPeerCertificate[] = []
  for (let at: DetailedPeerCertificate | undefined = peer; at?.raw !== undefined && chain.length < 10;) {
    if (chain.some((seen) => seen.raw.equals(at!.raw))) break
    chain.push(at)
    at = at.issuerCertificate
  }
  let issuerCert: StandInCertificate | undefined
  for (const certificate of chain.reverse()) issuerCert = converted(certificate, issuerCert)
  return issuerCert as StandInCertificate
}

function converted(
  peer: DetailedPeerCertificate,
  issuerCert: StandInCertificate | undefined,
): StandInCertificate {
  const x509 = new X509Certificate(peer.raw)
  const commonName = (name: string) => /^CN=(.*)$/m.exec(name)?.[1] ?? ''
  return {
    data: x509.toString(),
    issuer: { commonName: commonName(x509.issuer) },
    issuerName: commonName(x509.issuer),
    subject: { commonName: commonName(x509.subject) },
    subjectName: commonName(x509.subject),
    serialNumber: x509.serialNumber,
    validStart: Date.parse(x509.validFrom) / 1000,
    validExpiry: Date.parse(x509.validTo) / 1000,
    fingerprint: `sha256/${createHash('sha256').update(peer.raw).digest('base64')}`,
    ...(issuerCert === undefined ? {} : { issuerCert }),
  }
}

/**
 * Verifies a finished handshake with `hostname` as Electron's network service does (see above): undefined when
 * the connection may carry the request, else the net error its request fails with.
 */
export async function verifyHandshake(
  socket: TLSSocket,
  hostname: string,
  verifyProc: ((request: StandInVerifyRequest) => Promise<number>) | undefined,
): Promise<string | undefined> {
  const peer = socket.getPeerCertificate(true)
  const errorCode = chromiumVerdict(socket, hostname, peer)
  let result = errorCode
  if (verifyProc !== undefined) {
    const certificate = electronCertificate(peer)
    const answer = await verifyProc({
      hostname,
      certificate,
      validatedCertificate: certificate,
      isIssuedByKnownRoot: socket.authorized,
      verificationResult: netErrorName(errorCode),
      errorCode,
    })
    result = answer === -3 ? errorCode : answer
  }
  return result === 0 ? undefined : netErrorName(result)
}
