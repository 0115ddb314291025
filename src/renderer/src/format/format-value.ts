import type { JsonValue } from '../../../shared/domain'
import { cellText } from '../../../shared/cell-text'

const numberFormat = new Intl.NumberFormat('en')

/**
 * A cell's text: every JSON value the service can send, shown as a clerk would read it. Given the field's `key`,
 * an amount in a money field gets two decimals ("58,234.50"); the rule is shared with the printed page and the
 * export (shared/cell-text.ts, shared/money.ts), with the `currency` code given (see `rowCurrency`).
 */
export function formatValue(value: JsonValue | undefined, key?: string, currency?: string): string {
  return cellText(value, key, currency)
}

/** Counts with thousands separators ("12,345"). */
export function formatCount(value: number): string {
  return numberFormat.format(value)
}

/** "1 employee" / "2 employees". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`
}
