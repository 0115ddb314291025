import type { ColumnInfo, EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { MAX_EXPORT_UUIDS } from '../../../shared/export-limits'
import { fieldOf } from '../../../shared/row-field'

/** Rows one copy (or export of selected rows) takes: more is meant for an export of the whole view. */
export const MAX_COPY_ROWS = MAX_EXPORT_UUIDS

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

/** A header row of the columns' labels, then a row per employee, CRLF between rows as Excel writes them. */
export function toTsv(columns: readonly ColumnInfo[], rows: readonly EmployeeRow[]): string {
  const lines = [
    columns.map((column) => tsvCell(column.label)).join('\t'),
    ...rows.map((row) => columns.map((column) => tsvCell(fieldOf(row, column.key))).join('\t')),
  ]
  return `${lines.join('\r\n')}\r\n`
}

/** One field of each row, a line each (the employee numbers of the selection, say). */
export function toLines(key: string, rows: readonly EmployeeRow[]): string {
  return rows.map((row) => tsvCell(fieldOf(row, key))).join('\r\n')
}

/** An ISO date (2026-03-01, maybe with a time): left for the spreadsheet to read as a date, as the export does. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)
}

/**
 * One value as an HTML cell for the clipboard's `text/html`, which Excel and LibreOffice read before the text:
 * text stays text as the export writes it (`mso-number-format:"\@"`, Excel's text format, as a style attribute:
 * Chromium's sanitizing write keeps attributes but drops a style sheet), so an employee number keeps its leading
 * zeros; numbers, booleans and ISO dates stay plain for the spreadsheet to read.
 */
function htmlCell(value: JsonValue | undefined, tag: 'td' | 'th'): string {
  if (value === undefined || value === null) return `<${tag}></${tag}>`
  if (typeof value === 'number' || typeof value === 'boolean') return `<${tag}>${String(value)}</${tag}>`
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  if (ISO_DATE.test(text)) return `<${tag}>${escapeHtml(text)}</${tag}>`
  return `<${tag} style="mso-number-format:'\\@'">${escapeHtml(text)}</${tag}>`
}

/** The rows as an HTML table (the headers first, when given): what a copy puts beside toTsv's text. */
export function toHtmlTable(
  columns: readonly ColumnInfo[],
  rows: readonly EmployeeRow[],
  headers = true,
): string {
  const lines = [
    ...(headers ? [`<tr>${columns.map((column) => htmlCell(column.label, 'th')).join('')}</tr>`] : []),
    ...rows.map(
      (row) => `<tr>${columns.map((column) => htmlCell(fieldOf(row, column.key), 'td')).join('')}</tr>`,
    ),
  ]
  return `<table>${lines.join('')}</table>`
}
