import type { JsonValue } from '../../../shared/domain/rows'
import { cellText } from '../../../shared/cell-text'
import { formatNumber } from '../../../shared/locale-format'
import { displayLocale } from './display-locale'

/**
 * A cell's text: every JSON value the service can send, shown as a clerk would read it. Given the field's `key`,
 * an amount in a money field gets two decimals ("58,234.50"), a date the clerk's order ("27.11.2026" in de-DE), all
 * in the clerk's regional formats (display-locale.ts), with the `currency` code given (see `rowCurrency`); the rule
 * is shared with the printed page (shared/cell-text.ts, shared/money.ts, shared/locale-format.ts).
 */
export function formatValue(value: JsonValue | undefined, key?: string, currency?: string): string {
  return cellText(value, key, displayLocale(), currency)
}

/** Counts with the clerk's thousands separators ("12,345"; "12.345" in de-DE). */
export function formatCount(value: number): string {
  return formatNumber(value, displayLocale())
}

/** "1 employee" / "2 employees". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`
}
