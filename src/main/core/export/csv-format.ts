import type { JsonValue } from '../../../shared/domain'
import { looksLikeFormula, nestedValueText } from './cell-values'

/** UTF-8 byte order mark: without it Excel reads a CSV in the machine's legacy code page and garbles names. */
export const CSV_BOM = '\uFEFF'
/** RFC 4180 line ending. */
export const CSV_EOL = '\r\n'

const NEEDS_QUOTES = /[",\r\n]/

/**
 * One CSV field, RFC 4180: quoted when it holds a comma, quote or line break, quotes doubled.
 *
 * Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading
 * apostrophe, as OWASP's CSV-injection guidance recommends: Excel and LibreOffice then show it as text, at
 * the cost of a visible `'` in other programs. The XLSX export needs no such prefix (its cells are typed text)
 * and so keeps such values exactly. Numbers are written as numbers, so -12.5 stays a number.
 */
export function csvField(value: JsonValue | undefined): string {
  let text: string
  if (value === null || value === undefined) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'string') text = looksLikeFormula(value) ? `'${value}` : value
  else {
    const nested = nestedValueText(value)
    text = looksLikeFormula(nested) ? `'${nested}` : nested
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One CSV record with its line ending. */
export function csvLine(fields: ReadonlyArray<JsonValue | undefined>): string {
  let line = ''
  for (let index = 0; index < fields.length; index++) {
    if (index > 0) line += ','
    line += csvField(fields[index])
  }
  return line + CSV_EOL
}
