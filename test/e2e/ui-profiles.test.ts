import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { startTestSandbox } from '../helpers/sandbox'

/**
 * A bureau clerk with two client companies manages and switches between their profiles, end to end: the built
 * renderer in headless Chromium, the real app core (one cache and one sign-in per profile) behind the harness's
 * bridge, and the sandbox. Screenshots go to test/e2e/screenshots/.
 */

const SIZE = 500

const session = useUiSession({ sandbox: { size: SIZE, seed: 5 }, start: 'synced', setupTimeoutMs: 120_000 })
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

const header = (): Locator => page.getByRole('banner')
const profileSelect = (): Locator => header().getByRole('combobox', { name: /^Profile/ })
const dialog = (): Locator => page.getByRole('dialog', { name: 'Profiles' })
const row = (name: string): Locator =>
  dialog()
    .getByRole('listitem')
    .filter({ has: page.locator('.profile-row-name', { hasText: new RegExp(`^${name}$`) }) })

async function optionTexts(): Promise<string[]> {
  return (await profileSelect().locator('option').allTextContents()).map((text) => text.trim())
}

describe('a clerk manages and switches between client profiles', () => {
  it('1. names a profile called after its environment once, and keeps the environment in its accessible name', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(await optionTexts()).toEqual(['Demo'])
    expect(await profileSelect().getAttribute('aria-label')).toBe('Profile (Demo environment)')
    // The environment's badge shows for every profile, Demo as Staging, even where the name says it too.
    expect(await header().getByLabel('Environment: Demo').isVisible()).toBe(true)
    await ui.screenshot('ui-profiles-0-header')
  })

  it('2. creates a profile choosing its name and environment up front, then switches to it: none of Demo’s employees show', async () => {
    const opener = header().getByRole('button', { name: 'Manage profiles…' })
    await opener.click()
    await dialog().waitFor()
    expect(await dialog().evaluate((element) => element.contains(element.ownerDocument.activeElement))).toBe(
      true,
    )
    const form = dialog().getByRole('form', { name: 'New profile' })
    await form.getByLabel('Name').fill('Acme Ltd')
    await form.getByRole('button', { name: 'Create profile' }).click()
    await form.getByText('Choose the environment this profile works in.').waitFor()
    await form.getByRole('radio', { name: 'Staging' }).check()
    await form.getByRole('button', { name: 'Create profile' }).click()
    // Created and switched to at once: the dialog goes with Demo, and Acme's Settings open at its address.
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    await dialog().waitFor({ state: 'detached' })
    expect(await profileSelect().inputValue()).toBe('p2')
    await page.waitForFunction("document.activeElement?.id === 'setting-stagingUrl'")
    await ui.screenshot('ui-profiles-1-created')
    await page.getByRole('button', { name: 'Done' }).click()

    // Acme has its own cache (empty) and its own sign-in (none yet): the sign-in screen, not Demo's rows.
    await page.getByRole('heading', { name: 'Sign in to RosterDesk' }).waitFor()
    // Without a service address, entering it is what the screen offers (issue 33, point 11).
    await page.getByRole('button', { name: 'Enter the service address' }).waitFor()
    expect(await profileSelect().inputValue()).toBe('p2')
    expect(await page.getByText(allEmployeesText(SIZE)).count()).toBe(0)
    expect(await header().getByRole('status').textContent()).toBe('Not signed in')
    // "Acme Ltd" does not say Staging, so the badge shows.
    const badge = header().getByLabel('Environment: Staging')
    expect(await badge.isVisible()).toBe(true)
    expect(await badge.getAttribute('class')).not.toContain('visually-hidden')
    expect((await app.core.handlers['settings:get']()).settings.environment).toBe('staging')
    expect(app.core.queries.query({ limit: 1 }).total).toBe(0)
    await ui.screenshot('ui-profiles-2-acme')
    expect(ui.problems).toEqual([])
  })

  it('3. switches back in one click to the first profile’s employees and sign-in', async () => {
    await profileSelect().selectOption({ label: 'Demo' })
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(await header().getByRole('status').textContent()).toBe('Signed in')
    expect(app.core.queries.query({ limit: 1 }).total).toBe(SIZE)
    expect(ui.problems).toEqual([])
  })

  it('4. renames a profile in place, with the shared rule’s message for a name taken', async () => {
    await header().getByRole('button', { name: 'Manage profiles…' }).click()
    await row('Acme Ltd').getByRole('button', { name: 'Rename Acme Ltd' }).click()
    const input = dialog().getByLabel('New name for Acme Ltd')
    await input.fill('demo')
    await input.press('Enter')
    await dialog().getByText('A profile named "demo" exists.').waitFor()
    await ui.screenshot('ui-profiles-3-rename-refused')
    await input.fill('Acme Holdings')
    await input.press('Enter')
    await dialog().getByText('Renamed “Acme Ltd” to “Acme Holdings”.').waitFor()
    expect(await optionTexts()).toEqual(['Demo', 'Acme Holdings (Staging)'])
    expect(ui.problems).toEqual([])
  })

  it('5. deletes a profile only after a confirmation naming what goes, and never the active one', async () => {
    expect(await row('Demo').getByRole('button', { name: 'Delete Demo…' }).isDisabled()).toBe(true)
    await row('Acme Holdings').getByRole('button', { name: 'Delete Acme Holdings…' }).click()
    const confirmation = dialog().getByRole('group', { name: /^Delete “Acme Holdings”\?/ })
    expect(await confirmation.textContent()).toContain(
      'This removes its settings and its sign-in from this computer (it has no saved employees).',
    )
    await ui.screenshot('ui-profiles-4-delete-confirmation')
    const folder = join(app.dataDir, 'profiles', 'p2')
    expect(existsSync(folder)).toBe(true)
    await confirmation.getByRole('button', { name: 'Delete Acme Holdings' }).click()
    await dialog()
      .getByText('Deleted “Acme Holdings”, with its settings, saved employees and sign-in.')
      .waitFor()
    expect(await optionTexts()).toEqual(['Demo'])
    expect(existsSync(folder)).toBe(false)
    expect((await app.core.handlers['profiles:list']()).profiles.map((profile) => profile.name)).toEqual([
      'Demo',
    ])
    await dialog().getByRole('button', { name: 'Close profiles' }).click()
    await dialog().waitFor({ state: 'detached' })
    expect(ui.problems).toEqual([])
  })

  it('6. chooses tracked pay cycles from those in the saved employees, each with its size', async () => {
    await header().getByRole('button', { name: 'Settings' }).click()
    const group = page.getByRole('group', { name: 'Tracked pay cycles' })
    const boxes = group.getByRole('checkbox')
    await boxes.first().waitFor()
    const labels = (await group.locator('label').allTextContents()).map((text) => text.trim())
    expect(labels.length).toBeGreaterThan(1)
    for (const label of labels) expect(label).toMatch(/^\S+ \([\d,]+ employees?\)$/)
    // The sizes are the saved employees' own counts.
    const counts = labels.map((label) => Number(/\(([\d,]+) /.exec(label)![1]!.replace(/,/g, '')))
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(SIZE)
    const chosen = labels[0]!.split(' ')[0]!
    expect(await page.getByRole('textbox', { name: /pay cycle/i }).count()).toBe(0)
    await group.getByRole('checkbox', { name: labels[0] }).check()
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    expect((await app.core.handlers['settings:get']()).settings.trackedPayCycles).toEqual([chosen])
    await group.scrollIntoViewIfNeeded()
    await ui.screenshot('ui-profiles-5-tracked-pay-cycles')
    expect(ui.problems).toEqual([])
  })

  it('7. a sync of another scope than the last one reports a first sync, not leavers', async () => {
    await page.getByLabel('Sync active employees only').check()
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    await page.getByRole('button', { name: 'Done' }).click()
    await page
      .getByRole('region', { name: 'Sync' })
      .getByRole('button', { name: 'Sync', exact: true })
      .click()
    const report = page.getByText(/^First sync: [\d,]+ employees$/)
    await report.waitFor({ timeout: 60_000 })
    const active = Number((await report.textContent())!.replace(/\D/g, ''))
    expect(active).toBeGreaterThan(0)
    expect(active).toBeLessThan(SIZE)
    expect(await page.getByText(/removed/i).count()).toBe(0)
    await ui.screenshot('ui-profiles-6-first-sync-of-new-scope')
    expect(ui.problems).toEqual([])
  })

  it('8. Test connection checks the active profile: a second and a third on their own services, and after a switch back (issue 33, point 1)', async () => {
    const services: SandboxHandle[] = []
    onTestFinished(async () => {
      for (const service of services) await service.close()
    })
    /** A Staging profile on its own sandbox, set up and signed in through the core as Settings and sign-in do. */
    const staging = async (name: string, seed: number): Promise<SandboxHandle> => {
      const service = await startTestSandbox({ size: 30, seed })
      services.push(service)
      const { profiles } = await app.core.handlers['profiles:create'](name, { environment: 'staging' })
      await app.core.handlers['profiles:switch'](profiles.find((profile) => profile.name === name)!.id)
      const { baseUrls } = (await app.core.handlers['settings:get']()).settings
      await app.core.handlers['settings:update']({
        baseUrls: { ...baseUrls, staging: service.baseUrl },
        clientId: service.credentials.clientId,
        redirectUri: service.credentials.redirectUri,
        tenantId: service.credentials.tenantId,
      })
      await app.core.handlers['settings:set-client-secret'](service.credentials.clientSecret)
      const signedIn = app.core.handlers['auth:sign-in']()
      await app.approveSignIn()
      expect(await signedIn).toMatchObject({ status: 'signed-in', environment: 'staging' })
      return service
    }
    /** Settings → Test connection on screen: every step passed, against `baseUrl` and for `profile`. */
    const checkPasses = async (profile: string, baseUrl: string, shot: string): Promise<void> => {
      await header().getByRole('button', { name: 'Settings' }).click()
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
      await page.getByRole('button', { name: 'Test connection' }).click()
      const report = page.getByRole('region', { name: 'Connection report' })
      await report.waitFor()
      // Steps only the shell's network sees (proxy, certificates) are skipped here; none fails, the list answers.
      const steps = await report.locator('.check-step').allTextContents()
      expect(
        steps.filter((step) => step.includes('✗')),
        steps.join('\n'),
      ).toEqual([])
      expect(steps.find((step) => step.includes('Employee list answers'))).toContain('✓ Passed')
      expect(await page.locator('.check-result').textContent()).toBe('Result: every step passed.')
      expect(await report.locator('p').first().textContent()).toContain(
        `${baseUrl.replace(/\/+$/, '')}, profile ${profile}, tested`,
      )
      await report.scrollIntoViewIfNeeded()
      await ui.screenshot(`ui-profiles-7-test-connection-${shot}`)
      await page.getByRole('button', { name: 'Done' }).click()
    }

    const acme = await staging('Acme Staging', 11)
    await expect.poll(() => profileSelect().inputValue()).not.toBe('p1')
    await checkPasses('Acme Staging', acme.baseUrl, 'second')
    const initech = await staging('Initech', 3)
    await checkPasses('Initech', initech.baseUrl, 'third')
    await profileSelect().selectOption({ label: 'Demo' })
    await page
      .getByText(/[\d,]+ of [\d,]+ employees/)
      .first()
      .waitFor()
    await checkPasses('Demo', session().sandbox.baseUrl, 'demo')
    await profileSelect().selectOption({ label: 'Acme Staging (Staging)' })
    await checkPasses('Acme Staging', acme.baseUrl, 'second-again')
    expect(ui.problems).toEqual([])
  })
})
