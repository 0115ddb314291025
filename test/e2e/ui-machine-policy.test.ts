import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import {
  CSV_NOT_ALLOWED_MESSAGE,
  POLICY_LOCKED_LABEL,
  POLICY_PROBLEM_PREFIX,
  retentionNotice,
} from '../../src/shared/policy-view'
import { auditBothThemes } from '../helpers/axe-audit'
import { makeEmployees } from '../helpers/fake/fake-employees'
import type { AppPage } from '../helpers/harness'
import { useFakeUiSession } from '../helpers/harness/fake-app'

/**
 * What a clerk sees of the organisation's machine policy, in a real browser: the built renderer in headless
 * Chromium under the production CSP, over the fake core (fake-core.ts, given the policy view main would send and
 * a profile the policy created; its export rules are the core's own functions). Each screen is audited by
 * axe-core in the light theme (every rule) and the dark one (colour contrast); with ROSTERDESK_SCREENSHOTS=1 both
 * are saved as test/e2e/screenshots/ui-machine-policy-*.png.
 */

const PROBLEM = `${POLICY_PROBLEM_PREFIX} C:\\ProgramData\\RosterDesk\\policy.json: "exports.maxRows" must be a whole number.`

const session = useFakeUiSession({
  serviceEmployees: makeEmployees(40),
  synced: true,
  signedIn: true,
  settings: { environment: 'production', baseUrls: { staging: '', production: 'https://payroll.example' } },
  managedByPolicy: true,
  otherProfiles: [{ name: 'Own profile', employees: makeEmployees(3) }],
  policy: {
    source: 'HKLM\\Software\\Policies\\RosterDesk',
    lockedFields: [
      'environment',
      'baseUrls.production',
      'clientId',
      'syncScope',
      'proxyMode',
      'clientSecret',
    ],
    problem: PROBLEM,
    notices: [retentionNotice(30)],
    exports: { csvAllowed: false, maxRows: 25 },
  },
})
let ui: AppPage
let page: Page
beforeAll(async () => {
  ;({ ui, page } = session())
  await page.getByText('40 of 40 employees').waitFor()
})

/** Audits what is on screen in both themes, screenshotting each when wanted; fails listing every violation. */
async function expectAccessible(name: string): Promise<void> {
  const failures = await auditBothThemes(page, name, (theme) =>
    ui.screenshot(`ui-machine-policy-${name}-${theme}`),
  )
  expect.soft(failures, failures.join('\n\n')).toEqual([])
  expect.soft(ui.problems).toEqual([])
}

const notices = (): Locator => page.getByRole('region', { name: 'From your organisation' })

describe('the machine policy, as the clerk sees it', () => {
  it('1. says once what the policy could not read and what it deleted, dismissed one by one, a reload included', async () => {
    await notices().getByText(PROBLEM).waitFor()
    await notices().getByText(retentionNotice(30)).waitFor()
    // Beside the export: CSV is not offered, and why.
    const menu = page.getByLabel('Export format')
    expect(await menu.locator('option[value="csv"]').isDisabled()).toBe(true)
    await page.getByText(CSV_NOT_ALLOWED_MESSAGE).waitFor()
    await expectAccessible('1-notices')

    await notices()
      .locator('.policy-notice', { hasText: POLICY_PROBLEM_PREFIX })
      .getByRole('button', { name: 'Dismiss' })
      .click()
    await notices().getByText(PROBLEM).waitFor({ state: 'detached' })
    await page.reload()
    await page.getByText('40 of 40 employees').waitFor()
    await notices().getByText(retentionNotice(30)).waitFor()
    expect(await page.getByText(PROBLEM).count()).toBe(0)
    await notices().getByRole('button', { name: 'Dismiss' }).click()
    await notices().waitFor({ state: 'detached' })
  })

  it('2. shows the fields the policy sets disabled, "Set by your organisation" beside each', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    for (const label of ['Environment', 'Production address', 'Client ID']) {
      expect(await page.getByLabel(label, { exact: true }).isDisabled()).toBe(true)
    }
    expect(await page.getByLabel('Tenant ID').isDisabled()).toBe(false)
    expect(await page.getByText(POLICY_LOCKED_LABEL).count()).toBe(6)
    await expectAccessible('2-settings')
    await page.getByRole('group', { name: 'Network' }).evaluate((element) => element.scrollIntoView())
    await expectAccessible('2-settings-network')
    await page.getByRole('button', { name: 'Done' }).click()
  })

  it('3. shows a profile the policy created as set by the organisation, with no Rename or Delete', async () => {
    await page.getByRole('button', { name: 'Manage profiles…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Profiles' })
    await dialog.waitFor()
    const managed = dialog.getByRole('listitem').filter({ hasText: POLICY_LOCKED_LABEL })
    expect(await managed.count()).toBe(1)
    expect(await managed.getByRole('button', { name: /^(Rename|Delete)/ }).count()).toBe(0)
    await dialog.getByRole('button', { name: 'Rename Own profile' }).waitFor()
    await expectAccessible('3-profiles')
    await page.keyboard.press('Escape')
  })
})
