import type { ColumnInfo } from '../../../shared/domain'

/** Wider for fields that are long by nature; rem so the grid scales with zoom and system font size. */
const BY_KEY: Record<string, string> = {
  UUID: '21rem',
  managerUUID: '21rem',
  email: '17rem',
  jobTitle: '14rem',
  department: '12rem',
}
const BY_KIND: Record<ColumnInfo['kind'], string> = {
  text: '11rem',
  number: '8.5rem',
  date: '8.5rem',
  boolean: '6rem',
  mixed: '11rem',
}

/** The CSS grid track of a column. */
export function columnWidth(column: ColumnInfo): string {
  return BY_KEY[column.key] ?? BY_KIND[column.kind]
}

/** The grid template of a row of these columns. */
export function gridTemplate(columns: readonly ColumnInfo[]): string {
  return columns.map(columnWidth).join(' ')
}
