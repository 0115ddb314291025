import { hash } from 'node:crypto'

/**
 * A 52-bit fingerprint of a row's JSON text, stored with each row so the next run can tell changed rows from
 * unchanged ones without keeping (or re-reading) every previous row, and so a row seen again in the same run is
 * rewritten only when it differs. SHA-1 (native, one call) is faster here than any hash written in JavaScript;
 * 52 bits keep it an exact SQLite INTEGER and a safe JavaScript number.
 *
 * The bits are the digest's first 52 (its first 13 hex digits, as earlier versions read them, so fingerprints
 * stored by them still compare equal), read from the digest as 20 one-byte characters ('binary', Node's name for latin1): cheaper to make than 40 hex
 * digits and a slice to parse, and this runs once per row of every sync.
 */
export function rowHash(text: string): number {
  const digest = hash('sha1', text, 'binary')
  return (
    digest.charCodeAt(0) * 2 ** 44 +
    digest.charCodeAt(1) * 2 ** 36 +
    digest.charCodeAt(2) * 2 ** 28 +
    digest.charCodeAt(3) * 2 ** 20 +
    digest.charCodeAt(4) * 2 ** 12 +
    digest.charCodeAt(5) * 2 ** 4 +
    (digest.charCodeAt(6) >> 4)
  )
}
