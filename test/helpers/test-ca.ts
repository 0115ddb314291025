import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A certificate and its key, as PEM text, and where the certificate's file is. */
export interface TestKeyPair {
  readonly cert: string
  readonly key: string
  readonly certFile: string
}

/** A private CA made at run time (never a committed key) and the server certificates it signed. */
export interface TestCa {
  /** The folder every file lives in; `cleanup` removes it. */
  readonly dir: string
  /** The CA's certificate as a PEM file, for --ca-file, SSL_CERT_FILE or a trust list. */
  readonly caFile: string
  readonly caPem: string
  /** How RosterDesk names the CA in a message: its common name (organisation). */
  readonly issuerName: string
  /** For 127.0.0.1, localhost and EXTRA_SERVER_NAME, valid now. */
  readonly server: TestKeyPair
  /** For the same names, but expired yesterday. */
  readonly expired: TestKeyPair
  /** Valid now, but for wrong-host.example only. */
  readonly wrongHost: TestKeyPair
  cleanup(): void
}

/** The CA's names, as the messages under test name them. */
export const TEST_CA_COMMON_NAME = 'RosterDesk Test Root CA'
export const TEST_CA_ORGANISATION = 'RosterDesk Tests'

/**
 * A name the server certificate also holds: one that does not resolve (RFC 2606's .test), so a test can reach
 * the service by it only through a proxy that knows where it is (test/helpers/forward-proxy.ts `hosts`).
 */
export const EXTRA_SERVER_NAME = 'payroll.rosterdesk.test'

const OPENSSL = '/usr/bin/openssl'

/**
 * Makes a CA and three server certificates with Debian's openssl (P-256 keys, so it takes well under a second):
 * a good one, an expired one (`-days -1`: its notAfter is before now) and one for another host name.
 */
export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-test-ca-'))
  const file = (name: string): string => join(dir, name)
  const openssl = (args: readonly string[]): void => {
    execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
  }
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']
  openssl([
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '3',
    '-subj',
    `/CN=${TEST_CA_COMMON_NAME}/O=${TEST_CA_ORGANISATION}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ])
  let serial = 1
  const issue = (name: string, commonName: string, altNames: string, days: number): TestKeyPair => {
    openssl([
      'req',
      ...ecKey,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.csr`),
      '-subj',
      `/CN=${commonName}`,
    ])
    writeFileSync(
      file(`${name}.ext`),
      `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${altNames}\n`,
    )
    serial += 1
    openssl([
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-set_serial',
      String(serial),
      '-days',
      String(days),
      '-extfile',
      file(`${name}.ext`),
      '-out',
      file(`${name}.pem`),
    ])
    return {
      cert: readFileSync(file(`${name}.pem`), 'utf8'),
      key: readFileSync(file(`${name}.key`), 'utf8'),
      certFile: file(`${name}.pem`),
    }
  }
  const names = `IP:127.0.0.1,DNS:localhost,DNS:${EXTRA_SERVER_NAME}`
  const server = issue('server', '127.0.0.1', names, 2)
  const expired = issue('expired', '127.0.0.1', names, -1)
  const wrongHost = issue('wrong-host', 'wrong-host.example', 'DNS:wrong-host.example', 2)
  // The CA's key is needed no longer: nothing else may sign with it.
  rmSync(file('ca.key'))
  return {
    dir,
    caFile: file('ca.pem'),
    caPem: readFileSync(file('ca.pem'), 'utf8'),
    issuerName: `${TEST_CA_COMMON_NAME} (${TEST_CA_ORGANISATION})`,
    server,
    expired,
    wrongHost,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
