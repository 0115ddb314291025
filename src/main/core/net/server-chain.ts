import type { X509Certificate } from 'node:crypto'
import { isIP } from 'node:net'
import { extensionsOf, OID, type CertificateExtensions } from './x509-extensions'

/** Why a chain is refused; `message` says it in words IT can act on. */
export type ChainRefusal =
  | 'unreadable'
  | 'untrusted'
  | 'too-long'
  | 'signature'
  | 'not-yet-valid'
  | 'expired'
  | 'not-a-ca'
  | 'no-cert-sign'
  | 'path-length'
  | 'purpose'
  | 'name-constraints'
  | 'critical-extension'
  | 'host'

export type ChainVerdict =
  { readonly ok: true } | { readonly ok: false; readonly reason: ChainRefusal; readonly message: string }

/** The longest path built (leaf, intermediates, root), as a hostile chain cannot make it loop. */
export const MAX_PATH = 10

/**
 * The extensions a chain may mark critical (RFC 5280 §6.1.4 (o): an unrecognised critical extension fails the
 * path). Certificate policies are recognised and need no processing with RFC 5280's defaults (initial policy set
 * any-policy, no explicit policy required), which policyConstraints, policyMappings and inhibitAnyPolicy
 * could change, so they are not on this list.
 */
const RECOGNISED = new Set([
  OID.basicConstraints,
  OID.keyUsage,
  OID.extendedKeyUsage,
  '2.5.29.17', // subjectAltName
  '2.5.29.18', // issuerAltName
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.32', // certificatePolicies
  '2.5.29.31', // cRLDistributionPoints
  '1.3.6.1.5.5.7.1.1', // authorityInfoAccess
])

/**
 * Whether a TLS server's chain (`presented`, leaf first, as the server sent it) leads to a root certificate in
 * `anchors` (the extra certificates file) and is fit for `host` at `now`. The path is built as OpenSSL builds it
 * without partial chains (what `openssl verify -CAfile` and Node's `tls` with `ca` do): from the leaf, issuer by
 * issuer (subject name matching the issuer name, the signature verified with the issuer's key; certificates of
 * the file may serve as intermediates), until a self-signed certificate of the file. Then RFC 5280 §6.1 with the
 * TLS server purpose, each rule refusing with a message naming the certificate:
 *
 * - every certificate within its validity (§6.1.3 (a)(2)) and signed by the next (§6.1.3 (a)(1));
 * - every issuer, the root too, a CA: basic constraints with cA TRUE (§6.1.4 (k), §4.2.1.9), its key usage, when
 *   present, with keyCertSign (§6.1.4 (n)), and its path length constraint not exceeded by the non-self-issued
 *   intermediates below it (§6.1.4 (l), (m));
 * - extended key usage (§4.2.1.12): the leaf's, and any issuer's that has one, absent or with serverAuth or
 *   anyExtendedKeyUsage (OpenSSL's sslserver purpose and Chromium's both hold issuers to it); the leaf's key
 *   usage, when present, with digitalSignature, keyEncipherment or keyAgreement (OpenSSL's KU_TLS);
 * - no unrecognised critical extension (§6.1.4 (o));
 * - name constraints (§6.1.4 (g)) are NOT evaluated here: a path through a certificate that carries them is
 *   refused rather than accepted unchecked;
 * - the leaf names `host` in its subject alternative names (RFC 6125; as Chromium, never the subject's CN).
 */
export function verifyServerChain(input: {
  readonly presented: readonly X509Certificate[]
  readonly anchors: readonly X509Certificate[]
  readonly host: string
  readonly now: Date
}): ChainVerdict {
  const { anchors, host, now } = input
  const leaf = input.presented[0]
  if (leaf === undefined) return refuse('unreadable', 'The server presented no certificate.')
  const built = buildPath(leaf, [...input.presented.slice(1), ...anchors], anchors)
  if (!built.ok) return built
  const path = built.path
  let extensions: CertificateExtensions[]
  try {
    extensions = path.map(extensionsOf)
  } catch {
    return refuse('unreadable', 'A certificate of the chain cannot be read.')
  }
  for (let index = 0; index < path.length; index++) {
    const certificate = path[index] as X509Certificate
    const own = extensions[index] as CertificateExtensions
    const dated = checkDates(certificate, now)
    if (!dated.ok) return dated
    const critical = own.all.find(
      (extension) =>
        extension.critical && !RECOGNISED.has(extension.oid) && extension.oid !== OID.nameConstraints,
    )
    if (critical !== undefined)
      return refuse(
        'critical-extension',
        `“${nameOf(certificate)}” has a critical extension RosterDesk does not know (${critical.oid}).`,
      )
    const purpose = own.extendedKeyUsage
    if (
      purpose !== undefined &&
      !purpose.includes(OID.serverAuth) &&
      !purpose.includes(OID.anyExtendedKeyUsage)
    )
      return refuse(
        'purpose',
        index === 0
          ? `“${nameOf(certificate)}” is not for TLS servers (its extended key usage lacks serverAuth).`
          : `“${nameOf(certificate)}” may not issue certificates for TLS servers (its extended key usage lacks serverAuth).`,
      )
    if (index === 0) {
      const usage = own.keyUsage
      if (
        usage !== undefined &&
        !usage.has('digitalSignature') &&
        !usage.has('keyEncipherment') &&
        !usage.has('keyAgreement')
      )
        return refuse(
          'purpose',
          `“${nameOf(certificate)}” is not for TLS (its key usage allows no TLS key exchange).`,
        )
      continue
    }
    const issuedName = nameOf(path[index - 1] as X509Certificate)
    const issuer = checkIssuer(certificate, own, issuedName, intermediatesBelow(path, index))
    if (!issuer.ok) return issuer
  }
  const named = isIP(host) === 0 ? leaf.checkHost(host, { subject: 'never' }) : leaf.checkIP(host)
  if (named === undefined)
    return refuse(
      'host',
      `“${nameOf(leaf)}” is not a certificate for ${host} (its alternative names do not name it).`,
    )
  return { ok: true }
}

function refuse(reason: ChainRefusal, message: string): ChainVerdict & { ok: false } {
  return { ok: false, reason, message }
}

function buildPath(
  leaf: X509Certificate,
  pool: readonly X509Certificate[],
  anchors: readonly X509Certificate[],
): { ok: true; path: X509Certificate[] } | (ChainVerdict & { ok: false }) {
  const path = [leaf]
  const inPath = new Set([leaf.fingerprint256])
  const isAnchor = (certificate: X509Certificate) =>
    anchors.some((anchor) => anchor.fingerprint256 === certificate.fingerprint256)
  for (;;) {
    const current = path.at(-1) as X509Certificate
    if (isAnchor(current) && selfSigned(current)) return { ok: true, path }
    if (path.length >= MAX_PATH)
      return refuse('too-long', `The chain is longer than ${MAX_PATH} certificates; it is not trusted.`)
    const issuer =
      pool.find(
        (candidate) =>
          isAnchor(candidate) && !inPath.has(candidate.fingerprint256) && signed(current, candidate),
      ) ?? pool.find((candidate) => !inPath.has(candidate.fingerprint256) && signed(current, candidate))
    if (issuer === undefined) {
      if (selfSigned(current))
        return refuse(
          'untrusted',
          `The chain ends at “${nameOf(current)}”, which is not in the extra certificates file.`,
        )
      return refuse(
        'untrusted',
        isAnchor(current)
          ? `The extra certificates file holds “${nameOf(current)}” but not the root certificate that issued it.`
          : `“${nameOf(current)}” was not issued by a certificate in the extra certificates file.`,
      )
    }
    path.push(issuer)
    inPath.add(issuer.fingerprint256)
  }
}

/** `subject` names `issuer` as its issuer and `issuer`'s key verifies its signature. */
function signed(subject: X509Certificate, issuer: X509Certificate): boolean {
  if (subject.issuer !== issuer.subject) return false
  try {
    return subject.verify(issuer.publicKey)
  } catch {
    return false
  }
}

function selfSigned(certificate: X509Certificate): boolean {
  return signed(certificate, certificate)
}

function checkDates(certificate: X509Certificate, now: Date): ChainVerdict {
  const from = Date.parse(certificate.validFrom)
  const to = Date.parse(certificate.validTo)
  if (now.getTime() < from)
    return refuse(
      'not-yet-valid',
      `“${nameOf(certificate)}” is not valid until ${new Date(from).toISOString()}.`,
    )
  if (now.getTime() > to)
    return refuse('expired', `“${nameOf(certificate)}” expired on ${new Date(to).toISOString()}.`)
  return { ok: true }
}

/** The non-self-issued intermediates between the leaf and path[index] (§6.1.4 (l): self-issued ones do not count). */
function intermediatesBelow(path: readonly X509Certificate[], index: number): number {
  return path.slice(1, index).filter((certificate) => certificate.subject !== certificate.issuer).length
}

function checkIssuer(
  certificate: X509Certificate,
  own: CertificateExtensions,
  issuedName: string,
  below: number,
): ChainVerdict {
  const name = nameOf(certificate)
  if (own.basicConstraints?.ca !== true)
    return refuse(
      'not-a-ca',
      `“${name}” issued “${issuedName}” but is not a certificate authority (its basic constraints do not say CA:TRUE).`,
    )
  if (own.keyUsage !== undefined && !own.keyUsage.has('keyCertSign'))
    return refuse(
      'no-cert-sign',
      `“${name}” issued “${issuedName}” but its key usage does not allow signing certificates.`,
    )
  const limit = own.basicConstraints.pathLength
  if (limit !== undefined && below > limit)
    return refuse(
      'path-length',
      `“${name}” allows ${limit} intermediate certificate${limit === 1 ? '' : 's'} below it, and the chain has ${below}.`,
    )
  if (own.all.some((extension) => extension.oid === OID.nameConstraints))
    return refuse(
      'name-constraints',
      `“${name}” carries name constraints, which RosterDesk does not check, so it does not trust a chain through it. Install that certificate in the computer's certificate store instead.`,
    )
  return { ok: true }
}

/** A certificate as messages name it: its subject's common name, else its whole subject. */
export function nameOf(certificate: X509Certificate): string {
  const common = /^CN=(.+)$/m.exec(certificate.subject)?.[1]
  return common ?? certificate.subject.replace(/\n/g, ', ')
}
