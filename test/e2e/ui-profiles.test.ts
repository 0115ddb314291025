import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * A bureau clerk with two client companies switches between their profiles, end to end: the built renderer in
 * headless Chromium, the real app core (one cache and one sign-in per profile) behind the harness's bridge, and
 * the sandbox. Screenshots go to test/e2e/screenshots/.
 */

const SIZE = 500

const session = useUiSession({ sandbox: { size: SIZE, seed: 5 }, start: 'synced', setupTimeoutMs: 120_000 })
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

const profileSelect = (): Locator => page.getByRole('banner').getByRole('combobox', { name: 'Profile' })

describe('a clerk switches between client profiles', () => {
  it('1. adds a profile and switches to it: none of the first profile’s employees show under its name', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(await profileSelect().inputValue()).toBe('p1')
    await page.getByRole('button', { name: 'New profile' }).click()
    await page.getByLabel('New profile name').fill('Acme Ltd')
    await page.getByRole('button', { name: 'Add' }).click()
    await profileSelect().selectOption({ label: 'Acme Ltd (Demo)' })

    // Acme has its own cache (empty) and its own sign-in (none yet): the sign-in screen, not Demo's rows.
    await page.getByRole('button', { name: 'Sign in with your browser' }).waitFor()
    expect(await profileSelect().inputValue()).toBe('p2')
    expect(await page.getByText(allEmployeesText(SIZE)).count()).toBe(0)
    expect(await page.getByRole('banner').getByRole('status').textContent()).toBe('Not signed in')
    expect(app.core.queries.query({ limit: 1 }).total).toBe(0)
    await ui.screenshot('ui-profiles-1-acme')
    expect(ui.problems).toEqual([])
  })

  it('2. switches back in one click to the first profile’s employees and sign-in', async () => {
    await profileSelect().selectOption({ label: 'Demo (Demo)' })
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(await page.getByRole('banner').getByRole('status').textContent()).toBe('Signed in')
    expect(app.core.queries.query({ limit: 1 }).total).toBe(SIZE)
    await ui.screenshot('ui-profiles-2-back-to-demo')
    expect(ui.problems).toEqual([])
  })
})
