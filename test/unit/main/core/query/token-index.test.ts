import { describe, expect, it } from 'vitest'
import { tokenize } from '../../../../../src/main/core/text/text-fold'
import {
  TokenIndex,
  termTextBytes,
  termTextFromBytes,
  termTextOf,
  termTextSlice,
} from '../../../../../src/main/core/query/token-index'
import { createRng } from '../../../../../src/main/sandbox/random'

/**
 * Term texts are code units in a typed array (so they cross threads transferred, not copied) and are stored
 * exactly as the strings were before: latin1 when every character fits a byte, else UTF-16 little-endian.
 */

const SAMPLES = [
  '',
  'anna.k@example.com',
  '0004360',
  'müllerzoë', // Latin-1 letters: still one byte each
  'łukasz', // beyond Latin-1
  '田中さくら',
  '😀x', // a surrogate pair is two code units, as charCodeAt counts
]

describe('term texts', () => {
  it('store the bytes the strings were stored as, and read back to the same text', () => {
    for (const text of SAMPLES) {
      const units = termTextOf(text)
      const encoding = /[\u0100-\uffff]/.test(text) ? 'utf16le' : 'latin1'
      const stored = termTextBytes(units)
      expect(stored.encoding).toBe(encoding)
      expect(Buffer.compare(stored.data, Buffer.from(text, encoding))).toBe(0)
      const read = termTextFromBytes(Buffer.from(text, encoding), encoding)
      expect(read === null ? null : termTextSlice(read, 0, read.length)).toBe(text)
      expect(units.length).toBe(text.length)
      expect(units.byteOffset === 0 && units.byteLength === units.buffer.byteLength).toBe(true)
    }
  })

  it('refuses UTF-16 bytes of odd length', () => {
    expect(termTextFromBytes(Buffer.from([0x61, 0x00, 0x62]), 'utf16le')).toBeNull()
  })

  it('finds by prefix exactly as comparing the strings would, narrow or wide, after a round trip', () => {
    const random = createRng(41)
    const alphabets = ['abcz.@0', 'abcéü', 'aбвłś田']
    for (const alphabet of alphabets) {
      const letters = [...alphabet]
      const word = () =>
        Array.from(
          { length: 1 + Math.floor(random() * 5) },
          () => letters[Math.floor(random() * letters.length)],
        ).join('')
      const values = Array.from({ length: 400 }, () => word())
      const built = TokenIndex.build(
        values.map((value, slot) => [slot, value] as const),
        values.length,
      )
      const parts = built.toParts()
      const stored = termTextBytes(parts.text)
      const text = termTextFromBytes(stored.data, stored.encoding)
      expect(text).not.toBeNull()
      const reread = TokenIndex.fromParts({ ...parts, text: text ?? parts.text }, values.length)
      for (let i = 0; i < 100; i++) {
        // Mostly the start of a token some value has, now and then a string of the alphabet.
        const tokens = tokenize(values[Math.floor(random() * values.length)] ?? '')
        const source = random() < 0.8 ? (tokens[Math.floor(random() * tokens.length)] ?? '') : word()
        const prefix = source.slice(0, 1 + Math.floor(random() * 3))
        const expected = values.flatMap((value, slot) =>
          tokenize(value).some((token) => token.startsWith(prefix)) ? [slot] : [],
        )
        for (const index of [built, reread]) {
          const mark = new Uint8Array(values.length)
          index?.markPrefix(prefix, mark, 0)
          const found = Array.from(mark.keys()).filter((slot) => mark[slot] === 1)
          expect(found).toEqual(expected)
        }
      }
    }
  })
})
