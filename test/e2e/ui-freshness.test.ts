import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { systemClock, type Clock } from '../../src/main/core/clock'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * Old data you cannot miss, end to end: the built renderer in headless Chromium over the real core and the
 * sandbox. Two clocks are set, as two computers' would be: the core's (which stamps when a sync ended) is put back
 * to Monday 23 November 09:12 in Berlin for the first sync, and the page's stands on Thursday 26 November 10:00,
 * so the employees the window shows are three days old.
 */

const SIZE = 200
const TIME_ZONE = 'Europe/Berlin'
const MONDAY_0912 = Date.parse('2026-11-23T09:12:00+01:00')
const THURSDAY_1000 = Date.parse('2026-11-26T10:00:00+01:00')

/** How far the core's clock is from the real one; the sync's times follow it. */
let offset = 0
const coreClock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep }
/** Sets the core's clock to `moment`, from which it runs on. */
const setCoreTime = (moment: number): void => {
  offset = moment - Date.now()
}

const session = useUiSession({
  sandbox: { size: SIZE },
  viewport: { width: 1280, height: 720 },
  timezoneId: TIME_ZONE,
  clock: coreClock,
  // The page's clock: Date stands at Thursday 10:00 while its timers still run, so the app works as usual.
  beforeApp: (browser) => browser.context.clock.setFixedTime(THURSDAY_1000),
})
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

describe('the stale-data banner in the real app', () => {
  it('says how old the employees are, and when exactly they were synced', async () => {
    await page.getByRole('button', { name: 'Sign in with your browser' }).click()
    await app.approveSignIn()
    await page.getByText('Sync to download employees.').waitFor()

    setCoreTime(MONDAY_0912)
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText(`${SIZE} of ${SIZE} employees`).waitFor({ timeout: 30_000 })
    const lastComplete = app.core.sync.getStatus().lastComplete
    expect(lastComplete?.endedAt.slice(0, 16)).toBe('2026-11-23T08:12')

    const banner = page.getByRole('region', { name: 'Data age' })
    await banner.waitFor()
    expect(await banner.getByText(/^Employees last synced/).innerText()).toBe(
      'Employees last synced 3 days ago (Mon 11/23, 09:12 AM)',
    )
    expect(await page.getByText(/^Last synced/).innerText()).toBe('Last synced 3 days ago')
    expect(await banner.getByRole('button', { name: 'Sync now' }).isVisible()).toBe(true)
    await ui.screenshot('ui-freshness-1-stale-banner')
    expect(ui.problems).toEqual([])
  })

  it('Sync now brings the data up to date and the banner goes', async () => {
    setCoreTime(THURSDAY_1000)
    const banner = page.getByRole('region', { name: 'Data age' })
    await banner.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText('Last synced just now').waitFor({ timeout: 30_000 })
    await banner.waitFor({ state: 'detached' })
    expect(app.calls.filter((call) => call.channel === 'sync:start')).toHaveLength(2)
    await ui.screenshot('ui-freshness-2-synced')
    expect(ui.problems).toEqual([])
  })

  it('Settings holds the threshold and the automatic syncs, checked by the one schema and saved in main', async () => {
    await page.getByRole('button', { name: 'Settings' }).click()
    const group = page.getByRole('group', { name: 'Keeping employees up to date' })
    await group.waitFor()
    const every = group.getByLabel('Sync automatically every (hours)')
    expect(await group.getByLabel('Warn when the data is older than (hours)').inputValue()).toBe('24')
    expect(await group.getByLabel('Sync when RosterDesk starts').isChecked()).toBe(false)
    expect(await every.inputValue()).toBe('0')
    await every.fill('25')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await group
      .getByText(
        'Enter how many hours apart automatic syncs run: a whole number from 0 to 24 (0 turns them off).',
      )
      .waitFor()
    await group.scrollIntoViewIfNeeded()
    await ui.screenshot('ui-freshness-3-settings')
    await every.fill('4')
    await group.getByLabel('Sync when RosterDesk starts').check()
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    const updates = app.calls.filter((call) => call.channel === 'settings:update')
    expect(updates.map((call) => call.args)).toEqual([[{ syncOnLaunch: true, syncEveryHours: 4 }]])
    const { settings } = await app.core.handlers['settings:get']()
    expect(settings).toMatchObject({ staleAfterHours: 24, syncOnLaunch: true, syncEveryHours: 4 })
    expect(ui.problems).toEqual([])
  })
})
