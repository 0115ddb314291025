import { describe, expect, it } from 'vitest'
import { RosterDeskError, cancelledError } from '../../../../../src/main/core/errors'
import { dispatchInvoke, type InvokeHandlers } from '../../../../../src/main/core/ipc/dispatch'
import { CaptureLogger } from '../../../../helpers/capture-logger'

const SECRET = 'client-secret-value-9f3a'

/** Handlers for the one channel a test calls; dispatch never reaches the others. */
function handlers(setClientSecret: (secret: string) => Promise<never>): InvokeHandlers {
  return { 'settings:set-client-secret': setClientSecret } as Partial<InvokeHandlers> as InvokeHandlers
}

/** A fault deep in a handler: the frame the log must show. */
function storeTheSecret(secret: string): never {
  const bytes: Uint8Array | undefined = secret.length > 0 ? undefined : new Uint8Array()
  return (bytes as Uint8Array).at(0) as never
}

describe('dispatchInvoke logging', () => {
  it('logs an unexpected handler error with its stack but never the argument values', async () => {
    const logger = new CaptureLogger()
    const result = await dispatchInvoke(
      handlers(async (secret) => storeTheSecret(secret)),
      'settings:set-client-secret',
      [SECRET],
      logger,
    )
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(JSON.stringify(result)).not.toContain('TypeError')
    expect(logger.lines).toHaveLength(1)
    const lines = logger.lines[0]!.split('\n')
    expect(lines[0]).toBe('error IPC: settings:set-client-secret failed')
    expect(lines[1]).toMatch(/^ {2}TypeError: Cannot read properties of undefined/)
    expect(lines[2]).toMatch(/^ {4}at storeTheSecret \(.*dispatch-logging\.test\.ts:\d+:\d+\)$/)
    expect(logger.leaking([SECRET])).toEqual([])
  })

  it('logs an explained failure with its detail and stack, as a warning', async () => {
    const logger = new CaptureLogger()
    const refused = new RosterDeskError('storage', 'RosterDesk could not save its sign-in details.', {
      detail: 'secret file write failed',
      cause: Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
    })
    const result = await dispatchInvoke(
      handlers(async () => {
        throw refused
      }),
      'settings:set-client-secret',
      [SECRET],
      logger,
    )
    expect(result).toEqual({
      ok: false,
      error: { code: 'storage', message: 'RosterDesk could not save its sign-in details.' },
    })
    const entry = logger.lines.join('\n')
    expect(entry).toMatch(
      /^warn IPC: settings:set-client-secret failed\n {2}RosterDeskError \[storage\]: RosterDesk could not save its sign-in details\.\n {4}detail: secret file write failed\n {4}at /,
    )
    expect(entry).toContain('\n  caused by: Error [ENOSPC]: ENOSPC: no space left on device\n')
    expect(logger.leaking([SECRET])).toEqual([])
  })

  it('does not log a cancel, and refuses bad arguments naming the channel only', async () => {
    const logger = new CaptureLogger()
    await dispatchInvoke(
      handlers(async () => {
        throw cancelledError()
      }),
      'settings:set-client-secret',
      [SECRET],
      logger,
    )
    expect(logger.lines).toEqual([])
    await dispatchInvoke(
      handlers(async () => storeTheSecret('')),
      'settings:set-client-secret',
      [SECRET, 2],
      logger,
    )
    expect(logger.lines).toEqual([
      'warn IPC: refused settings:set-client-secret: arguments do not match the contract',
    ])
  })
})
