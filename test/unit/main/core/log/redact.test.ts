import { describe, expect, it } from 'vitest'
import { redactSecrets } from '../../../../../src/main/core/log/redact'

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

  it('masks a URL’s user name and password and a proxy’s Basic credential', () => {
    expect(redactSecrets('proxy http://clerk:s3cret@proxy.corp.example:8080 refused')).toBe(
      'proxy http://[redacted]@proxy.corp.example:8080 refused',
    )
    expect(redactSecrets('Proxy-Authorization: Basic Y2xlcms6czNjcmV0')).toBe(
      'Proxy-Authorization: Basic [redacted]',
    )
    expect(redactSecrets('Basic salary and https://payroll.example/api')).toBe(
      'Basic salary and https://payroll.example/api',
    )
  })

  it('masks the piece of input V8 quotes in a JSON.parse error', () => {
    const messageOf = (text: string): string => {
      try {
        JSON.parse(text)
        return ''
      } catch (error) {
        return (error as Error).message
      }
    }
    expect(redactSecrets(messageOf('<html>Jane Smith, salary 52000</html>'))).toBe(
      "Unexpected token '<', [input not shown] is not valid JSON",
    )
    const quoted = redactSecrets(messageOf('Jane "JJ" Smith'))
    expect(quoted).toBe("Unexpected token 'J', [input not shown] is not valid JSON")
  })

  it('leaves ordinary lines alone', () => {
    expect(redactSecrets('Sync complete: 2500 employees in 3 pages')).toBe(
      'Sync complete: 2500 employees in 3 pages',
    )
  })
})
