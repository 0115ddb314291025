import { formatMoment } from '../../../shared/locale-format'

/**
 * Moments written into an export as text that carries its own time zone: "2026-11-25 09:12 (UTC+01:00,
 * Europe/Berlin)". A spreadsheet cell has no zone, and a file is read later, elsewhere, or after the clocks changed,
 * so a bare "09:12" is ambiguous; the offset makes the moment exact and the zone's name says where it was read.
 */

/** The computer's IANA time zone ("Europe/Berlin"), as the clerk's clock shows times. */
export function localTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone
}

const pad = (value: number): string => String(value).padStart(2, '0')

/** "+01:00", "-05:30", "+00:00": the zone's offset from UTC at `date` (summer time included). */
export function utcOffset(date: Date, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(date)
    .find((part) => part.type === 'timeZoneName')?.value
  // ICU writes "GMT+01:00", or plain "GMT" for a zero offset in some versions (and may use a true minus sign).
  const offset = name?.replace(/^GMT/, '').replace('\u2212', '-') ?? ''
  return offset === '' ? '+00:00' : offset
}

/**
 * `date` as "YYYY-MM-DD HH:MM (UTC±HH:MM, Zone/Name)" in `timeZone`: a file's text, the same wherever it is opened.
 * Given a `locale` (a printed page, which a clerk reads), the date and time are that locale's instead
 * ("22.11.2026, 10:45 (UTC+01:00, Europe/Berlin)", shared/locale-format.ts).
 */
export function formatZonedTime(date: Date, timeZone: string, locale?: string): string {
  if (locale !== undefined)
    return `${formatMoment(date, locale, timeZone)} (UTC${utcOffset(date, timeZone)}, ${timeZone})`
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(date)
  const field = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((part) => part.type === type)?.value)
  const day = `${field('year')}-${pad(field('month'))}-${pad(field('day'))}`
  const time = `${pad(field('hour'))}:${pad(field('minute'))}`
  return `${day} ${time} (UTC${utcOffset(date, timeZone)}, ${timeZone})`
}
