import type { ColumnInfo } from '../../../shared/domain/rows'
import { isMoneyColumn } from '../../../shared/money'
import type { ColumnLayout } from '../hooks/use-visible-columns'

/**
 * Wider for fields that are long by nature, narrower for short ones; rem so the grid scales with zoom and system
 * font size. The default columns (use-visible-columns.ts) at these widths all fit the grid at 1366 px with the
 * filter panel beside them and a 17 px scroll bar (test/e2e/ui-week-three-table.test.ts measures it): a name,
 * a department or a job title longer than its column ends in "…", and is whole in the detail panel.
 */
const BY_KEY: Readonly<Record<string, number>> = {
  UUID: 21,
  managerUUID: 21,
  email: 17,
  jobTitle: 12,
  department: 10,
  lastName: 8.5,
  firstName: 8,
  employeeStatus: 6.5,
  employeeNumber: 7.5,
  payCycleId: 7.5,
  hireDate: 7,
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
/** Room a header needs besides its words: padding, the sort arrow and the gap before it (app.css). */
const HEADER_CHROME_REM = 1.9
/** A bold header character is about this wide in the UI font; generous, so a heading's words are never cut. */
const HEADER_CHAR_REM = 0.6

/**
 * The characters of a heading's longer line once it is set on at most two lines, broken between words where the
 * longer line is shortest ("Employee number": 8, "Employee" over "number"); a header wraps onto two lines.
 */
export function headingLineChars(label: string): number {
  const words = label.trim().split(/\s+/)
  let best = label.trim().length
  for (let split = 1; split < words.length; split++) {
    const first = words.slice(0, split).join(' ').length
    const second = words.slice(split).join(' ').length
    best = Math.min(best, Math.max(first, second))
  }
  return best
}

/** A column's default width in rem: what its values need, and never narrower than its heading's two lines. */
export function defaultWidthRem(column: ColumnInfo): number {
  const byContent =
    (Object.hasOwn(BY_KEY, column.key) ? BY_KEY[column.key] : undefined) ??
    (isMoneyColumn(column) ? MONEY_REM : BY_KIND[column.kind])
  const byHeading = headingLineChars(column.label) * HEADER_CHAR_REM + HEADER_CHROME_REM
  return Math.max(byContent, Math.ceil(byHeading * 2) / 2)
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
