import { hash } from 'node:crypto'

/**
 * A 52-bit fingerprint of a row's JSON text, stored with each row so the next run can tell changed rows from
 * unchanged ones without keeping (or re-reading) every previous row, and so a row seen again in the same run is
 * rewritten only when it differs. SHA-1 (native, one call) is faster here than any hash written in JavaScript;
 * 52 bits keep it an exact SQLite INTEGER and a safe JavaScript number.
 */
export function rowHash(text: string): number {
  return Number.parseInt(hash('sha1', text, 'hex').slice(0, 13), 16)
}
