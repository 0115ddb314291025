import Database from 'better-sqlite3-multiple-ciphers'
import { afterAll, describe, expect, it } from 'vitest'
import { jsonPath } from '../../../../../src/main/core/snapshot/snapshot-reader'
import { wellFormedFieldNames } from '../../../../../src/main/core/sync/field-names'
import { fieldOf } from '../../../../../src/shared/row-field'
import { ODD_FIELD_NAMES } from '../../../../../src/main/sandbox/field-names'

/**
 * Decision 054: a column's name reaches SQL only as a bound JSON path, which names any key exactly (quotes,
 * backslashes, brackets, dots, a NUL, a lone surrogate half, 5,000 characters), and a row is read by its own
 * fields only.
 */
describe('a column name in SQL and in a row', () => {
  const db = new Database(':memory:')
  afterAll(() => db.close())
  const NAMES = [...ODD_FIELD_NAMES, 'a\\b', 'x[0]', '$', '', 'a.b.c', "q'); DROP TABLE t; --", 'é\u2028']

  it('extracts the value of a field of any name from a stored row, and nothing for a name it lacks', () => {
    const row: Record<string, string> = {}
    NAMES.forEach((name, index) => Object.defineProperty(row, name, { value: `v${index}`, enumerable: true }))
    // As the cache stores a row: JSON text, with a lone surrogate half escaped.
    const json = JSON.stringify(row)
    const extract = db.prepare('SELECT json_extract(?, ?)').pluck()
    NAMES.forEach((name, index) => {
      expect(extract.get(json, jsonPath(name)), JSON.stringify(name.slice(0, 20))).toBe(`v${index}`)
    })
    expect(extract.get(json, jsonPath('missing'))).toBeNull()
    expect(extract.get(JSON.stringify({ ab: 1 }), jsonPath('a"b'))).toBeNull()
  })

  it('reads a row’s own field, never what an object inherits', () => {
    const row = JSON.parse('{"__proto__":"mine","UUID":"u1","n":0,"flag":false}') as Record<string, never>
    expect(fieldOf(row, '__proto__')).toBe('mine')
    expect(fieldOf(row, 'n')).toBe(0)
    expect(fieldOf(row, 'flag')).toBe(false)
    for (const inherited of ['constructor', 'toString', 'hasOwnProperty', '__defineGetter__']) {
      expect(fieldOf(row, inherited)).toBeUndefined()
    }
    expect(fieldOf({}, '__proto__')).toBeUndefined()
  })

  it('stores a field name holding half a surrogate pair as SQLite keeps it, with U+FFFD', () => {
    const row = JSON.parse('{"UUID":"u1","half \\ud800 pair":"x","__proto__":"p"}') as Record<string, string>
    const named = wellFormedFieldNames(row)
    expect(Object.keys(named)).toEqual(['UUID', 'half \ufffd pair', '__proto__'])
    expect(Object.hasOwn(named, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(named)).toBe(Object.prototype)
    const plain = { UUID: 'u2', 'Cost Center': 'c' }
    expect(wellFormedFieldNames(plain)).toBe(plain)
    const stored = db.prepare('SELECT ?').pluck().get('half \ud800 pair')
    expect(stored).toBe('half \ufffd pair')
  })
})
