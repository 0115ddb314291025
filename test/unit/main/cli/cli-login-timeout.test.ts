import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { CLI_SIGN_IN_TIMEOUT_MS, runLoginCommand } from '../../../../src/main/cli/login-command'
import type { Clock } from '../../../../src/main/core/clock'
import { CaptureLogger } from '../../../helpers/capture-logger'

function collect(stream: PassThrough): () => string {
  let text = ''
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
  return () => text
}

describe('CLI login', () => {
  it('waits five minutes for the browser, then gives up with exit code 1 and says so', async () => {
    // A clock on which any wait of a minute or more is over at once; shorter ones (the loopback's own) are real.
    let skipped = 0
    const waits: number[] = []
    const clock: Clock = {
      now: () => Date.now() + skipped,
      sleep: (ms, signal) => {
        waits.push(ms)
        if (ms < 60_000) return new Promise((resolve) => setTimeout(resolve, ms))
        skipped += ms
        return signal?.aborted
          ? Promise.reject(signal.reason)
          : new Promise((resolve) => setImmediate(resolve))
      },
    }
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    const out = collect(stdout)
    const err = collect(stderr)
    const logger = new CaptureLogger()
    const code = await runLoginCommand(
      [
        '--base-url',
        'http://127.0.0.1:9',
        '--client-id',
        'rosterdesk-demo',
        '--redirect-uri',
        // No port: the listener takes one from the OS, so no port is chosen and released before use.
        'http://127.0.0.1/callback',
        '--token-file',
        '/nonexistent/tokens.json',
        '--no-open',
      ],
      {
        stdout,
        stderr,
        env: { ROSTERDESK_CLIENT_SECRET: 'a-secret-value' },
        platform: 'linux',
        clock,
        logger,
      },
    )
    expect(CLI_SIGN_IN_TIMEOUT_MS).toBe(5 * 60_000)
    expect(waits).toContain(CLI_SIGN_IN_TIMEOUT_MS)
    expect(code).toBe(1)
    expect(out().split('\n')[0]).toMatch(/^http:\/\/127\.0\.0\.1:9\/openapi\/oauthv1\/authorize\?/)
    expect(err()).toMatch(/did not come back within 5 minutes/)
    expect(out() + err()).not.toContain('a-secret-value')
    // The sign-in reports to the CLI's logger, like the app's.
    expect(logger.lines).toContain('warn Sign-in: the browser did not come back in time')
    expect(logger.leaking(['a-secret-value'])).toEqual([])
  })
})
