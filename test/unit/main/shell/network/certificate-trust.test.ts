import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ACCEPT_CERTIFICATE,
  CERT_AUTHORITY_INVALID,
  CertificateTrust,
  CHROMIUM_VERDICT,
  httpsProxyHosts,
  type PresentedCertificate,
  type TrustUse,
} from '../../../../../src/main/shell/network/certificate-trust'
import {
  isServiceHostName,
  loadExtraCertificates,
  serviceHostOf,
} from '../../../../../src/main/core/settings/network-settings'
import { DEFAULT_SETTINGS } from '../../../../../src/main/core/settings/settings-defaults'
import type { Settings } from '../../../../../src/shared/settings-schema'
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

/** The verify proc's answer (its callback may be called later, as Electron allows). */
function verify(
  trust: CertificateTrust,
  hostname: string,
  certificate: PresentedCertificate,
  errorCode: number,
  use?: TrustUse,
): Promise<number> {
  return new Promise((resolve) =>
    trust.verify(
      {
        hostname,
        certificate,
        errorCode,
        verificationResult: errorCode === 0 ? 'OK' : 'net::ERR_CERT_AUTHORITY_INVALID',
      },
      resolve,
      use,
    ),
  )
}

const SERVICE = { serviceHost: () => 'payroll.example.com' }

beforeAll(() => {
  certs = testCertificates()
  certs.ca('inspect', 'Zscaler Root CA')
  certs.ca('other', 'Someone Else CA')
  certs.leaf('leaf', 'inspect', 'payroll.example.com')
  certs.leaf('stranger', 'other', 'payroll.example.com')
}, 60_000)

afterAll(() => certs.remove())

describe('CertificateTrust (the core session’s verify proc)', () => {
  it('accepts a chain Chromium refused for its authority when an extra certificate issued it', async () => {
    const trust = new CertificateTrust(SERVICE)
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(await verify(trust, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      ACCEPT_CERTIFICATE,
    )
    // The inspecting proxy sends its root along: still the extra certificate's chain.
    expect(
      await verify(
        trust,
        'payroll.example.com',
        presented('leaf', presented('inspect')),
        CERT_AUTHORITY_INVALID,
      ),
    ).toBe(ACCEPT_CERTIFICATE)
    expect(trust.refused('payroll.example.com')).toBeUndefined()
  })

  it('refuses others, keeps Chromium’s verdict, and records the refused chain’s issuer per host', async () => {
    const trust = new CertificateTrust(SERVICE)
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(await verify(trust, 'payroll.example.com', presented('stranger'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    expect(trust.refused('payroll.example.com:443')).toMatchObject({
      subject: 'payroll.example.com',
      issuer: 'Someone Else CA',
      verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID',
    })
    // Issued by the extra certificate, but for another host: not accepted.
    expect(await verify(trust, 'other.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    // Without extra certificates nothing is accepted beyond Chromium's own verdict.
    const none = new CertificateTrust(SERVICE)
    expect(await verify(none, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    expect(none.refused('payroll.example.com')?.issuer).toBe('Zscaler Root CA')
  })

  it('leaves a chain Chromium trusts to Chromium, and an expired one refused', async () => {
    const trust = new CertificateTrust({ ...SERVICE, now: () => new Date(Date.now() + 60 * 86_400_000) })
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(await verify(trust, 'payroll.example.com', presented('leaf'), 0)).toBe(CHROMIUM_VERDICT)
    expect(trust.seen('payroll.example.com')?.[0]).toMatchObject({
      subject: 'payroll.example.com',
      issuer: 'Zscaler Root CA',
    })
    // Sixty days on, the leaf (ten days) and the CA (thirty) have expired.
    expect(await verify(trust, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
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

/** What `openssl verify` says of `leaf` (PEM file) with `anchors` as its trust store: 'OK' or its error line. */
function opensslVerify(anchorsFile: string, leafFile: string, untrusted?: string): string {
  try {
    execFileSync(
      'openssl',
      [
        'verify',
        '-purpose',
        'sslserver',
        '-CAfile',
        anchorsFile,
        ...(untrusted === undefined ? [] : ['-untrusted', untrusted]),
        leafFile,
      ],
      { stdio: 'pipe' },
    )
    return 'OK'
  } catch (error) {
    const out = `${String((error as { stdout?: Buffer }).stdout ?? '')}${String((error as { stderr?: Buffer }).stderr ?? '')}`
    return /error \d+ at \d+ depth lookup: ([^\n]+)/.exec(out)?.[1] ?? out.trim()
  }
}

describe('CertificateTrust: the chain check a real verifier makes (issue 31, point 3)', () => {
  it('refuses a leaf issued by a certificate from the file that is not a CA, as openssl verify does', async () => {
    certs.issue('not-ca', 'inspect', 'Helpdesk laptop', 'basicConstraints=CA:FALSE')
    certs.issue('by-not-ca', 'not-ca', 'payroll.example.com', 'subjectAltName=DNS:payroll.example.com')
    const file = join(certs.dir, 'with-not-ca.pem')
    writeFileSync(file, `${pem('inspect')}${pem('not-ca')}`)
    expect(opensslVerify(file, join(certs.dir, 'by-not-ca.pem'))).toBe('invalid CA certificate')

    const trust = new CertificateTrust(SERVICE)
    trust.setExtra(loadExtraCertificates(file))
    expect(await verify(trust, 'payroll.example.com', presented('by-not-ca'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    expect(trust.refused('payroll.example.com')?.why).toBe(
      '“Helpdesk laptop” issued “payroll.example.com” but is not a certificate authority (its basic constraints do not say CA:TRUE).',
    )
  })

  it('trusts the file for the profile’s service host only, never for another host', async () => {
    certs.leaf('elsewhere', 'inspect', 'updates.example.com')
    const trust = new CertificateTrust(SERVICE)
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(await verify(trust, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      ACCEPT_CERTIFICATE,
    )
    expect(await verify(trust, 'updates.example.com', presented('elsewhere'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
    expect(trust.refused('updates.example.com')?.why).toMatch(
      /updates\.example\.com is not the profile’s service \(payroll\.example\.com\) nor its proxy/,
    )
  })
  it('lets the file vouch for the HTTPS proxy on the service’s route, and to a follower (the updater) for it alone', async () => {
    certs.leaf('proxy', 'inspect', 'proxy.corp.example')
    const proxyHosts = async () => ['proxy.corp.example']
    const trust = new CertificateTrust({ ...SERVICE, proxyHosts })
    trust.setExtra([new X509Certificate(pem('inspect'))])
    expect(await verify(trust, 'proxy.corp.example', presented('proxy'), CERT_AUTHORITY_INVALID)).toBe(
      ACCEPT_CERTIFICATE,
    )
    expect(
      await verify(trust, 'proxy.corp.example', presented('proxy'), CERT_AUTHORITY_INVALID, 'proxy-only'),
    ).toBe(ACCEPT_CERTIFICATE)
    // The updater's session: the service host itself is not vouched for, nor is any feed.
    expect(
      await verify(trust, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID, 'proxy-only'),
    ).toBe(CHROMIUM_VERDICT)
    expect(trust.refused('payroll.example.com')?.why).toBe(
      'payroll.example.com is not the profile’s proxy: the extra certificates file is never trusted for updates.',
    )
    // Nothing set as the service (Demo): the file vouches for no host.
    const demo = new CertificateTrust({ serviceHost: () => undefined })
    demo.setExtra([new X509Certificate(pem('inspect'))])
    expect(await verify(demo, 'payroll.example.com', presented('leaf'), CERT_AUTHORITY_INVALID)).toBe(
      CHROMIUM_VERDICT,
    )
  })

  it('reads the HTTPS proxies out of Chromium’s route', () => {
    expect(httpsProxyHosts('HTTPS Proxy.Corp.example:8443; PROXY plain.example:3128; DIRECT')).toEqual([
      'proxy.corp.example',
    ])
    expect(httpsProxyHosts('HTTPS [fd00::1]:443')).toEqual(['fd00::1'])
    expect(httpsProxyHosts('DIRECT')).toEqual([])
  })
  it('takes the service host from the profile’s address in force, and main checks it as a host name', () => {
    const settings = (environment: Settings['environment'], staging: string) => ({
      ...DEFAULT_SETTINGS,
      environment,
      baseUrls: { production: 'https://prod.example.com', staging },
    })
    expect(serviceHostOf(settings('staging', 'https://Payroll.Example.com:8443/api'))).toBe(
      'payroll.example.com',
    )
    expect(serviceHostOf(settings('staging', 'https://[fd00::1]/'))).toBe('fd00::1')
    expect(serviceHostOf(settings('demo', 'https://payroll.example.com'))).toBeUndefined()
    expect(serviceHostOf(settings('staging', ''))).toBeUndefined()
    expect(isServiceHostName('payroll.example.com')).toBe(true)
    expect(isServiceHostName('fd00::1')).toBe(true)
    expect(isServiceHostName('evil.example/ path')).toBe(false)
    expect(isServiceHostName(42)).toBe(false)
  })
})
