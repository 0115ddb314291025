import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isNumberText, keepsDigits, parseJsonExactly } from '../../../../../src/main/core/api/exact-json'

describe('parseJsonExactly', () => {
  it('keeps a number a double changes as its text, and every other number as a number', () => {
    const parsed = parseJsonExactly(
      '{"a":9007199254740993,"b":12345678901234567890,"c":9007199254740992,"d":1.50,"e":1e21,' +
        '"f":0.1,"g":-0,"h":100000000000000000000000,"i":0.30000000000000001,"j":58234.5,"k":1E+2}',
    )
    expect(parsed).toEqual({
      value: {
        a: '9007199254740993',
        b: '12345678901234567890',
        c: 9007199254740992,
        d: 1.5,
        e: 1e21,
        f: 0.1,
        g: -0,
        h: 1e23,
        i: '0.30000000000000001',
        j: 58234.5,
        k: 100,
      },
      tooLarge: 0,
      tooSmall: 0,
    })
  })

  it('keeps numbers beyond a double’s range as their text and counts them, by which end', () => {
    const parsed = parseJsonExactly('{"rows":[{"s":1e400,"t":-1e400},{"u":1e-400,"v":[2E+999]}]}')
    expect(parsed.value).toEqual({
      rows: [
        { s: '1e400', t: '-1e400' },
        { u: '1e-400', v: ['2E+999'] },
      ],
    })
    expect(parsed).toMatchObject({ tooLarge: 3, tooSmall: 1 })
  })

  it('leaves strings alone, even ones that hold such numbers or end in escaped quotes and backslashes', () => {
    const text =
      '{"x":"12345678901234567890","y":"a\\\\","z":"1e400 \\" 9007199254740993","n":9007199254740993}'
    expect(parseJsonExactly(text).value).toEqual({
      x: '12345678901234567890',
      y: 'a\\',
      z: '1e400 " 9007199254740993',
      n: '9007199254740993',
    })
  })

  it('refuses what JSON.parse refuses, a number in a key’s place too (quoting it would make it JSON)', () => {
    for (const text of ['{1e400:1}', '[012345678901234567]', '[1e400', '[1e400 1]', '[1e]', '[+1e400]']) {
      expect(() => parseJsonExactly(text), text).toThrow(SyntaxError)
    }
  })

  it('reads text nested 100,000 levels deep, with such numbers in it, without overflowing the stack', () => {
    const depth = 100_000
    const text = `{"a":[1e400,${'['.repeat(depth)}12345678901234567890${']'.repeat(depth)}]}`
    const parsed = parseJsonExactly(text)
    expect(parsed.tooLarge).toBe(1)
    let inner: unknown = (parsed.value as { a: unknown[] }).a[1]
    for (let level = 1; level < depth; level++) inner = (inner as unknown[])[0]
    expect(inner).toEqual(['12345678901234567890'])
  })

  it('gives what JSON.parse gives for any JSON without such numbers', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value)
        const parsed = parseJsonExactly(text)
        expect(parsed.value).toEqual(JSON.parse(text))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps every double JSON.stringify writes as the same number (its shortest digits are its digits)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = JSON.stringify([value])
        expect(parseJsonExactly(text).value).toEqual(JSON.parse(text))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('keepsDigits and isNumberText', () => {
  it('compare the digits written with the double’s shortest digits', () => {
    expect(keepsDigits(1.5, '15e-1')).toBe(true)
    expect(keepsDigits(9007199254740992, '9007199254740993')).toBe(false)
    expect(keepsDigits(0, '0.000e5')).toBe(true)
    expect(keepsDigits(0, '1e-400')).toBe(false)
    expect(keepsDigits(Infinity, '1e400')).toBe(false)
  })

  it('say which text is a number a double cannot hold as written', () => {
    expect(isNumberText('12345678901234567890')).toBe(true)
    expect(isNumberText('-1e400')).toBe(true)
    expect(isNumberText('1e5')).toBe(false)
    expect(isNumberText('0012345678901234567')).toBe(false)
    expect(isNumberText('12345')).toBe(false)
    expect(isNumberText('2026-11-01')).toBe(false)
  })
})
