/**
 * How one JSON value from the cache becomes one spreadsheet cell. Pure functions shared by the XLSX and CSV
 * writers so both formats make the same decisions.
 */

/** Excel counts days from 1899-12-30 (the 1900 leap-year quirk makes this right from 1900-03-01 on). */
const EXCEL_EPOCH_OFFSET_DAYS = 25569
const MS_PER_DAY = 86_400_000
/** 1900-03-01: Excel shows earlier serials a day off (it believes 1900 was a leap year), so they stay text. */
const FIRST_SAFE_SERIAL = 61
/** 9999-12-31 23:59:59.999, the last moment Excel can display. */
const LAST_SERIAL = 2_958_466

/** The most characters one Excel cell holds; longer text makes Excel repair the file. */
export const EXCEL_MAX_CELL_CHARS = 32_767

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/

/** An ISO 8601 date or date-time as an Excel serial number. */
export interface ExcelDate {
  readonly serial: number
  /** Whether the value carried a time of day (and so needs a date-time format, not a date format). */
  readonly hasTime: boolean
  /** Whether a time-zone offset was applied, moving the time to UTC. */
  readonly convertedToUtc: boolean
  /** Whether the value named its zone (`Z` or an offset), so the serial is UTC and the cell says so. */
  readonly utc: boolean
}

/**
 * Reads `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` and the same with `Z` or `±HH:MM`. Anything else, an
 * impossible date (2026-02-30) or one Excel cannot show correctly (before 1900-03-01) is not a date: null.
 * Times with an offset are converted to UTC, because a spreadsheet cell has no time zone; times without one are
 * kept as written.
 */
export function parseIsoDate(text: string): ExcelDate | null {
  // Cheap shape check first: this runs for every string cell of a large export.
  if (text.length < 10 || text.length > 40 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45)
    return null
  if (text.length === 10) return parseDateOnly(text)
  const match = ISO_DATE_TIME.exec(text)
  if (match === null) return null
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  const hour = Number(match[4])
  const minute = Number(match[5])
  const second = match[6] === undefined ? 0 : Number(match[6])
  const fraction = match[7] === undefined ? 0 : Number(`0.${match[7]}`)
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null
  let ms = daysSinceUnixEpoch(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000
  ms += Math.round(fraction * 1000)
  const zone = match[8]
  let convertedToUtc = false
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1
    const digits = zone.slice(1).replace(':', '')
    const offsetHours = Number(digits.slice(0, 2))
    const offsetMinutes = digits.length > 2 ? Number(digits.slice(2)) : 0
    if (offsetHours > 14 || offsetMinutes > 59) return null
    ms -= sign * (offsetHours * 60 + offsetMinutes) * 60_000
    convertedToUtc = offsetHours !== 0 || offsetMinutes !== 0
  }
  return excelDate(ms / MS_PER_DAY + EXCEL_EPOCH_OFFSET_DAYS, true, convertedToUtc, zone !== undefined)
}

/** `YYYY-MM-DD`, by character codes: the common case (hire dates) without a regular expression. */
function parseDateOnly(text: string): ExcelDate | null {
  const year = digits(text, 0, 4)
  const month = digits(text, 5, 7)
  const day = digits(text, 8, 10)
  if (year < 0 || month < 0 || day < 0 || !isCalendarDate(year, month, day)) return null
  return excelDate(daysSinceUnixEpoch(year, month, day) + EXCEL_EPOCH_OFFSET_DAYS, false, false, false)
}

function excelDate(
  serial: number,
  hasTime: boolean,
  convertedToUtc: boolean,
  utc: boolean,
): ExcelDate | null {
  if (serial < FIRST_SAFE_SERIAL || serial >= LAST_SERIAL) return null
  return { serial, hasTime, convertedToUtc, utc }
}

/** The decimal number in text[start, end), or -1 if any character there is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index) - 48
    if (code < 0 || code > 9) return -1
    value = value * 10 + code
  }
  return value
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number)
  return day <= days
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysSinceUnixEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** Characters XML 1.0 forbids (a file containing them does not open), plus DEL, which exceljs drops as well. */
// eslint-disable-next-line no-control-regex
const NEEDS_CLEANING = /[\u0000-\u0008\u000B-\u000D\u000E-\u001F\u007F\uD800-\uDFFF\uFFFE\uFFFF]/
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/g
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Text as an XLSX cell can hold it. */
export interface CellText {
  readonly text: string
  /** Whether the text was longer than Excel allows and was cut. */
  readonly truncated: boolean
}

/**
 * Makes text safe for an XLSX cell: drops characters XML cannot carry, writes line breaks as Excel does (LF;
 * an XML reader would turn CR into LF anyway), replaces broken surrogate halves with U+FFFD and cuts text
 * beyond Excel's per-cell limit. Ordinary text comes back unchanged and unallocated.
 */
export function cleanCellText(value: string): CellText {
  let text = value
  if (NEEDS_CLEANING.test(text)) {
    text = text.replace(/\r\n?/g, '\n').replace(FORBIDDEN_IN_XML, '').replace(LONE_SURROGATE, '\uFFFD')
  }
  if (text.length <= EXCEL_MAX_CELL_CHARS) return { text, truncated: false }
  let end = EXCEL_MAX_CELL_CHARS
  // Never split a surrogate pair: half a character would be replaced by U+FFFD on the way out.
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return { text: text.slice(0, end), truncated: true }
}

/**
 * Text that a spreadsheet program would run as a formula when it reads a CSV file (OWASP "CSV injection"):
 * a leading `=`, `+`, `-` or `@`, or a tab or carriage return that some programs skip before looking.
 */
export function looksLikeFormula(text: string): boolean {
  if (text.length === 0) return false
  const first = text.charCodeAt(0)
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13
}

/** A JSON value that is not a scalar (an array or object the service nested in a row), as compact JSON text. */
export function nestedValueText(value: unknown): string {
  return JSON.stringify(value) ?? ''
}
