import type { ColumnInfo, EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { MAX_EXPORT_UUIDS } from '../../../shared/export-limits'
import { sensitiveColumnsIncluded, type ExportRulesView } from '../../../shared/policy-view'
import { fieldOf } from '../../../shared/row-field'
import { isSensitiveField } from '../../../shared/sensitive-fields'

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

/**
 * The columns a copy of rows writes: those shown, in screen order, but a sensitive one (shared/sensitive-fields.ts)
 * only where the machine policy lets sensitive columns leave (`sensitiveColumnsIncluded`: a copy asks nothing, so
 * under `ask` they stay) and it is not masked on screen (`masked`, use-pay-display.ts's `isMasked`).
 */
export function copiedColumns(
  columns: readonly ColumnInfo[],
  rules: Pick<ExportRulesView, 'sensitiveColumns'>,
  masked: (key: string) => boolean,
): ColumnInfo[] {
  const included = sensitiveColumnsIncluded(rules)
  return columns.filter((column) => !isSensitiveField(column.key) || (included && !masked(column.key)))
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
