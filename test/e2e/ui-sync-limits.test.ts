import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * The sync's limits as settings and what a sync shortened, end to end: the built renderer in headless Chromium
 * over the real core and the sandbox. The clerk sets "Most employees" under Advanced below what the service
 * claims and the sync is refused in those words; with the default back, a sync of a service sending one huge
 * field completes and the sync bar says a value was shortened; after the service changes, the change report's
 * CSV choice carries the export bar's note. Screenshots go to test/e2e/screenshots/.
 */

const SIZE = 300

const session = useUiSession({ sandbox: { size: SIZE, seed: 5 }, start: 'signed-in' })
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const advanced = (): Locator => page.getByRole('group', { name: 'Advanced' })

async function saveMostEmployees(value: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const most = advanced().getByLabel('Most employees')
  await most.fill(value)
  await page.getByRole('button', { name: 'Save settings' }).click()
  await page.getByText('Settings saved.').waitFor()
}

describe('sync limits in Settings, and values a sync shortened', () => {
  it('1. Advanced shows the limits with their ranges and defaults, and refuses a value out of range', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const group = advanced()
    await group.waitFor()
    expect(await group.getByLabel('Longest wait for an answer (seconds)').inputValue()).toBe('30')
    expect(await group.getByLabel('Longest sync (minutes)').inputValue()).toBe('120')
    const most = group.getByLabel('Most employees')
    expect(await most.inputValue()).toBe('5000000')
    await group.getByLabel('Longest sync (minutes)').fill('0')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await group.getByText('Longest sync (minutes) must be a whole number from 1 to 1,440.').waitFor()
    await group.scrollIntoViewIfNeeded()
    await ui.screenshot('ui-sync-limits-1-advanced')
    await group.getByLabel('Longest sync (minutes)').fill('120')
    await most.fill('100')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    expect(app.calls.filter((call) => call.channel === 'settings:update').map((call) => call.args)).toEqual([
      [{ maxEmployees: 100 }],
    ])
    await page.getByRole('button', { name: 'Done' }).click()
    expect(ui.problems).toEqual([])
  })

  it('2. a sync of more employees than “Most employees” stops at once and says what to change', async () => {
    await page.getByRole('button', { name: 'Sync now' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'more than the 100 RosterDesk is set to accept' })
    await alert.waitFor({ timeout: 30_000 })
    expect(await alert.innerText()).toContain(`claims ${SIZE} employees`)
    expect(await alert.innerText()).toContain('raise “Most employees” in Settings')
    expect(sandbox.stats().listRequests).toBeLessThanOrEqual(4)
    await ui.screenshot('ui-sync-limits-2-refused')
    expect(ui.problems).toEqual([])
  })

  it('3. with the ceiling raised, a sync of one huge field completes and the sync bar says it was shortened', async () => {
    await saveMostEmployees('5000000')
    await page.getByRole('button', { name: 'Done' }).click()
    sandbox.setBehaviours({ oversizedField: { page: 1, row: 3, characters: 40_000 } })
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText(`${SIZE} of ${SIZE} employees`).waitFor({ timeout: 30_000 })
    const note = page
      .getByRole('region', { name: 'Sync' })
      .getByText('1 long value was shortened; see the log (Help → Open log folder).')
    await note.waitFor()
    expect(app.core.sync.getStatus().lastComplete?.truncatedFields).toBe(1)
    await ui.screenshot('ui-sync-limits-3-shortened')
    expect(ui.problems).toEqual([])
  })

  it('4. the change report’s CSV choice carries the export bar’s note about leading zeros', async () => {
    sandbox.setBehaviours({ oversizedField: null, mutate: { rows: 5, listRequests: 1 } })
    const { accessToken } = sandbox.issueTokens()
    const response = await fetch(`${sandbox.baseUrl}/employees/list?page=1&limit=1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    await response.text()
    sandbox.setBehaviours({ mutate: null })
    await page.getByRole('button', { name: 'Sync', exact: true }).click()
    const summary = page.getByRole('button', { name: /^0 added, 0 removed, \d+ changed$/ })
    await summary.waitFor({ timeout: 30_000 })
    // The value shortened before is whole again: this sync shortened nothing.
    await page.getByText(/long value/).waitFor({ state: 'detached' })
    await summary.click()
    const dialog = page.getByRole('dialog', { name: 'Change report' })
    await dialog.waitFor()
    await dialog.getByLabel('Export format').selectOption('csv')
    const note = dialog.getByRole('note').filter({ hasText: 'Spreadsheet apps drop leading zeros' })
    await note.waitFor()
    await ui.screenshot('ui-sync-limits-4-change-report-csv')
    await note.getByRole('button', { name: 'Use Excel (.xlsx) instead' }).click()
    expect(await dialog.getByLabel('Export format').inputValue()).toBe('xlsx')
    await note.waitFor({ state: 'detached' })
    expect(ui.problems).toEqual([])
  })
})
