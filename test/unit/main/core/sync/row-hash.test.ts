import { hash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rowHash } from '../../../../../src/main/core/sync/row-hash'

/** The fingerprint as every earlier version computed and stored it: SHA-1's first 13 hex digits. */
const storedFingerprint = (text: string): number =>
  Number.parseInt(hash('sha1', text, 'hex').slice(0, 13), 16)

describe('row fingerprints', () => {
  it('are the first 52 bits of SHA-1, as snapshots already on disk hold them, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json()), (text) => {
        const fingerprint = rowHash(text)
        expect(fingerprint).toBe(storedFingerprint(text))
        expect(Number.isSafeInteger(fingerprint) && fingerprint >= 0 && fingerprint < 2 ** 52).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })

  it('tell rows apart that differ anywhere, down to one character', () => {
    const row = JSON.stringify({ UUID: 'a', firstName: 'Zoë', annualSalary: 58234.5 })
    expect(rowHash(row)).toBe(storedFingerprint(row))
    expect(rowHash(row)).not.toBe(rowHash(row.replace('5', '6')))
    expect(rowHash(row)).not.toBe(rowHash(row.replace('ë', 'e')))
    expect(rowHash('')).toBe(storedFingerprint(''))
  })
})
