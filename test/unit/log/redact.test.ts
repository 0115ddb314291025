import { describe, expect, it } from 'vitest'
import { createLogger, redactSecrets } from '../../../src/main/core/log/redact'

describe('log redaction', () => {
  it('masks bearer tokens, OAuth query values and JSON token fields', () => {
    expect(redactSecrets('GET /employees/list Authorization: Bearer abc.DEF-123')).toBe(
      'GET /employees/list Authorization: Bearer [redacted]',
    )
    expect(redactSecrets('callback com.rosterdesk.app:/oauth/callback?code=XYZ&state=s3cr3t')).toBe(
      'callback com.rosterdesk.app:/oauth/callback?code=[redacted]&state=[redacted]',
    )
    expect(redactSecrets('{"access_token":"tok","refreshToken":"ref","expires_in":3600}')).toBe(
      '{"access_token":"[redacted]","refreshToken":"[redacted]","expires_in":3600}',
    )
  })

  it('leaves ordinary lines alone', () => {
    expect(redactSecrets('Sync complete: 2500 employees in 3 pages')).toBe(
      'Sync complete: 2500 employees in 3 pages',
    )
  })

  it('redacts every line a logger writes', () => {
    const lines: string[] = []
    const logger = createLogger((level, line) => lines.push(`${level} ${line}`))
    logger.warn('refused ?state=abc')
    logger.error('Bearer zzz failed')
    expect(lines).toEqual(['warn refused ?state=[redacted]', 'error Bearer [redacted] failed'])
  })
})
