import { X509Certificate } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ACCEPT_CERTIFICATE,
  CERT_AUTHORITY_INVALID,
  CertificateTrust,
  CHROMIUM_VERDICT,
  type PresentedCertificate,
} from '../../../../../src/main/shell/network/certificate-trust'
import { loadExtraCertificates } from '../../../../../src/main/core/settings/network-settings'
import { testCertificates, type TestCertificates } from '../../../../helpers/openssl-certificates'

/**
 * The core process's verify proc: certificates made for the test by Debian's openssl (keys in a temporary
 * folder, removed afterwards; nothing committed), presented in Electron's Certificate shape.
 */

let certs: TestCertificates
const pem = (name: string) => certs.pem(name)

/** A PEM certificate as Electron's verify proc presents it (docs/api/structures/certificate.md). */
function presented(name: string, issuer?: PresentedCertificate): PresentedCertificate {
  const x509 = new X509Certificate(pem(name))
  const cn = (text: string) => /CN=([^\n,]+)/.exec(text)?.[1] ?? ''
  return {
    data: pem(name),
    subjectName: cn(x509.subject),
    issuerName: cn(x509.issuer),
    validStart: Date.parse(x509.validFrom) / 1000,
    validExpiry: Date.parse(x509.validTo) / 1000,
    fingerprint: `sha256/${x509.fingerprint256}`,
    ...(issuer === undefined ? {} : { issuerCert: issuer }),
  }
}

function verify(
  trust: CertificateTrust,
  hostname: string,
  certificate: PresentedCertificate,
  errorCode: number,
) {
  let answer: number | undefined
  trust.verify(
    {
      hostname,
      certificate,
      errorCode,
      verificationResult: errorCode === 0 ? 'OK' : 'net::ERR_CERT_AUTHORITY_INVALID',
    },
    (result) => (answer = result),
  )
  return answer
}

beforeAll(() => {
  certs = testCertificates()
  certs.ca('inspect', 'Zscaler Root CA')
  certs.ca('other', 'Someone Else CA')
  certs.leaf('leaf', 'inspect', 'payroll.example.com')
  certs.leaf('stranger', 'other', 'payroll.example.com')
}, 60_000)

afterAll(() => certs.remove())

describe('CertificateTrust (the core session’s verify proc)', () => {
  it('accepts a chain Chromium refused for its authority when an extra certificate issued it', () => {
    const trust = new CertificateTrust()
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(verify(trust, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      ACCEPT_CERTIFICATE,
    )
    // The inspecting proxy sends its root along: still the extra certificate's chain.
    expect(
      verify(trust, 'payroll.example.com', presented('leaf', presented('inspect')), CERT_AUTHORITY_INVALID),
    ).toBe(ACCEPT_CERTIFICATE)
    expect(trust.refused('payroll.example.com')).toBeUndefined()
  })

  it('refuses others, keeps Chromium’s verdict, and records the refused chain’s issuer per host', () => {
    const trust = new CertificateTrust()
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(verify(trust, 'payroll.example.com', presented('stranger'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    expect(trust.refused('payroll.example.com:443')).toMatchObject({
      subject: 'payroll.example.com',
      issuer: 'Someone Else CA',
      verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID',
    })
    // Issued by the extra certificate, but for another host: not accepted.
    expect(verify(trust, 'other.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    // Without extra certificates nothing is accepted beyond Chromium's own verdict.
    const none = new CertificateTrust()
    expect(verify(none, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    expect(none.refused('payroll.example.com')?.issuer).toBe('Zscaler Root CA')
  })

  it('leaves a chain Chromium trusts to Chromium, and an expired one refused', () => {
    const trust = new CertificateTrust(() => new Date(Date.now() + 60 * 86_400_000))
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(verify(trust, 'payroll.example.com', presented('leaf'), 0)).toBe(CHROMIUM_VERDICT)
    expect(trust.seen('payroll.example.com')?.[0]).toMatchObject({
      subject: 'payroll.example.com',
      issuer: 'Zscaler Root CA',
    })
    // Sixty days on, the leaf (ten days) and the CA (thirty) have expired.
    expect(verify(trust, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
  })

  it('reads the extra certificates file, and says precisely why one cannot be used', () => {
    const bundle = join(certs.dir, 'bundle.pem')
    writeFileSync(bundle, `IT's roots\n${pem('inspect')}\n${pem('other')}`)
    expect(loadExtraCertificates(bundle).map((certificate) => certificate.subject)).toEqual([
      'CN=Zscaler Root CA',
      'CN=Someone Else CA',
    ])
    const empty = join(certs.dir, 'empty.pem')
    writeFileSync(empty, 'not a certificate')
    expect(() => loadExtraCertificates(empty)).toThrow(/holds no certificate in PEM form/)
    expect(() => loadExtraCertificates(join(certs.dir, 'missing.pem'))).toThrow(/does not exist/)
    const broken = join(certs.dir, 'broken.pem')
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')
    expect(() => loadExtraCertificates(broken)).toThrow(/Certificate 1 in the file cannot be read/)
  })
})
