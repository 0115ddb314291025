import { describe, expect, it } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { describeError } from '../../../../../src/main/core/log/describe-error'
import {
  createLogger,
  formatLogLine,
  isAtLeast,
  parseLogLevel,
  type LogLevel,
} from '../../../../../src/main/core/log/logger'

function capture(): { lines: string[]; write: (level: LogLevel, text: string) => void } {
  const lines: string[] = []
  return { lines, write: (level, text) => void lines.push(`${level} ${text}`) }
}

/** Where a storage failure would be thrown from: a named frame the stack must show. */
function saveSecretsFile(): never {
  const cause = Object.assign(new Error('EACCES: permission denied, open secrets.json'), { code: 'EACCES' })
  throw new RosterDeskError('storage', 'RosterDesk could not save its sign-in details.', {
    detail: 'secret file write failed',
    cause,
  })
}

function caught(run: () => never): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
}

describe('createLogger', () => {
  it('writes a RosterDeskError with its code, detail, stack and cause', () => {
    const { lines, write } = capture()
    createLogger(write).warn('Secrets: saving failed', caught(saveSecretsFile))
    expect(lines).toHaveLength(1)
    const text = lines[0]!.split('\n')
    expect(text[0]).toBe('warn Secrets: saving failed')
    expect(text[1]).toBe('  RosterDeskError [storage]: RosterDesk could not save its sign-in details.')
    expect(text[2]).toBe('    detail: secret file write failed')
    expect(text[3]).toMatch(/^ {4}at saveSecretsFile \(.*logger\.test\.ts:\d+:\d+\)$/)
    const causeAt = text.findIndex((line) => line.startsWith('  caused by: '))
    expect(text[causeAt]).toBe('  caused by: Error [EACCES]: EACCES: permission denied, open secrets.json')
    expect(text[causeAt + 1]).toMatch(/^ {4}at saveSecretsFile /)
    // The frames the cause shares with the error that wraps it are counted, not repeated.
    expect(text[causeAt + 2]).toMatch(/^ {4}\.\.\. \d+ more$/)
    expect(text).toHaveLength(causeAt + 3)
  })

  it('redacts a secret in the message, the detail, a cause and the stack alike', () => {
    const { lines, write } = capture()
    const cause = new Error('token endpoint said {"access_token":"tok-cause-1"}')
    const error = new RosterDeskError('auth', 'The service refused the sign-in.', {
      detail: 'callback com.rosterdesk.app:/oauth/callback?code=code-in-detail&state=state-in-detail',
      cause,
    })
    error.stack = `RosterDeskError: x\n    at fetchToken (https://pay.example.com/cb?code=code-in-stack:1:2)`
    createLogger(write).error('Sign-in: failed for Authorization: Bearer bearer-in-message', error)
    const text = lines.join('\n')
    for (const secret of [
      'tok-cause-1',
      'code-in-detail',
      'state-in-detail',
      'code-in-stack',
      'bearer-in-message',
    ]) {
      expect(text).not.toContain(secret)
    }
    expect(text).toContain('Bearer [redacted]')
    expect(text).toContain(
      'detail: callback com.rosterdesk.app:/oauth/callback?code=[redacted]&state=[redacted]',
    )
    expect(text).toContain('at fetchToken (https://pay.example.com/cb?code=[redacted]')
    expect(text).toContain('caused by: Error: token endpoint said {"access_token":"[redacted]"}')
  })

  it('writes the message alone when no error is given, at the level asked', () => {
    const { lines, write } = capture()
    const logger = createLogger(write)
    logger.info('Sync complete: 300 of 300 employees')
    logger.warn('IPC: refused a request on an unknown channel')
    expect(lines).toEqual([
      'info Sync complete: 300 of 300 employees',
      'warn IPC: refused a request on an unknown channel',
    ])
  })

  it('never throws into the caller when writing fails', () => {
    const logger = createLogger(() => {
      throw new Error('EPIPE')
    })
    expect(() => logger.error('Sync failed', new Error('boom'))).not.toThrow()
  })
})

/** The lines that name errors, without stack frames. */
const headings = (lines: string[]): string[] =>
  lines.filter((line) => !/^\s*(at |\.\.\. \d+ more$)/.test(line))

describe('describeError', () => {
  it('names values that are not errors without showing objects', () => {
    expect(describeError('plain text')).toEqual(['a thrown string: plain text'])
    expect(describeError(42)).toEqual(['a thrown number: 42'])
    expect(describeError(null)).toEqual(['a thrown null'])
    expect(describeError({ firstName: 'Jane' })).toEqual(['a thrown object that is not an Error'])
  })

  it('lists the errors of an AggregateError and stops at a cause cycle', () => {
    const first = Object.assign(new Error('connect ECONNREFUSED ::1:443'), { code: 'ECONNREFUSED' })
    const second = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' })
    const fetchFailed = new TypeError('fetch failed', { cause: new AggregateError([first, second]) })
    expect(headings(describeError(fetchFailed))).toEqual([
      'TypeError: fetch failed',
      'caused by: AggregateError',
      '  including: Error [ECONNREFUSED]: connect ECONNREFUSED ::1:443',
      '  including: Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:443',
    ])

    const looped = new Error('outer')
    looped.cause = new Error('inner', { cause: looped })
    expect(headings(describeError(looped))).toEqual([
      'Error: outer',
      'caused by: Error: inner',
      'caused by: Error (not shown again)',
    ])
  })

  it('keeps a multi-line message on one line', () => {
    expect(describeError(new RangeError('first\n  second'))[0]).toBe('RangeError: first second')
  })
})

describe('log lines and levels', () => {
  it('formats a line with a UTC timestamp and a padded level', () => {
    const at = new Date(Date.UTC(2025, 2, 4, 5, 6, 7, 89))
    expect(formatLogLine(at, 'info', 'started')).toBe('2025-03-04T05:06:07.089Z INFO  started')
    expect(formatLogLine(at, 'error', 'failed')).toBe('2025-03-04T05:06:07.089Z ERROR failed')
  })

  it('orders levels and reads them from a setting', () => {
    expect(isAtLeast('error', 'warn')).toBe(true)
    expect(isAtLeast('warn', 'warn')).toBe(true)
    expect(isAtLeast('info', 'warn')).toBe(false)
    expect(parseLogLevel(' WARN ')).toBe('warn')
    expect(parseLogLevel('verbose')).toBeUndefined()
    expect(parseLogLevel(undefined)).toBeUndefined()
  })
})
