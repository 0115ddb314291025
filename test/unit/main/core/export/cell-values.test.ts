import { describe, expect, it } from 'vitest'
import {
  EXCEL_MAX_CELL_CHARS,
  cleanCellText,
  looksLikeFormula,
  parseIsoDate,
} from '../../../../../src/main/core/export/cell-values'

/** Excel's serial for a UTC moment, computed the long way round for comparison. */
function serialOf(iso: string): number {
  return Date.parse(iso) / 86_400_000 + 25569
}

describe('parseIsoDate', () => {
  it('reads ISO dates as whole Excel days', () => {
    expect(parseIsoDate('2026-11-22')).toEqual({
      serial: 46348,
      hasTime: false,
      convertedToUtc: false,
      utc: false,
    })
    expect(parseIsoDate('1900-03-01')?.serial).toBe(61)
    expect(parseIsoDate('2024-02-29')?.serial).toBe(serialOf('2024-02-29T00:00:00Z'))
    expect(parseIsoDate('9999-12-31')?.serial).toBe(serialOf('9999-12-31T00:00:00Z'))
  })

  it('agrees with Date for every day of two centuries', () => {
    const wrong: string[] = []
    for (let ms = Date.UTC(1900, 2, 1); ms < Date.UTC(2100, 0, 1); ms += 86_400_000) {
      const day = new Date(ms).toISOString().slice(0, 10)
      if (parseIsoDate(day)?.serial !== ms / 86_400_000 + 25569) wrong.push(day)
    }
    expect(wrong).toEqual([])
  })

  it('reads date-times, converting those with an offset to UTC and saying which are UTC', () => {
    expect(parseIsoDate('2026-11-22T10:15:30Z')).toEqual({
      serial: serialOf('2026-11-22T10:15:30Z'),
      hasTime: true,
      convertedToUtc: false,
      utc: true,
    })
    expect(parseIsoDate('2026-11-22T10:15:00+01:00')).toEqual({
      serial: serialOf('2026-11-22T09:15:00Z'),
      hasTime: true,
      convertedToUtc: true,
      utc: true,
    })
    // No zone given: kept as written, and nothing claims it is UTC.
    expect(parseIsoDate('2026-11-22T10:15')).toMatchObject({ hasTime: true, utc: false })
    expect(parseIsoDate('2026-11-22 23:30-0530')?.serial).toBeCloseTo(serialOf('2026-11-23T05:00:00Z'), 9)
    expect(parseIsoDate('2026-11-22T10:15:30.250')?.serial).toBeCloseTo(
      serialOf('2026-11-22T10:15:30.250Z'),
      9,
    )
    expect(parseIsoDate('2026-11-22T10:15')?.hasTime).toBe(true)
  })

  it('leaves impossible, ambiguous and unshowable dates as text', () => {
    for (const text of [
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-11-31',
      '2026-11-22T24:00',
      '2026-11-22T10:60',
      '2026-11-22T10:15+15:00',
      '1899-12-31',
      '1900-02-28',
      '0099-01-01',
      '22-11-2026',
      '2026/11/22',
      '2026-11-22 ',
      '2026-11-22x',
      '20261122',
      'a0000000-0000-4000-8000-000000000002',
      '',
    ]) {
      expect(parseIsoDate(text), text).toBeNull()
    }
  })
})

describe('cleanCellText', () => {
  it('returns ordinary text unchanged', () => {
    expect(cleanCellText("Zoë O'Brien 李 🙂\ttab\nline")).toEqual({
      text: "Zoë O'Brien 李 🙂\ttab\nline",
      truncated: false,
    })
  })

  it('drops what XML cannot carry, writes line breaks as LF and mends broken surrogates', () => {
    expect(cleanCellText('a\u0000b\u0007c\u001Fd\u007Fe\uFFFEf').text).toBe('abcdef')
    expect(cleanCellText('one\r\ntwo\rthree').text).toBe('one\ntwo\nthree')
    expect(cleanCellText('half \uD83D pair').text).toBe('half \uFFFD pair')
  })

  it("cuts text at Excel's limit without splitting a character", () => {
    const exact = 'y'.repeat(EXCEL_MAX_CELL_CHARS)
    expect(cleanCellText(exact)).toEqual({ text: exact, truncated: false })
    expect(cleanCellText(`${exact}z`)).toEqual({ text: exact, truncated: true })
    const emojiAtEdge = `${'y'.repeat(EXCEL_MAX_CELL_CHARS - 1)}🙂`
    expect(cleanCellText(emojiAtEdge)).toEqual({
      text: 'y'.repeat(EXCEL_MAX_CELL_CHARS - 1),
      truncated: true,
    })
  })
})

describe('looksLikeFormula', () => {
  it('flags the characters OWASP lists for CSV injection', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
      expect(looksLikeFormula(text), text).toBe(true)
    for (const text of ['', 'Anna', ' =1', "'=1", '1-2', 'a@b.example'])
      expect(looksLikeFormula(text), text).toBe(false)
  })
})
