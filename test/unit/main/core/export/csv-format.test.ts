import { describe, expect, it } from 'vitest'
import { csvField, csvLine } from '../../../../../src/main/core/export/csv-format'

describe('csvField', () => {
  it('writes plain values bare', () => {
    expect(csvField('Anna')).toBe('Anna')
    expect(csvField('0004711')).toBe('0004711')
    expect(csvField(52000.5)).toBe('52000.5')
    expect(csvField(-3)).toBe('-3')
    expect(csvField(true)).toBe('true')
    expect(csvField(null)).toBe('')
    expect(csvField(undefined)).toBe('')
  })

  it('quotes fields with a comma, quote or line break and doubles quotes', () => {
    expect(csvField('Smith, Anna')).toBe('"Smith, Anna"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('one\ntwo')).toBe('"one\ntwo"')
    expect(csvField('one\r\ntwo')).toBe('"one\r\ntwo"')
  })

  it('puts an apostrophe before text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"')
    expect(csvField('+44 20 7946 0958')).toBe("'+44 20 7946 0958")
    expect(csvField('-')).toBe("'-")
    expect(csvField('@cmd')).toBe("'@cmd")
    expect(csvField('\t=1')).toBe("'\t=1")
  })

  it('writes nested values as JSON', () => {
    expect(csvField({ a: [1, 'b'] })).toBe('"{""a"":[1,""b""]}"')
  })
})

describe('csvLine', () => {
  it('joins fields with commas and ends with CRLF', () => {
    expect(csvLine(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n')
  })
})
