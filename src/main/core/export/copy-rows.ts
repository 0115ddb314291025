import type { ColumnInfo, EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { fieldOf } from '../../../shared/row-field'
import { columnLabel } from '../columns/column-label'
import { escapeHtml } from './html-text'

/** What a copy puts on the clipboard in one write: the same rows as tab-separated text and as an HTML table. */
export interface ClipboardContent {
  readonly text: string
  readonly html: string
}

/** Writes both on the system clipboard at once (the shell's `clipboard.write`); rejects when it cannot. */
export type ClipboardWriter = (content: ClipboardContent) => Promise<void>

/**
 * Whether a copy of `rows` rows is noted in the export record: more than one row. One employee's values are what a
 * clerk copies to look them up or write to them, not data leaving in bulk.
 */
export function copyIsRecorded(rows: number): boolean {
  return rows > 1
}

/**
 * The columns a copy carries, in the order asked (the table's), labelled as the table labels them: the one place a
 * copy's columns are decided, so a rule about which columns may leave (the machine policy's sensitive columns)
 * applies here. A column the saved employees no longer have (a sync since dropped the field) is kept, empty, under
 * its own label.
 */
export function copiedColumns(requested: readonly string[], known: readonly ColumnInfo[]): ColumnInfo[] {
  const byKey = new Map(known.map((column) => [column.key, column]))
  return requested.map(
    (key) => byKey.get(key) ?? { key, label: columnLabel(key), kind: 'text', known: false },
  )
}

/**
 * One value as a tab-separated cell that pastes as itself: the value as the service sent it (numbers without
 * thousands separators, so a spreadsheet reads them as numbers), tabs and line breaks inside it turned into spaces
 * (they would start a new cell or row), and text a spreadsheet would run as a formula (=, +, -, @ first) given a
 * leading apostrophe, the rule the CSV export follows too.
 */
export function tsvCell(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\r\n|[\t\r\n]/g, ' ')
  return /^[=+\-@]/.test(text) ? `'${text}` : text
}

/** An ISO date (2026-03-01, maybe with a time): left for the spreadsheet to read as a date, as the export does. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/

/**
 * One value as an HTML cell: text stays text as the export writes it (`mso-number-format:'\@'`, Excel's text
 * format, inline: the clipboard's HTML never goes through the page or its CSP), so an employee number keeps its
 * leading zeros; numbers, booleans and ISO dates stay plain for the spreadsheet to read.
 */
function htmlCell(value: JsonValue | undefined, tag: 'td' | 'th'): string {
  if (value === undefined || value === null) return `<${tag}></${tag}>`
  if (typeof value === 'number' || typeof value === 'boolean') return `<${tag}>${String(value)}</${tag}>`
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  if (ISO_DATE.test(text)) return `<${tag}>${escapeHtml(text)}</${tag}>`
  return `<${tag} style="mso-number-format:'\\@'">${escapeHtml(text)}</${tag}>`
}

/**
 * The rows as the clipboard gets them: tab-separated text (the columns' labels first when `headers`, CRLF between
 * rows and after the last, as Excel writes them; without headers, one line per row and no line break after the
 * last, as one column's values paste into a text field) and the same cells as an HTML `<table>`, which Excel and
 * LibreOffice read before the text.
 */
export function clipboardContent(
  columns: readonly ColumnInfo[],
  rows: readonly EmployeeRow[],
  headers: boolean,
): ClipboardContent {
  const lines = rows.map((row) => columns.map((column) => tsvCell(fieldOf(row, column.key))).join('\t'))
  const text = headers
    ? `${[columns.map((column) => tsvCell(column.label)).join('\t'), ...lines].join('\r\n')}\r\n`
    : lines.join('\r\n')
  const htmlRows = [
    ...(headers ? [`<tr>${columns.map((column) => htmlCell(column.label, 'th')).join('')}</tr>`] : []),
    ...rows.map(
      (row) => `<tr>${columns.map((column) => htmlCell(fieldOf(row, column.key), 'td')).join('')}</tr>`,
    ),
  ]
  return { text, html: `<table>${htmlRows.join('')}</table>` }
}
