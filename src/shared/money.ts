/**
 * Which fields hold money, and how an amount is written: the one rule the detail panel, the table's cells, the
 * printed page and both export formats follow, so "58,234.50" reads the same everywhere.
 *
 * The spec shows four fields (none of them money) and calls the rest "not shown", and a number's value cannot say
 * whether it is an amount, a count of hours or a percentage; so the field's name decides, word by word
 * (`annualSalary`, `hourlyRate`, `bonus_amount`), and only for values sent as JSON numbers: text stays as sent.
 * The service names no currency, so amounts get two decimal places and no symbol.
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

const moneyFormats = new Map<string, Intl.NumberFormat>()

/**
 * An amount as a clerk reads it, in `locale` (the clerk's regional formats, shared/locale-format.ts; 'en' where no
 * clerk reads it, such as measuring a column): "58,234.50" in en, "58.234,50" in de-DE, "-1,200.00".
 */
export function formatMoney(value: number, locale = 'en'): string {
  let format = moneyFormats.get(locale)
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: MONEY_DECIMALS,
      maximumFractionDigits: MONEY_DECIMALS,
    })
    moneyFormats.set(locale, format)
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
