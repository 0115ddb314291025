import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { POLICY_LOCKED_LABEL } from '../../src/shared/policy-view'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * Issue 33, points 10 and 11, end to end: the built renderer in headless Chromium over the real app core (under a
 * machine policy that defines two profiles, the first one the sandbox as its Production service, its environment,
 * address and client ID locked) at the clerk's 1366×768. A first start opens on the policy's first profile; its
 * Settings keep Save and what it said in the window from the top and from the bottom of the form, show the client
 * secret beside the client ID, only the chosen environment's address, and the locked fields drawn as locked. A new
 * profile is switched to and opens at its service address; a profile without one offers to enter it before any
 * sign-in. Screenshots (ROSTERDESK_SCREENSHOTS=1) go to test/e2e/screenshots/ui-week-three-settings-*.png.
 */

const WINDOW = { width: 1366, height: 768 }

const session = useUiSession({
  sandbox: { size: 30, seed: 33 },
  viewport: WINDOW,
  policy: (sandbox: SandboxHandle) => ({
    policy: {
      profiles: [
        {
          name: 'Acme Ltd',
          environment: 'production',
          baseUrl: sandbox.baseUrl,
          clientId: sandbox.credentials.clientId,
          redirectUri: sandbox.credentials.redirectUri,
          locked: ['environment', 'baseUrl', 'clientId'],
        },
        { name: 'Beta GmbH', environment: 'staging' },
      ],
    },
    source: '/etc/rosterdesk/policy.json',
    problem: undefined,
  }),
  setupTimeoutMs: 120_000,
})
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

const header = (): Locator => page.getByRole('banner')
const profileSelect = (): Locator => header().getByRole('combobox', { name: /^Profile/ })
const selectedProfile = async (): Promise<string> =>
  (await profileSelect().locator('option:checked').textContent()) ?? ''
const saveButton = (): Locator => page.getByRole('button', { name: 'Save settings' })

interface Box {
  readonly top: number
  readonly bottom: number
  readonly left: number
}

async function box(locator: Locator): Promise<Box> {
  return locator.evaluate((element) => {
    const rect = element.getBoundingClientRect()
    return { top: rect.top, bottom: rect.bottom, left: rect.left }
  })
}

/** Whether `locator` lies wholly inside the window (its scroll container is the app's main area). */
async function inWindow(locator: Locator): Promise<boolean> {
  const { top, bottom } = await box(locator)
  return top >= 0 && bottom <= WINDOW.height
}

/** The app's main area scrolled to its top or its bottom (where Settings' form scrolls). */
async function scrollMain(to: 'top' | 'bottom'): Promise<void> {
  await page.locator('.app-main').evaluate((main, where) => {
    main.scrollTop = where === 'top' ? 0 : main.scrollHeight
  }, to)
}

/** A control's look: what tells a locked field from an editable one. */
async function look(locator: Locator): Promise<{ background: string; border: string; color: string }> {
  return locator.evaluate((element) => {
    const style = element.ownerDocument.defaultView!.getComputedStyle(element)
    return { background: style.backgroundColor, border: style.borderTopStyle, color: style.color }
  })
}

describe('a clerk’s week, round three: Settings that can be read, and a new profile', () => {
  it('11. opens a first start on the machine policy’s first profile, not Demo', async () => {
    await page.getByRole('heading', { name: 'Sign in to RosterDesk' }).waitFor()
    expect(await selectedProfile()).toBe('Acme Ltd (Production)')
    expect((await app.core.handlers['settings:get']()).settings.environment).toBe('production')
    // Its service address is the policy's: signing in is the thing to do.
    expect(await page.getByRole('button', { name: 'Sign in with your browser' }).isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Enter the service address' }).count()).toBe(0)
    expect(ui.problems).toEqual([])
  })

  it('10. keeps Save and its confirmation in the window from the top and the bottom of the form', async () => {
    await header().getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    const index = page.getByRole('navigation', { name: 'Settings sections' })
    expect(await index.getByRole('button').allTextContents()).toEqual([
      'Service and sign-in',
      'Syncing',
      'Display',
      'Network and certificates',
      'Advanced',
    ])
    const formHeight = await page.locator('.settings-form').evaluate((form) => form.scrollHeight)
    expect(formHeight).toBeGreaterThan(WINDOW.height)

    // From the top: Save is in the window before anything is scrolled, and so is what it says.
    await scrollMain('top')
    expect(await inWindow(saveButton())).toBe(true)
    await page.getByLabel('Tenant ID').fill('acme-desk')
    await saveButton().click()
    const saved = page.getByRole('status').filter({ hasText: 'Settings saved.' })
    await saved.waitFor()
    expect(await inWindow(saved)).toBe(true)
    expect(await inWindow(saveButton())).toBe(true)
    await ui.screenshot('ui-week-three-settings-1-top-saved')

    // From the bottom: the last field, saved from where it is.
    await scrollMain('bottom')
    const wait = page.getByLabel('Longest wait for an answer (seconds)')
    expect(await inWindow(wait)).toBe(true)
    expect(await inWindow(saveButton())).toBe(true)
    await wait.fill('45')
    await saveButton().click()
    await saved.waitFor()
    expect(await inWindow(saved)).toBe(true)
    expect(await inWindow(saveButton())).toBe(true)
    // Above the footer, not under it.
    expect((await box(wait)).bottom).toBeLessThanOrEqual((await box(saveButton())).top)
    expect((await app.core.handlers['settings:get']()).settings).toMatchObject({
      tenantId: 'acme-desk',
      requestTimeoutSeconds: 45,
    })
    await ui.screenshot('ui-week-three-settings-2-bottom-saved')

    // The index takes the clerk to a section's heading.
    await index.getByRole('button', { name: 'Service and sign-in' }).click()
    const heading = page.getByRole('heading', { name: 'Service and sign-in', level: 2 })
    expect(await inWindow(heading)).toBe(true)
    // Only the form scrolled: the header stays where it was.
    expect((await box(header())).top).toBe(0)
    expect(ui.problems).toEqual([])
  })

  it('10. puts the client secret with the client ID, shows only Production’s address, and draws locked fields locked', async () => {
    const signIn = page.getByRole('group', { name: 'Sign-in', exact: true })
    const clientId = signIn.getByLabel('Client ID', { exact: true })
    const secret = signIn.getByLabel('Client secret')
    const [idBox, secretBox] = [await box(clientId), await box(secret)]
    // The next field down, in the same group, the same column.
    expect(secretBox.top).toBeGreaterThan(idBox.bottom)
    expect(secretBox.top - idBox.bottom).toBeLessThan(120)
    expect(secretBox.left).toBe(idBox.left)
    expect(await page.getByRole('button', { name: 'Save secret' }).count()).toBe(0)

    // Production is the profile's environment (locked by IT): no Staging address to edit.
    expect(await page.getByLabel('Staging address').count()).toBe(0)
    const address = page.getByLabel('Production address')
    expect(await address.inputValue()).toBe(
      (await app.core.handlers['settings:get']()).settings.baseUrls.production,
    )

    const editable = await look(page.getByLabel('Tenant ID'))
    for (const locked of [page.getByLabel('Environment', { exact: true }), address, clientId]) {
      expect(await locked.isDisabled()).toBe(true)
      const drawn = await look(locked)
      expect(drawn.background).not.toBe(editable.background)
      expect(drawn.border).toBe('dashed')
      expect(editable.border).toBe('solid')
    }
    expect(await page.getByText(POLICY_LOCKED_LABEL).count()).toBe(3)

    // The secret typed beside the client ID goes with the one Save, through its own channel, never back.
    await secret.fill('acme-secret-33')
    await saveButton().click()
    await page.getByRole('status').filter({ hasText: 'Client secret saved.' }).waitFor()
    expect(await secret.inputValue()).toBe('')
    await signIn.getByText('Stored', { exact: true }).waitFor()
    expect(app.calls.filter((call) => call.channel === 'settings:set-client-secret')).toHaveLength(1)
    expect(await page.content()).not.toContain('acme-secret-33')
    await page
      .locator('.app-main')
      .evaluate(
        (main, top) => (main.scrollTop += top - main.getBoundingClientRect().top - 24),
        (await box(signIn)).top,
      )
    await ui.screenshot('ui-week-three-settings-3-sign-in-locked')
    await page.getByRole('button', { name: 'Done' }).click()
    expect(ui.problems).toEqual([])
  })

  it('11. switches to a new profile at once and opens its Settings at the service address', async () => {
    await header().getByRole('button', { name: 'Manage profiles…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Profiles' })
    const form = dialog.getByRole('form', { name: 'New profile' })
    await form.getByLabel('Name').fill('Globex')
    await form.getByRole('radio', { name: 'Staging' }).check()
    await form.getByRole('button', { name: 'Create profile' }).click()

    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    expect(await selectedProfile()).toBe('Globex (Staging)')
    const address = page.getByLabel('Staging address')
    await page.waitForFunction("document.activeElement?.id === 'setting-stagingUrl'")
    expect(await inWindow(address)).toBe(true)
    expect(await page.getByLabel('Production address').count()).toBe(0)
    await ui.screenshot('ui-week-three-settings-4-new-profile')

    // Left without an address: the first screen asks for it, not for a sign-in that would be refused.
    await page.getByRole('button', { name: 'Done' }).click()
    const enter = page.getByRole('button', { name: 'Enter the service address' })
    await enter.waitFor()
    expect(await page.getByRole('button', { name: 'Sign in with your browser' }).count()).toBe(0)
    await page.getByText('This profile has no Staging service address yet.', { exact: false }).waitFor()
    await ui.screenshot('ui-week-three-settings-5-enter-address')
    await enter.click()
    await page.waitForFunction("document.activeElement?.id === 'setting-stagingUrl'")
    await address.fill('https://staging.globex.example')
    await saveButton().click()
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor()
    await page.getByRole('button', { name: 'Done' }).click()
    // An address but no client ID: the screen asks for that next, and Settings opens at it.
    const enterClientId = page.getByRole('button', { name: 'Enter the client ID' })
    await enterClientId.waitFor()
    expect(await page.getByRole('button', { name: 'Sign in with your browser' }).count()).toBe(0)
    await enterClientId.click()
    await page.waitForFunction("document.activeElement?.id === 'setting-clientId'")
    await page.getByLabel('Client ID').fill('globex-desk')
    await saveButton().click()
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor()
    await page.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('button', { name: 'Sign in with your browser' }).waitFor()
    expect(ui.problems).toEqual([])
  })
})
