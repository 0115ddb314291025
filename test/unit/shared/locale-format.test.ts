import { describe, expect, it } from 'vitest'
import { cellText } from '../../../src/shared/cell-text'
import {
  canonicalLocale,
  formatIsoDateText,
  formatLocaleLabel,
  formatDayMonth,
  formatMoment,
  formatNumber,
  formatRelativeTime,
  formatSyncMoment,
  resolveFormatLocale,
} from '../../../src/shared/locale-format'
import { formatMoney } from '../../../src/shared/money'
import { printPageHtml } from '../../../src/main/core/export/print-page'
import type { ExportAbout, ExportColumn } from '../../../src/main/core/export/export-types'
import type { EmployeeRow } from '../../../src/shared/domain/rows'

/**
 * The one formatting module (shared/locale-format.ts) and the cell rule over it: what a clerk reads in Germany,
 * the US and France, and how Settings' choice wins over the computer's regional settings.
 */

describe('numbers, amounts and dates in the clerk’s regional formats', () => {
  it('writes them as Germany does', () => {
    expect(cellText(58234.5, 'annualSalary', 'de-DE')).toBe('58.234,50')
    expect(cellText(12345, 'weeklyHours', 'de-DE')).toBe('12.345')
    expect(cellText('2026-11-27', 'hireDate', 'de-DE')).toBe('27.11.2026')
    expect(formatMoney(-1200, 'de-DE')).toBe('-1.200,00')
    expect(formatNumber(100000, 'de-DE')).toBe('100.000')
  })

  it('writes them as the US does', () => {
    expect(cellText(58234.5, 'annualSalary', 'en-US')).toBe('58,234.50')
    expect(cellText(12345, 'weeklyHours', 'en-US')).toBe('12,345')
    expect(cellText('2026-11-27', 'hireDate', 'en-US')).toBe('11/27/2026')
  })

  it('writes them as France does (narrow no-break spaces between thousands)', () => {
    expect(cellText(58234.5, 'annualSalary', 'fr-FR')).toBe('58\u202f234,50')
    expect(cellText('2026-11-27', 'hireDate', 'fr-FR')).toBe('27/11/2026')
  })

  it('keeps the calendar day whatever the time zone, and text that is no date as sent', () => {
    // A date-only value is a day, not a moment: no zone may move it to the 26th.
    expect(formatIsoDateText('2026-01-01', 'de-DE')).toBe('01.01.2026')
    expect(formatIsoDateText('2026-02-30', 'de-DE')).toBeUndefined()
    expect(cellText('2026-02-30', 'hireDate', 'de-DE')).toBe('2026-02-30')
    expect(cellText('PC-2026-11-A', 'payCycle', 'de-DE')).toBe('PC-2026-11-A')
    expect(cellText('000123', 'employeeNumber', 'de-DE')).toBe('000123')
    // A time without a zone is shown as written; one with a zone is a moment, shown in the computer's zone.
    expect(formatIsoDateText('2026-11-27T09:12', 'de-DE')).toBe('27.11.2026, 09:12')
    const moment = formatIsoDateText('2026-11-27T08:12:00Z', 'de-DE')
    expect(moment).toBe(formatMoment(new Date('2026-11-27T08:12:00Z'), 'de-DE'))
    expect(moment).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)
  })

  it('keeps UI words English: Yes and No', () => {
    expect(cellText(true, 'active', 'de-DE')).toBe('Yes')
    expect(cellText(false, 'active', 'fr-FR')).toBe('No')
  })
})

describe('moments and how long ago, English words in the clerk’s formats', () => {
  // In UTC and Europe/Berlin alike these moments fall on the days written below (morning hours, no zone is a day off).
  const now = new Date('2026-11-23T09:12:00')
  const ago = (seconds: number): Date => new Date(now.getTime() - seconds * 1000)

  it('writes a sync’s moment with an English weekday and the locale’s day, month and clock', () => {
    expect(formatSyncMoment(ago(2 * 3600), now, 'de-DE')).toBe('Mon 23.11., 07:12')
    expect(formatSyncMoment(ago(2 * 3600), now, 'en-US')).toBe('Mon 11/23, 07:12 AM')
    // Another year's moment names its year.
    expect(formatSyncMoment(new Date('2025-11-20T09:12:00'), now, 'de-DE')).toBe('Thu 20.11.2025, 09:12')
    expect(formatSyncMoment(new Date('2025-11-20T09:12:00'), now, 'en-US')).toBe('Thu 11/20/2025, 09:12 AM')
    expect(formatDayMonth(now, 'de-DE')).toBe('23.11.')
    expect(formatDayMonth(now, 'en-US')).toBe('11/23')
  })

  it('says how long ago in English, its count in the locale’s digits', () => {
    for (const locale of ['de-DE', 'en-US']) {
      expect(formatRelativeTime(ago(10), now, locale)).toBe('just now')
      expect(formatRelativeTime(ago(-30), now, locale)).toBe('just now')
      expect(formatRelativeTime(ago(90), now, locale)).toBe('1 minute ago')
      expect(formatRelativeTime(ago(3 * 3600 + 5), now, locale)).toBe('3 hours ago')
      expect(formatRelativeTime(ago(26 * 3600), now, locale)).toBe('yesterday')
    }
    // Only a count of four digits shows the locale (a clock set far wrong): its thousands separator.
    const longAgo = new Date(now.getTime() - 1500 * 365 * 86_400_000 - 3_600_000)
    expect(formatRelativeTime(longAgo, now, 'de-DE')).toBe('1.500 years ago')
    expect(formatRelativeTime(longAgo, now, 'en-US')).toBe('1,500 years ago')
  })
})

describe('which regional formats apply', () => {
  it('follows the computer’s for System, and Settings’ choice over it', () => {
    expect(resolveFormatLocale('system', 'de-DE')).toBe('de-DE')
    expect(resolveFormatLocale(undefined, 'fr-FR')).toBe('fr-FR')
    expect(resolveFormatLocale('en-US', 'de-DE')).toBe('en-US')
    expect(cellText(58234.5, 'annualSalary', resolveFormatLocale('en-GB', 'de-DE'))).toBe('58,234.50')
  })

  it('reads POSIX spellings, and falls back to en-US when the computer names no locale', () => {
    expect(canonicalLocale('de_DE.UTF-8')).toBe('de-DE')
    expect(resolveFormatLocale('system', 'C')).toBe('en-US')
    expect(resolveFormatLocale('system', '')).toBe('en-US')
    expect(resolveFormatLocale('system', 'not a locale!')).toBe('en-US')
    expect(resolveFormatLocale('system', undefined)).toBe('en-US')
  })

  it('names each choice in English with a sample', () => {
    expect(formatLocaleLabel('system', 'de-DE')).toBe('System (German (Germany)) – 58.234,50 · 27.11.2026')
    expect(formatLocaleLabel('en-US', 'de-DE')).toBe('American English – 58,234.50 · 11/27/2026')
  })
})

describe('the printed page', () => {
  const about: ExportAbout = {
    kind: 'view',
    environment: 'Demo',
    tenantId: 'tenant-demo',
    syncedAt: null,
    createdAt: new Date('2026-11-27T09:00:00Z'),
    timeZone: 'Europe/Berlin',
  }
  const columns: ExportColumn[] = [
    { key: 'lastName', label: 'Last name', kind: 'text' },
    { key: 'hireDate', label: 'Hire date', kind: 'text' },
    { key: 'annualSalary', label: 'Annual salary', kind: 'number' },
  ]
  const rows: EmployeeRow[] = [
    { uuid: 'u1', lastName: 'Weber', hireDate: '2026-11-27', annualSalary: 58234.5 },
  ]

  it('writes its cells and count in the locale it is given, en-US without one', () => {
    const german = printPageHtml({ about, columns, rows, total: 12345, locale: 'de-DE' })
    expect(german).toContain('>58.234,50</td>')
    expect(german).toContain('>27.11.2026</td>')
    expect(german).toContain('Only the first 1 of 12.345 employees are printed')
    // Its moments too, each with the zone it was written in.
    expect(german).toContain('<dt>Printed</dt><dd>27.11.2026, 10:00 (UTC+01:00, Europe/Berlin)</dd>')
    expect(german).toContain('RosterDesk · printed 27.11.2026, 10:00 (UTC+01:00, Europe/Berlin)')
    const plain = printPageHtml({ about, columns, rows, total: 1 })
    expect(plain).toContain('>58,234.50</td>')
    expect(plain).toContain('>11/27/2026</td>')
    expect(plain).toContain('<dt>Printed</dt><dd>11/27/2026, 10:00 AM (UTC+01:00, Europe/Berlin)</dd>')
  })
})
