import type { JsonValue } from './domain'
import { formatMoney, isMoneyValue } from './money'

const numberFormat = new Intl.NumberFormat('en')

/**
 * A value as a clerk reads it, the same in the table, the detail panel and the printed page: text as sent,
 * numbers with thousands separators, amounts in a money field (given its `key`) with two decimals
 * ("58,234.50", see money.ts; "EUR 58,234.50" given a `currency` from `rowCurrency`), Yes/No, and anything nested
 * as compact JSON.
 */
export function cellText(value: JsonValue | undefined, key?: string, currency?: string): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (key !== undefined && isMoneyValue(key, value)) return formatMoney(value, currency)
  if (typeof value === 'number') return numberFormat.format(value)
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  return JSON.stringify(value)
}
