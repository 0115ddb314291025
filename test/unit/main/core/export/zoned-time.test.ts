import { describe, expect, it } from 'vitest'
import { formatZonedTime, localTimeZone, utcOffset } from '../../../../../src/main/core/export/zoned-time'

describe('times that name their zone', () => {
  it('writes the wall-clock time in the zone, its offset that day and the zone’s name', () => {
    const moment = new Date('2026-11-25T08:12:40Z')
    expect(formatZonedTime(moment, 'Europe/Berlin')).toBe('2026-11-25 09:12 (UTC+01:00, Europe/Berlin)')
    expect(formatZonedTime(moment, 'Asia/Kolkata')).toBe('2026-11-25 13:42 (UTC+05:30, Asia/Kolkata)')
    expect(formatZonedTime(moment, 'America/St_Johns')).toBe('2026-11-25 04:42 (UTC-03:30, America/St_Johns)')
    expect(formatZonedTime(moment, 'UTC')).toBe('2026-11-25 08:12 (UTC+00:00, UTC)')
  })

  it('follows summer time, and the date the zone is on', () => {
    // Berlin moves its clocks at 01:00 UTC on the last Sunday of March.
    expect(formatZonedTime(new Date('2026-03-29T00:59:00Z'), 'Europe/Berlin')).toBe(
      '2026-03-29 01:59 (UTC+01:00, Europe/Berlin)',
    )
    expect(formatZonedTime(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe(
      '2026-03-29 03:00 (UTC+02:00, Europe/Berlin)',
    )
    // Late evening in New York is already tomorrow in UTC; the zone's own date is written.
    expect(formatZonedTime(new Date('2026-07-02T02:30:00Z'), 'America/New_York')).toBe(
      '2026-07-01 22:30 (UTC-04:00, America/New_York)',
    )
    // Midnight is 00, never 24.
    expect(formatZonedTime(new Date('2026-07-01T22:00:00Z'), 'Europe/Berlin')).toBe(
      '2026-07-02 00:00 (UTC+02:00, Europe/Berlin)',
    )
  })

  it('writes a zero offset as +00:00, and defaults to the computer’s zone by name', () => {
    expect(utcOffset(new Date('2026-01-15T12:00:00Z'), 'Europe/London')).toBe('+00:00')
    expect(utcOffset(new Date('2026-07-15T12:00:00Z'), 'Europe/London')).toBe('+01:00')
    expect(localTimeZone()).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone)
    expect(localTimeZone()).not.toBe('')
  })
})
