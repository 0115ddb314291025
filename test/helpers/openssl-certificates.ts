import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Certificates made for one test by Debian's openssl, in a temporary folder (keys included) that `remove`
 * deletes: no private key is ever committed. P-256 keys throughout: made in milliseconds, where RSA takes a
 * good part of a second each. `ca` makes a root CA; `leaf` a certificate for a host issued by one.
 */
export interface TestCertificates {
  readonly dir: string
  /** A root CA whose subject is CN=`commonName`; its PEM file is `<name>.pem`. */
  ca(name: string, commonName: string): string
  /** A leaf for `host` issued by the CA `ca`, valid for `days`; its PEM file is `<name>.pem`. */
  leaf(name: string, ca: string, host: string, days?: number): string
  /**
   * A certificate for CN=`commonName` issued by `issuer` (any certificate made here, CA or not) with exactly the
   * X.509v3 extensions in `extensions` (openssl's extension-file syntax, one a line); its PEM file is `<name>.pem`.
   */
  issue(name: string, issuer: string, commonName: string, extensions: string, days?: number): string
  pem(name: string): string
  remove(): void
}

export function testCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-certs-'))
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' })
  return {
    dir,
    ca(name, commonName) {
      openssl(
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.pem`,
        '-days',
        '30',
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      )
      return join(dir, `${name}.pem`)
    },
    leaf(name, ca, host, days = 10) {
      return this.issue(name, ca, host, `subjectAltName=DNS:${host}`, days)
    },
    issue(name, issuer, commonName, extensions, days = 10) {
      openssl(
        'req',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        `/CN=${commonName}`,
      )
      writeFileSync(join(dir, `${name}.ext`), `${extensions}\n`)
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${issuer}.pem`,
        '-CAkey',
        `${issuer}.key`,
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        '-days',
        String(days),
        '-extfile',
        `${name}.ext`,
      )
      return join(dir, `${name}.pem`)
    },
    pem: (name) => readFileSync(join(dir, `${name}.pem`), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
