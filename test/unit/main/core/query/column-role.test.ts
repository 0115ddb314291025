import { describe, expect, it } from 'vitest'
import {
  fitsIdentifierShape,
  identifierColumnsOf,
  identifierRole,
  identifierShape,
  identifierToken,
  leadingZeros,
  withoutLeadingZeros,
} from '../../../../../src/main/core/query/column-role'
import { IndexEncoder } from '../../../../../src/main/core/query/index-encoder'
import { SearchIndex } from '../../../../../src/main/core/query/search-index'
import { EmployeeGenerator } from '../../../../../src/main/sandbox/data'

type Row = Record<string, unknown>

/** The identifier columns of the index a sync builds from what its encoder measured. */
function indexedIdentifiers(encoder: IndexEncoder): Map<string, string> {
  const index = SearchIndex.fromEncoded(encoder.encode())
  return new Map(index.identifiers.map((column) => [column.key, column.role]))
}

/** The roles the sync's incremental measurement gives, fed the rows as a sync would. */
function encodedRoles(rows: readonly Row[]): Map<string, string> {
  const encoder = new IndexEncoder()
  rows.forEach((row, i) => encoder.set(i + 1, null, null, null, null, row))
  return indexedIdentifiers(encoder)
}

describe('identifier columns', () => {
  it('are the sandbox’s employee number and e-mail, and none of its other fields', () => {
    const generator = new EmployeeGenerator(1, 2_000)
    const rows = Array.from({ length: 2_000 }, (_, i) => generator.row(i) as unknown as Row)
    const expected = new Map([
      ['employeeNumber', 'number'],
      ['email', 'email'],
    ])
    expect(identifierColumnsOf(rows)).toEqual(expected)
    expect(encodedRoles(rows)).toEqual(expected)
  })

  it('are judged by their values, whatever the service calls them', () => {
    const rows: Row[] = Array.from({ length: 50 }, (_, i) => ({
      UUID: `u${i}`,
      staffNo: String(i).padStart(5, '0'),
      workEmail: `person${i}@corp.example`,
      grade: String(i % 5),
      salaryNumber: 1_000 + i,
      badge: i === 7 ? 'B-7' : String(1_000 + i),
      mixed: i % 2 === 0 ? String(i) : `m${i}@x.example`,
      rarely: i === 3 ? '12345' : null,
    }))
    const expected = new Map([
      ['staffNo', 'number'],
      ['workEmail', 'email'],
      ['rarely', 'number'],
    ])
    expect(identifierColumnsOf(rows)).toEqual(expected)
    expect(encodedRoles(rows)).toEqual(expected)
  })

  it('are decided exactly however the values that a sample looks at repeat', () => {
    // 10,000 numbers: every ninth (where an evenly spaced sample of about a thousand looks) one of 200 values,
    // the rest distinct: 9,088 distinct of 10,000, an identifier although its sample says otherwise.
    const rows: Row[] = Array.from({ length: 10_000 }, (_, i) => ({
      staffNo: i % 9 === 0 ? String(1_000_000 + ((i / 9) % 200)) : String(i),
    }))
    expect(encodedRoles(rows)).toEqual(new Map([['staffNo', 'number']]))
    // With 100 values there, 8,988 distinct: not one.
    rows.forEach((row, i) => {
      if (i % 9 === 0) row['staffNo'] = String(1_000_000 + ((i / 9) % 100))
    })
    expect(encodedRoles(rows)).toEqual(new Map())
  })

  it('tell employees apart: nine in ten values distinct at least', () => {
    expect(identifierRole({ shape: 'number', present: 100, distinct: 90 })).toBe('number')
    expect(identifierRole({ shape: 'number', present: 100, distinct: 89 })).toBeNull()
    expect(identifierRole({ shape: 'email', present: 0, distinct: 0 })).toBeNull()
  })

  it('are measured over the rows as finally stored: a replaced value counts once', () => {
    const encoder = new IndexEncoder()
    for (let id = 1; id <= 10; id++) encoder.set(id, null, null, null, null, { code: '7' })
    expect(indexedIdentifiers(encoder)).toEqual(new Map())
    // Every row replaced by one with its own number: now they tell employees apart.
    for (let id = 1; id <= 10; id++) encoder.set(id, null, null, null, null, { code: String(id) })
    expect(indexedIdentifiers(encoder)).toEqual(new Map([['code', 'number']]))
    // ... while one value of another shape, even replaced later, rules a column out for the run.
    encoder.set(3, null, null, null, null, { code: 'n/a' })
    encoder.set(3, null, null, null, null, { code: '3' })
    expect(indexedIdentifiers(encoder)).toEqual(new Map())
  })

  it('shape values: digit strings, e-mail addresses, absent values, and nothing else', () => {
    expect(identifierShape('0004360')).toBe('number')
    expect(identifierShape('anna.k@example.com')).toBe('email')
    expect(identifierShape(null)).toBe('absent')
    expect(identifierShape('')).toBe('absent')
    expect(identifierShape(4360)).toBeNull()
    expect(identifierShape(' 4360')).toBeNull()
    expect(identifierShape('anna@localhost')).toBeNull()
    expect(identifierShape('1'.repeat(33))).toBeNull()
  })

  it('are checked value by value with one test that agrees with the shape of every value', () => {
    const values: unknown[] = [
      '0004360',
      '7',
      'anna.k@example.com',
      'Ann@X.example',
      'anna@localhost',
      '12@34.56',
      ' 4360',
      '1'.repeat(32),
      '1'.repeat(33),
      `${'a'.repeat(250)}@x.io`,
      `${'a'.repeat(245)}@x.io`,
      4360,
      true,
      {},
      null,
      undefined,
      '',
    ]
    for (const shape of ['number', 'email'] as const) {
      for (const value of values) {
        const seen = identifierShape(value)
        expect(fitsIdentifierShape(shape, value), String(value)).toBe(
          seen === 'absent' ? 'absent' : seen === shape,
        )
      }
    }
  })

  it('index numbers as stored, addresses whole and folded', () => {
    expect(identifierToken('number', '0004360')).toBe('0004360')
    expect(identifierToken('email', 'Anna.K@Example.COM')).toBe('anna.k@example.com')
    expect([leadingZeros('0004360'), leadingZeros('4360'), leadingZeros('0000')]).toEqual([3, 0, 3])
    // The zeros followed by a digit, as the pattern ^0+(?=[0-9]) takes them, whatever follows.
    for (const digits of ['', '0', '00', '000', '0004360', '4360', '0a', '00a1', '0.5', '10', '007']) {
      const pattern = digits.replace(/^0+(?=[0-9])/, '')
      expect(withoutLeadingZeros(digits), digits).toBe(pattern)
      expect(leadingZeros(digits), digits).toBe(digits.length - pattern.length)
    }
  })
})
