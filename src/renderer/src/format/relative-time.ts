import {
  formatMoment,
  formatRelativeTime as relativeTimeIn,
  formatSyncMoment as syncMomentIn,
} from '../../../shared/locale-format'
import { displayLocale } from './display-locale'

/**
 * "2 hours ago", "yesterday", "just now": how long ago `iso` was, seen from `now`, in the clerk's regional formats
 * (shared/locale-format.ts `formatRelativeTime`: English words, the locale's digits).
 */
export function formatRelativeTime(iso: string, now: number): string {
  const then = Date.parse(iso)
  if (Number.isNaN(then)) return 'at an unknown time'
  return relativeTimeIn(new Date(then), new Date(now), displayLocale())
}

/** A full local date and time for tooltips next to a relative time, in the clerk's regional formats. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return formatMoment(date, displayLocale())
}

/**
 * "Mon 23.11., 09:12" in de-DE, "Mon 11/23, 09:12 AM" in en-US: a sync's moment in the computer's time zone, with
 * the year only when it is not this year's (shared/locale-format.ts `formatSyncMoment`).
 */
export function formatSyncMoment(iso: string, now: number): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return syncMomentIn(date, new Date(now), displayLocale())
}
