import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyServerChain, type ChainRefusal } from '../../../../../src/main/core/net/server-chain'
import { extensionsOf } from '../../../../../src/main/core/net/x509-extensions'
import { testCertificates, type TestCertificates } from '../../../../helpers/openssl-certificates'

/**
 * The chain check behind the extra certificates file, case by case against `openssl verify` with the TLS server
 * purpose on the same certificates (made for the test by Debian's openssl; keys in a temporary folder, removed
 * afterwards): where openssl refuses, so does RosterDesk, with its own reason; the one difference is name
 * constraints, which RosterDesk does not evaluate and so refuses even where openssl accepts.
 */

const HOST = 'payroll.example.com'
const SERVER = `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:${HOST}`
const CA = 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign'

let certs: TestCertificates

beforeAll(() => {
  certs = testCertificates()
  certs.ca('root', 'Company Root CA')
  certs.issue('leaf', 'root', HOST, SERVER)
  certs.issue('int', 'root', 'Company Issuing CA', CA)
  certs.issue('by-int', 'int', HOST, SERVER)
  certs.issue('not-ca', 'root', 'Helpdesk laptop', 'basicConstraints=CA:FALSE')
  certs.issue('by-not-ca', 'not-ca', HOST, SERVER)
  certs.issue('no-bc', 'root', 'No Constraints CA', 'keyUsage=critical,keyCertSign')
  certs.issue('by-no-bc', 'no-bc', HOST, SERVER)
  certs.issue(
    'no-sign',
    'root',
    'Signing Off CA',
    'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,digitalSignature',
  )
  certs.issue('by-no-sign', 'no-sign', HOST, SERVER)
  certs.issue(
    'len0',
    'root',
    'Length Zero CA',
    'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign',
  )
  certs.issue('under-len0', 'len0', 'Too Deep CA', CA)
  certs.issue('too-deep', 'under-len0', HOST, SERVER)
  certs.issue('client', 'root', HOST, `extendedKeyUsage=clientAuth\nsubjectAltName=DNS:${HOST}`)
  certs.issue('client-ca', 'root', 'Client Only CA', `${CA}\nextendedKeyUsage=clientAuth`)
  certs.issue('by-client-ca', 'client-ca', HOST, SERVER)
  certs.issue('nc', 'root', 'Constrained CA', `${CA}\nnameConstraints=critical,permitted;DNS:example.com`)
  certs.issue('by-nc', 'nc', HOST, SERVER)
  certs.issue('nc-other', 'root', 'Elsewhere CA', `${CA}\nnameConstraints=critical,permitted;DNS:other.test`)
  certs.issue('by-nc-other', 'nc-other', HOST, SERVER)
  certs.issue('critical', 'root', HOST, `${SERVER}\n1.2.3.4=critical,ASN1:NULL`)
  certs.issue('expired', 'root', HOST, SERVER, -1)
  certs.issue('wrong-host', 'root', 'intranet.example.com', `${SERVER.replace(HOST, 'intranet.example.com')}`)
}, 60_000)

afterAll(() => certs.remove())

/** `openssl verify` with the file `anchors` as its trust store: 'OK', or its error's words. */
function openssl(anchors: readonly string[], leaf: string, intermediates: readonly string[]): string {
  const anchorsFile = join(certs.dir, `anchors-${anchors.join('-')}.pem`)
  writeFileSync(anchorsFile, anchors.map((name) => certs.pem(name)).join(''))
  const untrusted = join(certs.dir, `chain-${leaf}.pem`)
  writeFileSync(untrusted, intermediates.map((name) => certs.pem(name)).join(''))
  try {
    execFileSync(
      'openssl',
      [
        'verify',
        '-purpose',
        'sslserver',
        '-verify_hostname',
        HOST,
        '-CAfile',
        anchorsFile,
        ...(intermediates.length === 0 ? [] : ['-untrusted', untrusted]),
        join(certs.dir, `${leaf}.pem`),
      ],
      { stdio: 'pipe' },
    )
    return 'OK'
  } catch (error) {
    const out = `${String((error as { stdout?: Buffer }).stdout)}${String((error as { stderr?: Buffer }).stderr)}`
    return /error \d+ at \d+ depth lookup: ([^\n]+)/.exec(out)?.[1] ?? out.trim()
  }
}

function ours(anchors: readonly string[], leaf: string, intermediates: readonly string[]) {
  const x509 = (name: string) => new X509Certificate(certs.pem(name))
  return verifyServerChain({
    presented: [leaf, ...intermediates].map(x509),
    anchors: anchors.map(x509),
    host: HOST,
    now: new Date(),
  })
}

type Case = [
  what: string,
  anchors: string[],
  leaf: string,
  intermediates: string[],
  openssl: string,
  refusal: ChainRefusal | undefined,
]

const CASES: Case[] = [
  ['a leaf the root issued', ['root'], 'leaf', [], 'OK', undefined],
  ['a leaf through an intermediate the server sends', ['root'], 'by-int', ['int'], 'OK', undefined],
  ['a leaf through an intermediate from the file', ['root', 'int'], 'by-int', [], 'OK', undefined],
  [
    'an issuer from the file that is not a CA',
    ['root', 'not-ca'],
    'by-not-ca',
    [],
    'invalid CA certificate',
    'not-a-ca',
  ],
  [
    'an issuer without basic constraints',
    ['root'],
    'by-no-bc',
    ['no-bc'],
    'invalid CA certificate',
    'not-a-ca',
  ],
  [
    'an issuer whose key usage lacks keyCertSign',
    ['root'],
    'by-no-sign',
    ['no-sign'],
    'invalid CA certificate',
    'no-cert-sign',
  ],
  [
    'a path longer than a pathlen allows',
    ['root'],
    'too-deep',
    ['under-len0', 'len0'],
    'path length constraint exceeded',
    'path-length',
  ],
  ['a leaf for TLS clients only', ['root'], 'client', [], 'unsuitable certificate purpose', 'purpose'],
  [
    'an issuer for TLS clients only',
    ['root'],
    'by-client-ca',
    ['client-ca'],
    'unsuitable certificate purpose',
    'purpose',
  ],
  [
    'an unknown critical extension',
    ['root'],
    'critical',
    [],
    'unhandled critical extension',
    'critical-extension',
  ],
  ['an expired leaf', ['root'], 'expired', [], 'certificate has expired', 'expired'],
  ['a leaf for another host', ['root'], 'wrong-host', [], 'hostname mismatch', 'host'],
  [
    'a file with the intermediate but not its root',
    ['int'],
    'by-int',
    [],
    'unable to get issuer certificate',
    'untrusted',
  ],
  ['a root not in the file', ['int'], 'leaf', [], 'unable to get local issuer certificate', 'untrusted'],
  [
    'name constraints that openssl finds violated',
    ['root'],
    'by-nc-other',
    ['nc-other'],
    'permitted subtree violation',
    'name-constraints',
  ],
]

describe('verifyServerChain against openssl verify -purpose sslserver', () => {
  it.each(CASES)('%s', (_what, anchors, leaf, intermediates, opensslSays, refusal) => {
    expect(openssl(anchors, leaf, intermediates)).toBe(opensslSays)
    const verdict = ours(anchors, leaf, intermediates)
    expect(verdict.ok ? undefined : verdict.reason).toBe(refusal)
  })

  it('refuses a chain through name constraints even where openssl accepts it: they are not evaluated', () => {
    expect(openssl(['root'], 'by-nc', ['nc'])).toBe('OK')
    expect(ours(['root'], 'by-nc', ['nc'])).toEqual({
      ok: false,
      reason: 'name-constraints',
      message:
        "“Constrained CA” carries name constraints, which RosterDesk does not check, so it does not trust a chain through it. Install that certificate in the computer's certificate store instead.",
    })
  })

  it('names the certificate and the rule in each refusal', () => {
    const message = (anchors: string[], leaf: string, intermediates: string[]) => {
      const verdict = ours(anchors, leaf, intermediates)
      return verdict.ok ? 'OK' : verdict.message
    }
    expect(message(['root'], 'too-deep', ['under-len0', 'len0'])).toBe(
      '“Length Zero CA” allows 0 intermediate certificates below it, and the chain has 1.',
    )
    expect(message(['root'], 'by-no-sign', ['no-sign'])).toBe(
      '“Signing Off CA” issued “payroll.example.com” but its key usage does not allow signing certificates.',
    )
    expect(message(['root'], 'client', [])).toBe(
      '“payroll.example.com” is not for TLS servers (its extended key usage lacks serverAuth).',
    )
    expect(message(['int'], 'by-int', [])).toBe(
      'The extra certificates file holds “Company Issuing CA” but not the root certificate that issued it.',
    )
  })

  it('reads the extensions node:crypto leaves out: path length, key usage bits, criticality', () => {
    const read = (name: string) => extensionsOf(new X509Certificate(certs.pem(name)))
    expect(read('len0')).toMatchObject({ version: 3, basicConstraints: { ca: true, pathLength: 0 } })
    expect([...(read('no-sign').keyUsage ?? [])]).toEqual(['digitalSignature'])
    expect([...(read('root').keyUsage ?? [])]).toEqual(['keyCertSign', 'cRLSign'])
    expect(read('client').extendedKeyUsage).toEqual(['1.3.6.1.5.5.7.3.2'])
    expect(read('critical').all).toContainEqual({ oid: '1.2.3.4', critical: true })
    expect(read('not-ca').basicConstraints).toEqual({ ca: false, pathLength: undefined })
  })
})
