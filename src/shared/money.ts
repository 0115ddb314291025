/**
 * Which fields hold money, and how an amount is written: the one rule the detail panel, the table's cells, the
 * printed page and both export formats follow, so "58,234.50" reads the same everywhere.
 *
 * The spec shows four fields (none of them money) and calls the rest "not shown", and a number's value cannot say
 * whether it is an amount, a count of hours or a percentage; so the field's name decides, word by word
 * (`annualSalary`, `hourlyRate`, `bonus_amount`), and only for values sent as JSON numbers: text stays as sent.
 * The spec names no currency: an amount gets one when its row names it (`currency`, `currencyCode`: an ISO 4217
 * code such as "EUR"), else the profile's currency setting (none by default), else none; always two decimals.
 * This is the one place that writes an amount for a clerk (`formatMoney`, in their regional formats).
 */

/** Words that make a numeric field an amount of money. */
const MONEY_WORDS: ReadonlySet<string> = new Set([
  'salary',
  'salaries',
  'wage',
  'wages',
  'pay',
  'payment',
  'amount',
  'rate',
  'fee',
  'fees',
  'bonus',
  'allowance',
  'commission',
  'compensation',
  'earnings',
  'gross',
  'net',
  'price',
  'cost',
  'deduction',
  'deductions',
  'reimbursement',
  'stipend',
  'balance',
])

/** Words that make a field a share, a count or a code, whatever money word stands beside them. */
const NOT_MONEY_WORDS: ReadonlySet<string> = new Set([
  'percent',
  'percentage',
  'pct',
  'ratio',
  'factor',
  'hours',
  'days',
  'count',
  'number',
  'id',
  'code',
  'cycle',
  'centre',
  'center',
])

/** A "rate" that is a share rather than an amount per hour or day (`taxRate`, `interestRate`). */
const SHARE_RATE_WORDS: ReadonlySet<string> = new Set(['tax', 'interest', 'exchange', 'growth', 'turnover'])

/** A field name's words, lower case: `annualSalary` → annual, salary; `hourly_rate2` → hourly, rate. */
function fieldWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word !== '')
}

/** Whether a field holds amounts of money (when its value is a number; see `isMoneyValue`). */
export function isMoneyField(key: string): boolean {
  const words = fieldWords(key)
  if (words.some((word) => NOT_MONEY_WORDS.has(word))) return false
  if (!words.some((word) => MONEY_WORDS.has(word))) return false
  const onlyRate = words.filter((word) => MONEY_WORDS.has(word)).every((word) => word === 'rate')
  return !(onlyRate && words.some((word) => SHARE_RATE_WORDS.has(word)))
}

/** Whether one value of field `key` is shown as money: a finite number in a money field. */
export function isMoneyValue(key: string, value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && isMoneyField(key)
}

/** Two decimal places, as both the app and the spreadsheet (`MONEY_NUMBER_FORMAT`) show amounts. */
export const MONEY_DECIMALS = 2

/** The spreadsheet number format of money cells: thousands separated, two decimals (58,234.50). */
export const MONEY_NUMBER_FORMAT = '#,##0.00'

/** The fields of a row that may name its amounts' currency, first found first. */
export const CURRENCY_FIELDS: readonly string[] = ['currency', 'currencyCode']

const CURRENCY_CODE = /^[A-Z]{3}$/

/** An ISO 4217 code as written ("eur " → "EUR"), or undefined when `value` is not one. */
export function currencyCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const code = value.trim().toUpperCase()
  if (!CURRENCY_CODE.test(code)) return undefined
  try {
    // Intl refuses only malformed codes; an unknown but well-formed one is still shown as the data says it.
    new Intl.NumberFormat('en', { style: 'currency', currency: code })
    return code
  } catch {
    return undefined
  }
}

/**
 * The currency of a row's amounts: the one the row names (`CURRENCY_FIELDS`), else `fallback` (the profile's
 * currency setting, '' for none), else undefined.
 */
export function rowCurrency(
  row: Readonly<Record<string, unknown>> | undefined,
  fallback = '',
): string | undefined {
  if (row !== undefined) {
    for (const field of CURRENCY_FIELDS) {
      if (Object.hasOwn(row, field)) {
        const code = currencyCode(row[field])
        if (code !== undefined) return code
      }
    }
  }
  return currencyCode(fallback)
}

/** Whether a column is a money column: numbers in a field whose name says money (`isMoneyField`). */
export function isMoneyColumn(column: { readonly key: string; readonly kind: string }): boolean {
  return column.kind === 'number' && isMoneyField(column.key)
}

const moneyFormats = new Map<string, Intl.NumberFormat>()

/**
 * An amount as a clerk reads it, in `locale` (the clerk's regional formats, shared/locale-format.ts; 'en' where no
 * clerk reads it, such as measuring a column): "58,234.50" in en, "58.234,50" in de-DE, "-1,200.00"; with a
 * currency code when one is known ("EUR 58,234.50"), `currency` coming from `currencyCode` or `rowCurrency`.
 * One formatter per locale and currency, made once: the table formats thousands of cells a second.
 */
export function formatMoney(value: number, locale = 'en', currency?: string): string {
  const key = currency === undefined ? locale : `${locale} ${currency}`
  let format = moneyFormats.get(key)
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: MONEY_DECIMALS,
      maximumFractionDigits: MONEY_DECIMALS,
      // The code, not a symbol: "$" is a dozen currencies, and a code lines up in a right-aligned column.
      ...(currency === undefined ? {} : { style: 'currency', currency, currencyDisplay: 'code' }),
    })
    moneyFormats.set(key, format)
  }
  return format.format(value)
}

/**
 * An amount as CSV text: two decimals and no separators ("58234.50"), which spreadsheets still read as a number;
 * an amount with more decimals keeps them all, because a file must not round what the service sent.
 */
export function moneyCsvText(value: number): string {
  const fixed = value.toFixed(MONEY_DECIMALS)
  return Number(fixed) === value ? fixed : String(value)
}
