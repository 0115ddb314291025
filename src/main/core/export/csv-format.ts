import type { JsonValue } from '../../../shared/domain/rows'
import { looksLikeFormula, nestedValueText } from './cell-values'

/** UTF-8 byte order mark: without it Excel reads a CSV in the machine's legacy code page and garbles names. */
export const CSV_BOM = '\uFEFF'
/** RFC 4180 line ending. */
export const CSV_EOL = '\r\n'

const NEEDS_QUOTES = /[",\r\n]/
/**
 * Control characters other than tab and line breaks: a NUL ends the text early in many readers (Python's csv
 * refuses the file, Excel cuts the cell), and escape sequences would act on a terminal that prints the file.
 */
// eslint-disable-next-line no-control-regex
const BREAKS_READERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g

/**
 * One CSV field, RFC 4180: quoted when it holds a comma, quote or line break, quotes doubled; control characters
 * that break readers (BREAKS_READERS) are dropped.
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
  if (typeof value === 'string') {
    const clean = value.replace(BREAKS_READERS, '')
    text = looksLikeFormula(clean) ? `'${clean}` : clean
  } else {
    const nested = nestedValueText(value).replace(BREAKS_READERS, '')
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
