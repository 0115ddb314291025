import { describe, expect, it } from 'vitest'
import { formatRelativeTime } from '../../src/renderer/src/format/relative-time'

const NOW = Date.parse('2026-11-20T12:00:00Z')
const ago = (seconds: number): string => new Date(NOW - seconds * 1000).toISOString()

describe('formatRelativeTime', () => {
  it('reads like a person would say it', () => {
    expect(formatRelativeTime(ago(10), NOW)).toBe('just now')
    expect(formatRelativeTime(ago(90), NOW)).toBe('1 minute ago')
    expect(formatRelativeTime(ago(2 * 3600 + 300), NOW)).toBe('2 hours ago')
    expect(formatRelativeTime(ago(26 * 3600), NOW)).toBe('yesterday')
    expect(formatRelativeTime(ago(3 * 24 * 3600), NOW)).toBe('3 days ago')
    expect(formatRelativeTime(ago(40 * 24 * 3600), NOW)).toBe('last month')
  })

  it('treats a time slightly in the future (clock skew) as just now, and says when it cannot read one', () => {
    expect(formatRelativeTime(ago(-30), NOW)).toBe('just now')
    expect(formatRelativeTime('not a date', NOW)).toBe('at an unknown time')
  })
})
