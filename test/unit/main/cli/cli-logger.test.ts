import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createCliLogger } from '../../../../src/main/cli/cli-logger'
import { RosterDeskError } from '../../../../src/main/core/errors'

function stderrOf(env: NodeJS.ProcessEnv) {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6))
  return { logger: createCliLogger(stream, env, () => at), text: () => text }
}

const refused = new RosterDeskError('auth', 'The service refused the request.', {
  detail: 'HTTP 403 for Bearer bearer-secret',
})

describe('the CLI log', () => {
  it('writes only errors by default, timestamped, levelled and redacted, with the stack', () => {
    const { logger, text } = stderrOf({})
    logger.info('Sign-in: opened the browser')
    logger.warn('Sync failed', refused)
    logger.error('RosterDesk CLI failed unexpectedly', new TypeError('x is not a function'))
    const lines = text().split('\n')
    expect(lines[0]).toBe('2026-01-02T03:04:05.006Z ERROR RosterDesk CLI failed unexpectedly')
    expect(lines[1]).toBe('  TypeError: x is not a function')
    expect(lines[2]).toMatch(/^ {4}at .*cli-logger\.test\.ts:\d+:\d+/)
    expect(text()).not.toContain('Sync failed')
    expect(text()).not.toContain('Sign-in')
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
