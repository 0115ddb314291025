import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EXCEL_MAX_CELL_CHARS, cleanCellText } from '../../../../../src/main/core/export/cell-values'
import { columnLetter } from '../../../../../src/main/core/export/column-letter'
import {
  RowXmlBuilder,
  escapeXmlText,
  isPlainXmlText,
} from '../../../../../src/main/core/export/xlsx-row-xml'

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

describe('isPlainXmlText', () => {
  /** Text as exports meet it: names in many scripts, markup, control characters, edges of white space. */
  const cellText = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom(
        'a',
        'Z',
        ' ',
        '\t',
        '\n',
        '\r',
        '&',
        '<',
        '>',
        '\u0007',
        '\u007f',
        '\ud800',
        '李',
      ),
      maxLength: 12,
    }),
  )

  it('holds only for text that cleaning, escaping and edge preserving all leave as it is', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        if (!isPlainXmlText(text)) return
        expect(cleanCellText(text)).toEqual({ text, truncated: false })
        expect(escapeXmlText(text)).toBe(text)
        expect(text.charCodeAt(0)).toBeGreaterThan(32)
        expect(text.charCodeAt(text.length - 1)).toBeGreaterThan(32)
      }),
      { numRuns: 2000 },
    )
  })

  it('writes plain text exactly as the careful path does', () => {
    fc.assert(
      fc.property(fc.array(cellText, { minLength: 1, maxLength: 6 }), (texts) => {
        const values = texts.map((text) => {
          const cleaned = cleanCellText(text).text
          return cleaned === '' ? undefined : cleaned
        })
        const styles = values.map((_, index) => index + 1)
        const builder = new RowXmlBuilder(values.length)
        const plain = values.map((value) => value !== undefined && isPlainXmlText(value))
        expect(builder.row(9, values, styles, plain)).toBe(builder.row(9, values, styles))
      }),
    )
  })

  it('is true for ordinary names and false for what needs work', () => {
    expect(['Zoë', "O'Brien-Núñez", '李 小龍', 'a\tb', 'line\nbreak'].map(isPlainXmlText)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ])
    expect(
      [
        '',
        ' padded',
        'padded ',
        'a & b',
        '<b>',
        'bell\u0007',
        'cr\r\nlf',
        'emoji 🙂',
        'x'.repeat(EXCEL_MAX_CELL_CHARS + 1),
      ].map(isPlainXmlText),
    ).toEqual([false, false, false, false, false, false, false, false, false])
  })
})
