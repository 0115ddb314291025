import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { auditPage, describeViolations } from '../helpers/axe-audit'
import { makeEmployees } from '../helpers/fake/fake-employees'
import type { FakeCore } from '../helpers/fake/fake-core'
import type { AppPage } from '../helpers/harness'
import { useFakeUiSession } from '../helpers/harness/fake-app'

/**
 * The update banner in a real browser: the built renderer in headless Chromium under the production CSP, over the
 * fake core, whose updater plays main's (src/main/shell/updates/). Audited by axe-core in the light theme (every
 * rule) and the dark one (colour contrast); with ROSTERDESK_SCREENSHOTS=1 both are saved as
 * test/e2e/screenshots/ui-updates-*.png.
 */

const WAIT = 'RosterDesk restarts to update once it is done: a sync is running.'
const session = useFakeUiSession({
  serviceEmployees: makeEmployees(40),
  synced: true,
  signedIn: true,
  updates: { busyReason: WAIT },
})
let core: FakeCore
let ui: AppPage
let page: Page
beforeAll(async () => {
  ;({ core, ui, page } = session())
  await page.getByText('40 of 40 employees').waitFor()
})

async function expectAccessible(name: string): Promise<void> {
  const failures: string[] = []
  for (const { theme, rules } of [
    { theme: 'light', rules: undefined },
    { theme: 'dark', rules: ['color-contrast'] },
  ] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)))')
    await ui.screenshot(`ui-updates-${name}-${theme}`)
    const violations = await auditPage(page, rules)
    if (violations.length > 0) failures.push(`${name}, ${theme} theme:\n${describeViolations(violations)}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  expect.soft(failures, failures.join('\n\n')).toEqual([])
  expect.soft(ui.problems).toEqual([])
}

describe('the update banner in the browser', () => {
  it('offers the restart once an update is ready, says why it waits, and the failed note is muted', async () => {
    core.updates.setState({ status: 'ready', version: '1.4.0' })
    const banner = page.getByRole('region', { name: 'Update' })
    await banner.getByText('RosterDesk 1.4.0 is ready to install.').waitFor()
    await banner.getByRole('button', { name: 'Restart to update' }).click()
    await banner.getByRole('status').getByText(WAIT).waitFor()
    expect(core.updates.restarts).toBe(0)
    await expectAccessible('1-ready-waiting')

    core.updates.setState({
      status: 'failed',
      message: 'the update server could not be reached',
      at: new Date().toISOString(),
    })
    await page
      .getByText('Updates: the update server could not be reached. RosterDesk tries again later.')
      .waitFor()
    expect(await banner.count()).toBe(0)
    await expectAccessible('2-failed')
  })
})
