import { describe, expect, it } from 'vitest'
import { RosterDeskError, cancelledError } from '../../../../../src/main/core/errors'
import { failureLevel, logFailure } from '../../../../../src/main/core/log/log-failure'
import { CaptureLogger } from '../../../../helpers/capture-logger'

describe('failureLevel', () => {
  it('makes unexpected errors errors, explained ones warnings, ordinary ones info, and cancels nothing', () => {
    expect(failureLevel(new TypeError('x is undefined'))).toBe('error')
    expect(failureLevel('a string')).toBe('error')
    expect(failureLevel(new RosterDeskError('network', 'RosterDesk could not reach the service.'))).toBe(
      'warn',
    )
    expect(failureLevel(new RosterDeskError('storage', 'The disk is full.'))).toBe('warn')
    expect(failureLevel(new RosterDeskError('validation', 'The page size must be a whole number.'))).toBe(
      'info',
    )
    expect(failureLevel(new RosterDeskError('not-signed-in', 'Sign in to continue.'))).toBe('info')
    expect(failureLevel(cancelledError('The sync'))).toBeUndefined()
    expect(failureLevel(new DOMException('aborted', 'AbortError'))).toBeUndefined()
  })

  it('logs the failure with its error at that level', () => {
    const logger = new CaptureLogger()
    logFailure(
      logger,
      'Export failed',
      new RosterDeskError('storage', 'The disk is full.', { detail: 'ENOSPC' }),
    )
    logFailure(logger, 'Export failed', cancelledError('The export'))
    expect(logger.lines).toHaveLength(1)
    expect(logger.lines[0]).toMatch(
      /^warn Export failed\n {2}RosterDeskError \[storage\]: The disk is full\.\n {4}detail: ENOSPC\n/,
    )
  })
})
