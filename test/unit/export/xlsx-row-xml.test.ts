import { describe, expect, it } from 'vitest'
import { columnLetter } from '../../../src/main/core/export/column-letter'
import { RowXmlBuilder, escapeXmlText } from '../../../src/main/core/export/xlsx-row-xml'

describe('RowXmlBuilder', () => {
  it('writes text as inline strings, numbers and booleans by value, and leaves empty cells out', () => {
    const xml = new RowXmlBuilder(5).row(7, ['Anna', 52000.5, undefined, true, '=1+2'], [3, 4, 0, 4, 3])
    expect(xml).toBe(
      '<row r="7" spans="1:5">' +
        '<c r="A7" s="3" t="inlineStr"><is><t>Anna</t></is></c>' +
        '<c r="B7" s="4"><v>52000.5</v></c>' +
        '<c r="D7" s="4" t="b"><v>1</v></c>' +
        '<c r="E7" s="3" t="inlineStr"><is><t>=1+2</t></is></c>' +
        '</row>',
    )
  })

  it('escapes markup and preserves whitespace at the edges', () => {
    const xml = new RowXmlBuilder(2).row(2, ['a < b & c > d "q" \'s\'', ' padded\n'], [1, 1])
    expect(xml).toContain('<t>a &lt; b &amp; c &gt; d "q" \'s\'</t>')
    expect(xml).toContain('<t xml:space="preserve"> padded\n</t>')
  })
})

describe('escapeXmlText', () => {
  it('returns text without markup characters unchanged', () => {
    expect(escapeXmlText('Zoë 李')).toBe('Zoë 李')
    expect(escapeXmlText('&amp;')).toBe('&amp;amp;')
  })
})

describe('columnLetter', () => {
  it('counts columns the way Excel letters them', () => {
    expect([1, 8, 26, 27, 52, 53, 702, 703, 16_384].map(columnLetter)).toEqual([
      'A',
      'H',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ])
  })
})
