import { describe, expect, it } from 'vitest'
import { PendingSignInRegistry, SIGN_IN_TTL_MS } from '../../../../../src/main/core/auth/pending-sign-in'
import { CaptureLogger } from '../../../../helpers/capture-logger'
import { FakeClock } from '../../../../helpers/fake-clock'

const REDIRECT = 'com.rosterdesk.app:/oauth/callback'
const STATE = 'state-0123456789abcdef0123456789abcdef'

function setup() {
  const clock = new FakeClock()
  const logger = new CaptureLogger()
  const registry = new PendingSignInRegistry({ clock, logger })
  return { clock, logger, registry }
}

describe('PendingSignInRegistry', () => {
  it('takes the callback that carries the pending state, once', async () => {
    const { registry, logger } = setup()
    const attempt = registry.begin({ state: STATE, redirectUri: REDIRECT })
    const url = `${REDIRECT}?code=the-code&state=${STATE}`
    expect(registry.handleCallback(url)).toEqual({ accepted: true, attemptId: attempt.id })
    await expect(attempt.outcome).resolves.toEqual({ type: 'code', code: 'the-code' })
    expect(registry.handleCallback(url)).toEqual({ accepted: false, reason: 'no-pending-sign-in' })
    expect(registry.pending).toBeUndefined()
    expect(logger.leaking(['the-code', STATE])).toEqual([])
  })

  it('ignores forged states, other addresses and malformed callbacks, and keeps waiting', () => {
    const { registry, logger } = setup()
    const attempt = registry.begin({ state: STATE, redirectUri: REDIRECT })
    expect(registry.handleCallback(`${REDIRECT}?code=c&state=forged`)).toEqual({
      accepted: false,
      reason: 'state-mismatch',
    })
    expect(registry.handleCallback(`${REDIRECT}?code=c&state=${STATE}x`)).toMatchObject({
      reason: 'state-mismatch',
    })
    expect(registry.handleCallback(`com.rosterdesk.app:/other?code=c&state=${STATE}`)).toMatchObject({
      reason: 'wrong-address',
    })
    expect(registry.handleCallback(`com.evil.app:/oauth/callback?code=c&state=${STATE}`)).toMatchObject({
      reason: 'wrong-address',
    })
    expect(registry.handleCallback(`https://evil.example/?code=c&state=${STATE}`)).toMatchObject({
      reason: 'not-a-callback',
    })
    expect(registry.handleCallback(`${REDIRECT}?state=${STATE}`)).toMatchObject({ reason: 'malformed' })
    expect(registry.handleCallback(`${REDIRECT}?error=access_denied`)).toMatchObject({
      reason: 'state-mismatch',
    })
    expect(registry.pending?.id).toBe(attempt.id)
    expect(logger.lines.filter((line) => line.includes('ignored'))).toHaveLength(7)
    expect(logger.leaking([STATE, 'forged', 'code=c'])).toEqual([])
  })

  it('reports a refusal with its error and description', async () => {
    const { registry } = setup()
    const attempt = registry.begin({ state: STATE, redirectUri: REDIRECT })
    registry.handleCallback(`${REDIRECT}?error=access_denied&error_description=No+thanks&state=${STATE}`)
    await expect(attempt.outcome).resolves.toEqual({
      type: 'refused',
      error: 'access_denied',
      description: 'No thanks',
    })
  })

  it('times out after ten minutes by the injected clock', async () => {
    const { registry, clock } = setup()
    const attempt = registry.begin({ state: STATE, redirectUri: REDIRECT })
    await clock.advance(SIGN_IN_TTL_MS - 1)
    expect(registry.pending).toBeDefined()
    await clock.advance(1)
    await expect(attempt.outcome).resolves.toEqual({ type: 'timed-out' })
    expect(registry.handleCallback(`${REDIRECT}?code=c&state=${STATE}`)).toMatchObject({
      reason: 'no-pending-sign-in',
    })
  })

  it('refuses a callback that arrives after expiry even before the timer ran', async () => {
    const { registry, clock } = setup()
    const attempt = registry.begin({ state: STATE, redirectUri: REDIRECT })
    clock.set(clock.now() + SIGN_IN_TTL_MS)
    expect(registry.handleCallback(`${REDIRECT}?code=c&state=${STATE}`)).toEqual({
      accepted: false,
      reason: 'expired',
    })
    await expect(attempt.outcome).resolves.toEqual({ type: 'timed-out' })
  })

  it('lets a newer sign-in replace an older one, whose callback is then ignored', async () => {
    const { registry, clock } = setup()
    const older = registry.begin({ state: 'older-state-aaaaaaaaaaaaaaaa', redirectUri: REDIRECT })
    const newer = registry.begin({ state: STATE, redirectUri: REDIRECT })
    await expect(older.outcome).resolves.toEqual({ type: 'superseded' })
    expect(registry.handleCallback(`${REDIRECT}?code=c&state=older-state-aaaaaaaaaaaaaaaa`)).toMatchObject({
      reason: 'state-mismatch',
    })
    expect(registry.handleCallback(`${REDIRECT}?code=c&state=${STATE}`).accepted).toBe(true)
    await expect(newer.outcome).resolves.toEqual({ type: 'code', code: 'c' })
    expect(clock.pendingSleeps).toBe(0)
  })

  it('cancels', async () => {
    const { registry, clock } = setup()
    const attempt = registry.begin({ state: STATE, redirectUri: REDIRECT })
    expect(registry.cancel()).toBe(true)
    expect(registry.cancel()).toBe(false)
    await expect(attempt.outcome).resolves.toEqual({ type: 'cancelled' })
    expect(clock.pendingSleeps).toBe(0)
  })
})
