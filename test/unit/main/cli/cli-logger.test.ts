import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { cliLogFile, createCliLogger, type CliLogFile } from '../../../../src/main/cli/cli-logger'
import { RosterDeskError } from '../../../../src/main/core/errors'
import { useScratch } from '../../../helpers/run-cli'

function stderrOf(env: NodeJS.ProcessEnv, file?: CliLogFile) {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6))
  return { logger: createCliLogger(stream, env, () => at, file), text: () => text }
}

/** A stack frame as V8 writes one: what no line on the CLI's stderr may hold. */
const FRAME = /^\s+at /m

const refused = new RosterDeskError('auth', 'The service refused the request.', {
  detail: 'HTTP 403 for Bearer bearer-secret',
})

describe('the CLI log', () => {
  const scratch = useScratch()

  it('writes only errors by default, timestamped, levelled and redacted, never a stack frame', () => {
    const { logger, text } = stderrOf({})
    logger.info('Sign-in: opened the browser')
    logger.warn('Sync failed', refused)
    logger.error(
      'RosterDesk CLI failed unexpectedly',
      new TypeError('x is not a function', { cause: refused }),
    )
    expect(text()).toBe(
      [
        '2026-01-02T03:04:05.006Z ERROR RosterDesk CLI failed unexpectedly',
        '  TypeError: x is not a function',
        '  caused by: RosterDeskError [auth]: The service refused the request.',
        '    detail: HTTP 403 for Bearer [redacted]',
        '',
      ].join('\n'),
    )
    expect(text()).not.toMatch(FRAME)
  })

  it('keeps every warning and error whole, stack and all, in cli.log, and names it beside an error', () => {
    const dataDir = scratch.tempDir('rosterdesk-cli-log-')
    const file = cliLogFile(dataDir)
    expect(file.path).toBe(join(dataDir, 'logs', 'cli.log'))
    const { logger, text } = stderrOf({ ROSTERDESK_LOG_LEVEL: 'warn' }, file)
    logger.info('Sign-in: opened the browser')
    expect(existsSync(join(dataDir, 'logs'))).toBe(false) // a run that logs nothing to keep creates nothing
    logger.warn('Sync failed', refused)
    logger.error('RosterDesk CLI failed unexpectedly', new TypeError('x is not a function'))
    expect(text()).not.toMatch(FRAME)
    expect(text()).toContain(`ERROR RosterDesk CLI failed unexpectedly (the full entry is in ${file.path})`)
    expect(text()).toContain('WARN  Sync failed\n')
    const kept = readFileSync(file.path, 'utf8')
    expect(kept).toMatch(
      /ERROR RosterDesk CLI failed unexpectedly\n {2}TypeError: x is not a function\n {4}at .*cli-logger\.test\.ts/,
    )
    expect(kept).toMatch(
      /WARN {2}Sync failed\n {2}RosterDeskError \[auth\][^\n]*\n {4}detail: HTTP 403 for Bearer \[redacted\]\n {4}at /,
    )
    expect(kept).not.toContain('Sign-in')
    expect(kept).not.toContain('bearer-secret')
    expect(statSync(file.path).mode & 0o777).toBe(0o600)
    expect(statSync(join(dataDir, 'logs')).mode & 0o777).toBe(0o700)
  })

  it('carries on on stderr alone when the log file cannot be opened', () => {
    const notAFolder = join(scratch.tempDir('rosterdesk-cli-log-'), 'file')
    writeFileSync(notAFolder, '')
    const file = cliLogFile(notAFolder)
    const { logger, text } = stderrOf({}, file)
    logger.error('RosterDesk CLI failed unexpectedly', new TypeError('x is not a function'))
    logger.error('Again')
    expect(text()).toContain('ERROR RosterDesk CLI failed unexpectedly\n  TypeError: x is not a function\n')
    expect(text()).toContain('ERROR Again\n')
    expect(text()).not.toContain('full entry')
  })

  it('adds warnings and their detail, or everything, when ROSTERDESK_LOG_LEVEL asks', () => {
    const warn = stderrOf({ ROSTERDESK_LOG_LEVEL: 'warn' })
    warn.logger.info('Sign-in: opened the browser')
    warn.logger.warn('Sync failed', refused)
    expect(warn.text()).toMatch(
      /^2026-01-02T03:04:05\.006Z WARN {2}Sync failed\n {2}RosterDeskError \[auth\]: The service refused the request\.\n {4}detail: HTTP 403 for Bearer \[redacted\]\n/,
    )
    expect(warn.text()).not.toContain('bearer-secret')

    const info = stderrOf({ ROSTERDESK_LOG_LEVEL: 'INFO' })
    info.logger.info('Sign-in: opened the browser')
    expect(info.text()).toBe('2026-01-02T03:04:05.006Z INFO  Sign-in: opened the browser\n')
  })
})
