import type { ColumnInfo } from '../../../shared/domain/rows'
import { isMoneyColumn } from '../../../shared/money'
import type { ColumnLayout } from '../hooks/use-visible-columns'

/**
 * Wider for fields that are long by nature, narrower for short ones; rem so the grid scales with zoom and system
 * font size. The default columns (use-visible-columns.ts) at these widths show last name through the pay data at
 * 1366 px with the filter panel beside them (test/e2e/ui-pay-data.test.ts measures it).
 */
const BY_KEY: Readonly<Record<string, number>> = {
  UUID: 21,
  managerUUID: 21,
  email: 17,
  jobTitle: 14,
  department: 12,
  lastName: 10,
  firstName: 9,
  employeeStatus: 7,
  payCycleId: 8.5,
}
const BY_KIND: Record<ColumnInfo['kind'], number> = {
  text: 11,
  number: 8.5,
  date: 8.5,
  boolean: 6,
  mixed: 11,
}
/**
 * A money column (shared/money.ts `isMoneyColumn`): room for tens of millions with a currency code and a sign in
 * any locale's separators ("-EUR 12,345,678.90", "12.345.678,90 EUR"), so a large salary is never cut with "…".
 */
const MONEY_REM = 12
/** Room a header needs besides its words: padding, the sort arrow and the resize grip. */
const HEADER_CHROME_REM = 2.6
/** A bold header character is about this wide in the UI font; generous, so "Employee number" is never cut. */
const HEADER_CHAR_REM = 0.6

/** A column's default width in rem: what its values need, and never narrower than its header's words. */
export function defaultWidthRem(column: ColumnInfo): number {
  const byContent =
    (Object.hasOwn(BY_KEY, column.key) ? BY_KEY[column.key] : undefined) ??
    (isMoneyColumn(column) ? MONEY_REM : BY_KIND[column.kind])
  return Math.max(byContent, Math.ceil((column.label.length * HEADER_CHAR_REM + HEADER_CHROME_REM) * 2) / 2)
}

/** The CSS width of a column: the one the clerk set (CSS pixels), else its default. */
export function columnWidth(column: ColumnInfo, widths: ColumnLayout['widths'] = {}): string {
  const set = Object.hasOwn(widths, column.key) ? widths[column.key] : undefined
  return set === undefined ? `${defaultWidthRem(column)}rem` : `${set}px`
}

/** The grid template of a row of these columns. */
export function gridTemplate(columns: readonly ColumnInfo[], widths: ColumnLayout['widths'] = {}): string {
  return columns.map((column) => columnWidth(column, widths)).join(' ')
}

/** The sum of some columns' widths, as CSS: where a frozen column starts, or how wide a whole row is. */
export function widthSum(columns: readonly ColumnInfo[], widths: ColumnLayout['widths'] = {}): string {
  if (columns.length === 0) return '0px'
  return `calc(${columns.map((column) => columnWidth(column, widths)).join(' + ')})`
}
