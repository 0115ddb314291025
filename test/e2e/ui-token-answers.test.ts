import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { systemClock, type Clock } from '../../src/main/core/clock'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * Issue 32, points 1 and 2, in real Chromium over the real app core and the sandbox: a lifetime of
 * 9223372036854775807 s is kept as a year, at sign-in and at renewal, and the sync goes on; an access or refresh
 * token a request cannot carry is refused at once with the same sentence the CLI prints, and the core keeps
 * nothing of it.
 */

const SIZE = 40
const YEAR_MS = 365 * 24 * 3600 * 1000
const ACCESS_UNSENDABLE =
  "The payroll service's sign-in answer holds an access token with characters a request cannot carry. Send this message to your IT team."
const REFRESH_UNSENDABLE =
  "The payroll service's sign-in answer holds a refresh token with characters a request cannot carry. Send this message to your IT team."

/** How far the core's clock is ahead of the real one: moved on to make the access token expire. */
let offset = 0
const coreClock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep }

const session = useUiSession({ sandbox: { size: SIZE, seed: 32 }, clock: coreClock, start: 'first-run' })
let sandbox: SandboxHandle
let app: AppUnderTest
let page: Page
beforeAll(() => ({ sandbox, app, page } = session()))

const syncBar = (): Locator => page.getByRole('region', { name: 'Sync' })
const storedExpiry = async (): Promise<number> => Number(await app.secrets.get('accessTokenExpiresAt'))

describe('odd sign-in answers in the app', () => {
  it('a sign-in answer whose access token holds CR/LF is refused with the CLI’s sentence, nothing kept', async () => {
    sandbox.setBehaviours({ tokenCharacters: { token: 'access', insert: '\r\n' } })
    await page.getByRole('button', { name: 'Sign in with your browser' }).click()
    await app.approveSignIn()
    await expect.poll(() => page.getByRole('alert').allInnerTexts()).toEqual([ACCESS_UNSENDABLE])
    expect(await page.getByRole('button', { name: 'Sign in with your browser' }).isVisible()).toBe(true)
    expect(await app.secrets.get('accessToken')).toBeUndefined()
    expect(await app.secrets.get('refreshToken')).toBeUndefined()
    expect(sandbox.stats().codeExchanges).toBe(1)
    expect(sandbox.stats().listRequests).toBe(0)
  })

  it('a lifetime of 9223372036854775807 s is kept as a year; the sync completes', async () => {
    sandbox.setBehaviours({ tokenCharacters: null, tokenExpiresInJson: '9223372036854775807' })
    const before = coreClock.now()
    await page.getByRole('button', { name: 'Sign in with your browser' }).click()
    await app.approveSignIn()
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(await storedExpiry()).toBeGreaterThanOrEqual(before + YEAR_MS)
    expect(await storedExpiry()).toBeLessThanOrEqual(coreClock.now() + YEAR_MS)
    expect(app.log).toContainEqual(expect.stringMatching(/RosterDesk counts it as 365 days/))
  })

  it('renewed past that year with the same lifetime: a year again, and the sync completes', async () => {
    offset += YEAR_MS + 3600_000
    sandbox.expireAccessTokens()
    const refreshes = sandbox.stats().refreshes
    const before = coreClock.now()
    await syncBar().getByRole('button', { name: 'Sync', exact: true }).click()
    await expect.poll(() => sandbox.stats().refreshes).toBe(refreshes + 1)
    await syncBar().getByRole('button', { name: 'Sync', exact: true }).waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(await storedExpiry()).toBeGreaterThanOrEqual(before + YEAR_MS)
    expect(await storedExpiry()).toBeLessThanOrEqual(coreClock.now() + YEAR_MS)
  })

  it('a renewal whose refresh token cannot be carried stops the sync at once with that sentence, tokens kept', async () => {
    sandbox.setBehaviours({ tokenExpiresInJson: null, tokenCharacters: { token: 'refresh', insert: 'é' } })
    offset += YEAR_MS + 3600_000
    const kept = await app.secrets.get('refreshToken')
    const before = sandbox.stats()
    await syncBar().getByRole('button', { name: 'Sync', exact: true }).click()
    await expect.poll(() => syncBar().getByRole('alert').allInnerTexts()).toEqual([REFRESH_UNSENDABLE])
    expect(sandbox.stats().refreshes - before.refreshes).toBe(1)
    expect(sandbox.stats().listRequests - before.listRequests).toBe(0)
    expect(await app.secrets.get('refreshToken')).toBe(kept)
    expect(await page.getByText(allEmployeesText(SIZE)).isVisible()).toBe(true)
  })
})
