import { FORMAT_LOCALES, type FormatLocaleSetting } from './settings-rules'

/**
 * The one place numbers, dates and times are written for a clerk to read: the table, the detail panel, the change
 * report, the messages (through `renderer/src/format/`) and the printed page (`core/export/print-page.ts`) all
 * format here, in the locale a clerk's regional settings name ("58.234,50", "27.11.2026" in Germany). UI text stays
 * English: only the digits, separators and the order of day, month and year follow the locale. Exports keep real
 * numbers and dates, so nothing here is used for a file's cells.
 */

/** The locale used when neither the setting nor the computer names one RosterDesk can format with. */
export const FALLBACK_FORMAT_LOCALE = 'en-US'

/**
 * A locale tag as Intl accepts it, or undefined: POSIX spellings ("de_DE", "de_DE.UTF-8") are read as BCP 47, and
 * "C"/"POSIX" (a Linux session without regional settings) or a tag Intl has no data for are not locales.
 */
export function canonicalLocale(tag: string | undefined): string | undefined {
  if (tag === undefined) return undefined
  const bcp47 = tag
    .trim()
    .replace(/[.@].*$/, '')
    .replace(/_/g, '-')
  if (bcp47 === '' || bcp47 === 'C' || bcp47 === 'POSIX') return undefined
  try {
    const [canonical] = Intl.getCanonicalLocales(bcp47)
    if (canonical === undefined) return undefined
    return Intl.NumberFormat.supportedLocalesOf([canonical]).length === 1 ? canonical : undefined
  } catch {
    return undefined
  }
}

/**
 * The locale the app formats in: the clerk's choice in Settings, or for 'system' the computer's regional settings
 * (`systemLocale`: Electron's `app.getSystemLocale()`, or the browser's locale where there is no Electron), and
 * `FALLBACK_FORMAT_LOCALE` when that names none.
 */
export function resolveFormatLocale(
  setting: FormatLocaleSetting | undefined,
  systemLocale: string | undefined,
): string {
  const chosen = setting === undefined || setting === 'system' ? undefined : canonicalLocale(setting)
  return chosen ?? canonicalLocale(systemLocale) ?? FALLBACK_FORMAT_LOCALE
}

/** "German (Germany) – 58.234,50 · 27.11.2026": a choice of the Settings list, named in English with a sample. */
export function formatLocaleLabel(setting: FormatLocaleSetting, systemLocale: string | undefined): string {
  const locale = resolveFormatLocale(setting, systemLocale)
  const sample = `${formatNumber(58_234.5, locale, 2)} · ${formatIsoDateText('2026-11-27', locale)}`
  if (setting === 'system') return `System (${languageName(locale)}) – ${sample}`
  return `${languageName(locale)} – ${sample}`
}

/** Every choice of the Settings list, 'system' first. */
export const FORMAT_LOCALE_CHOICES: readonly FormatLocaleSetting[] = FORMAT_LOCALES

function languageName(locale: string): string {
  try {
    return new Intl.DisplayNames('en', { type: 'language' }).of(locale) ?? locale
  } catch {
    return locale
  }
}

/** Formatters by locale and options: made once each, since the table formats thousands of cells. */
const numberFormats = new Map<string, Intl.NumberFormat>()
const dateFormats = new Map<string, Intl.DateTimeFormat>()

function numberFormat(locale: string, decimals: number | undefined): Intl.NumberFormat {
  const key = `${locale}|${decimals ?? ''}`
  let format = numberFormats.get(key)
  if (format === undefined) {
    format = new Intl.NumberFormat(
      locale,
      decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals },
    )
    numberFormats.set(key, format)
  }
  return format
}

/** A number as the locale writes it ("12.345" in de-DE, "12,345" in en-US); `decimals` fixes the fraction digits. */
export function formatNumber(value: number, locale: string, decimals?: number): string {
  return numberFormat(locale, decimals).format(value)
}

const DATE_PARTS: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' }
const TIME_PARTS: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' }

/** `zone` undefined: the computer's own (made per call, since the computer may have moved zone). */
function dateFormat(locale: string, withTime: boolean, zone: 'UTC' | undefined): Intl.DateTimeFormat {
  const options = {
    ...DATE_PARTS,
    ...(withTime ? TIME_PARTS : {}),
    ...(zone === undefined ? {} : { timeZone: zone }),
  }
  if (zone === undefined) return new Intl.DateTimeFormat(locale, options)
  const key = `${locale}|${withTime ? 't' : 'd'}`
  let format = dateFormats.get(key)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options)
    dateFormats.set(key, format)
  }
  return format
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/

/**
 * A date or date-time the service sent as ISO 8601 text, as the locale writes it, or undefined for any other text
 * (which is shown as sent). "2026-11-27" is "27.11.2026" in de-DE and "11/27/2026" in en-US, whatever the time
 * zone; a time with a zone ("…T08:12:00Z") is shown in the computer's zone, one without as written.
 */
export function formatIsoDateText(text: string, locale: string): string | undefined {
  // Cheap shape check first: this runs for every text cell the table draws.
  if (text.length < 10 || text.length > 40 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45)
    return undefined
  const match = ISO_DATE_TIME.exec(text)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const utc = Date.UTC(
    year,
    month - 1,
    day,
    Number(match[4] ?? 0),
    Number(match[5] ?? 0),
    Number(match[6] ?? 0),
  )
  const date = new Date(utc)
  // 2026-02-30 is not a date: the text stays as sent.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined
  if (match[4] === undefined) return dateFormat(locale, false, 'UTC').format(date)
  const zone = match[7]
  if (zone === undefined) return dateFormat(locale, true, 'UTC').format(date)
  const instant = Date.parse(zone.length === 3 ? `${text}:00` : text)
  return Number.isNaN(instant) ? undefined : dateFormat(locale, true, undefined).format(new Date(instant))
}

/**
 * A moment (a sync's start, a file's time) with its date and time: "27.11.2026, 09:12" in de-DE. In `timeZone`
 * when given (a printed page says which zone it used), else the computer's.
 */
export function formatMoment(date: Date, locale: string, timeZone?: string): string {
  if (timeZone === undefined) return dateFormat(locale, true, undefined).format(date)
  return new Intl.DateTimeFormat(locale, { ...DATE_PARTS, ...TIME_PARTS, timeZone }).format(date)
}

/** A calendar day in the computer's zone, without the year: "27.11." in de-DE, "11/27" in en-US. */
export function formatDayMonth(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric' }).format(date)
}

const WEEKDAY_OPTIONS: Intl.DateTimeFormatOptions = { weekday: 'short' }

/**
 * "Mon 23.11., 09:12" (de-DE), "Mon 11/23, 09:12 AM" (en-US): a moment a clerk places at a glance, in the
 * computer's zone, with the year only when it is not this year's ("Fri 20.11.2025, 09:12"). The weekday is a word,
 * so English (UI text stays English); the day, month, year and clock are the locale's digits and order.
 */
export function formatSyncMoment(date: Date, now: Date, locale: string): string {
  // Made per call: a formatter keeps the time zone it was made in, and the computer may have moved since.
  const weekday = new Intl.DateTimeFormat('en', WEEKDAY_OPTIONS).format(date)
  const year = (moment: Date): string => new Intl.DateTimeFormat('en', { year: 'numeric' }).format(moment)
  const day =
    year(date) === year(now)
      ? formatDayMonth(date, locale)
      : new Intl.DateTimeFormat(locale, DATE_PARTS).format(date)
  const time = new Intl.DateTimeFormat(locale, TIME_PARTS).format(date)
  return `${weekday} ${day}, ${time}`
}

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

/** English words ("yesterday", "3 hours ago"): UI text stays English; the count inside is the locale's. */
const relativeWords = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/**
 * "just now", "1 minute ago", "yesterday", "3 hours ago", "1.200 days ago" (de-DE): how long before `now` the
 * moment `then` was. The words are English, as all UI text is, so Intl.RelativeTimeFormat runs in English; the
 * count is written in `locale`'s digits and grouping (shared with every other number on screen). A moment slightly
 * in the future (clock skew) still reads "just now" rather than "in 3 seconds".
 */
export function formatRelativeTime(then: Date, now: Date, locale: string): string {
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000)
  if (seconds < 45) return 'just now'
  const [unit, size] = RELATIVE_UNITS.find(([, each]) => seconds >= each) ?? ['minute', 60]
  const count = Math.max(1, Math.floor(seconds / size))
  // The count comes as integer and group parts ("1", ",", "200"): the first of them stands for the whole count.
  let counted = false
  return relativeWords
    .formatToParts(-count, unit)
    .map((part) => {
      if (part.type === 'literal') return part.value
      if (counted) return ''
      counted = true
      return formatNumber(count, locale)
    })
    .join('')
}
