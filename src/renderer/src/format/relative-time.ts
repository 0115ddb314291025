import { formatMoment } from '../../../shared/locale-format'
import { displayLocale } from './display-locale'

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

// Words, so English whatever the regional formats (UI text stays English).
const formatter = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/**
 * "2 hours ago", "yesterday", "just now": how long ago `iso` was, seen from `now`. Clock skew that puts the time
 * slightly in the future still reads "just now" rather than "in 3 seconds".
 */
export function formatRelativeTime(iso: string, now: number): string {
  const then = Date.parse(iso)
  if (Number.isNaN(then)) return 'at an unknown time'
  const seconds = Math.round((now - then) / 1000)
  if (seconds < 45) return 'just now'
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return formatter.format(-Math.floor(seconds / size), unit)
  }
  return formatter.format(-1, 'minute')
}

/** A full local date and time for tooltips next to a relative time, in the clerk's regional formats. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return formatMoment(date, displayLocale())
}

const MOMENT_OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
}

/**
 * "Mon 23 Nov, 09:12" in the computer's time zone, with the year only when it is not this year's: a moment a clerk
 * places at a glance. Put together from parts, so the punctuation does not change with the locale data shipped.
 */
export function formatSyncMoment(iso: string, now: number): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const part = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((each) => each.type === type)?.value ?? ''
  // Made per call: a formatter keeps the time zone it was made in, and the computer may have moved since.
  const format = new Intl.DateTimeFormat('en-GB', MOMENT_OPTIONS)
  const parts = format.formatToParts(date)
  const year = part(parts, 'year')
  const sameYear = year === part(format.formatToParts(new Date(now)), 'year')
  const day = `${part(parts, 'weekday')} ${part(parts, 'day')} ${part(parts, 'month')}`
  return `${day}${sameYear ? '' : ` ${year}`}, ${part(parts, 'hour')}:${part(parts, 'minute')}`
}
