import type { JsonValue } from './domain/rows'
import { formatIsoDateText, formatNumber } from './locale-format'
import { formatMoney, isMoneyValue } from './money'

/**
 * A value as a clerk reads it, the same in the table, the detail panel and the printed page, in `locale` (the
 * clerk's regional formats, locale-format.ts): text as sent, except an ISO date or date-time, written as the locale
 * writes dates ("27.11.2026" in de-DE); numbers with the locale's separators; amounts in a money field (given its
 * `key`) with two decimals ("58.234,50" in de-DE, see money.ts; "EUR 58,234.50" given a `currency` from
 * `rowCurrency`); Yes/No; anything nested as compact JSON.
 */
export function cellText(
  value: JsonValue | undefined,
  key: string | undefined,
  locale: string,
  currency?: string,
): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return formatIsoDateText(value, locale) ?? value
  if (key !== undefined && isMoneyValue(key, value)) return formatMoney(value, locale, currency)
  if (typeof value === 'number') return formatNumber(value, locale)
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  return JSON.stringify(value)
}
