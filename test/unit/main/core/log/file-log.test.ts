import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { openFileLog, redactLogData } from '../../../../../src/main/core/log/file-log'

const LINE_START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z (INFO |WARN |ERROR) /

describe('the log file (electron-log, as the main process configures it)', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))
  const logsDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-file-log-'))
    dirs.push(dir)
    return join(dir, 'logs')
  }

  it('writes timestamped, levelled, redacted entries with an error’s detail and stack to main.log', () => {
    const dir = logsDir()
    const { logger, logFilePath } = openFileLog({ logsDir: dir, console: false })
    expect(logFilePath).toBe(join(dir, 'main.log'))

    logger.info('RosterDesk 0.1.0 started')
    logger.error(
      'IPC: sync:start failed',
      new RosterDeskError('service', 'The payroll service is having problems.', {
        detail: 'HTTP 503 for Bearer secret-bearer-token',
      }),
    )
    const text = readFileSync(logFilePath, 'utf8')
    const entries = text.split(/\r?\n/).filter((line) => LINE_START.test(line))
    expect(entries).toHaveLength(2)
    expect(entries[0]).toMatch(/ INFO {2}RosterDesk 0\.1\.0 started$/)
    expect(entries[1]).toMatch(/ ERROR IPC: sync:start failed$/)
    expect(text).toContain(
      '\n  RosterDeskError [service]: The payroll service is having problems.\n    detail: HTTP 503 for Bearer [redacted]\n    at ',
    )
    expect(text).not.toContain('secret-bearer-token')
  })

  it('starts main.1.log past the size limit and keeps only the newest copies', () => {
    const dir = logsDir()
    const maxBytes = 400
    const { logger, logFilePath } = openFileLog({ logsDir: dir, console: false, maxBytes, keep: 2 })
    for (let n = 1; n <= 60; n++) logger.info(`entry ${String(n).padStart(3, '0')} ${'x'.repeat(40)}`)

    expect(readdirSync(dir).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log'])
    // A file is rotated before the entry that would take it past the limit lands, so it overshoots by one entry.
    for (const name of ['main.1.log', 'main.2.log']) {
      expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(maxBytes + 120)
    }
    expect(readFileSync(logFilePath, 'utf8')).toContain('entry 060')
    const newestCopy = readFileSync(join(dir, 'main.1.log'), 'utf8')
    const oldestCopy = readFileSync(join(dir, 'main.2.log'), 'utf8')
    const firstEntry = (text: string): number => Number(/entry (\d+)/.exec(text)?.[1])
    expect(firstEntry(oldestCopy)).toBeLessThan(firstEntry(newestCopy))
    expect(firstEntry(newestCopy)).toBeLessThan(firstEntry(readFileSync(logFilePath, 'utf8')))
    expect(existsSync(join(dir, 'main.3.log'))).toBe(false)
  })

  it('redacts whatever reaches electron-log, strings, errors and objects alike', () => {
    const error = new RosterDeskError('auth', 'Refused.', { detail: 'callback?code=secret-code' })
    const [text, described, object] = redactLogData([
      'Authorization: Bearer bearer-1',
      error,
      { body: '{"refresh_token":"refresh-1"}' },
    ])
    expect(text).toBe('Authorization: Bearer [redacted]')
    expect(described).toMatch(
      /^RosterDeskError \[auth\]: Refused\.\n {4}detail: callback\?code=\[redacted\]\n/,
    )
    expect(object).toContain('[redacted]')
    expect(`${text}${described}${object}`).not.toMatch(/bearer-1|secret-code|refresh-1/)
  })
})
