import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { aboutCells, readXlsx } from '../helpers/xlsx-reader'

/**
 * Decision 039 end to end (issue 24, point 1): the built renderer in Chromium over the real app core and the
 * sandbox. A clerk changes the Demo profile's environment in Settings: the confirmation names both choices; set
 * aside, none of Demo's employees show under Staging; restored from Manage profiles, they show as Demo's, and an
 * export says so; a new profile for another environment keeps this one as it was.
 */

const SIZE = 300

const session = useUiSession({ sandbox: { size: SIZE, seed: 11 }, start: 'synced', setupTimeoutMs: 120_000 })
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

const header = (): Locator => page.getByRole('banner')
/** The confirmation, whose title names where the saved employees came from: Demo's, in every step here. */
const confirmation = (): Locator =>
  page.getByRole('dialog', { name: 'These saved employees came from Demo (sample data)' })

/** Settings → an environment with an address → Save settings: the confirmation opens. */
async function changeEnvironment(environment: 'Staging' | 'Production', address: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  await page.getByRole('heading', { name: 'Settings' }).waitFor()
  await page.locator('#setting-environment').selectOption({ label: environment })
  await page.locator(`#setting-${environment.toLowerCase()}Url`).fill(address)
  await page.getByRole('button', { name: 'Save settings' }).click()
  await confirmation().waitFor()
}

/** The newest .xlsx in the data folder (where the harness's save dialog puts exports). */
function newestExport(): string {
  const files = readdirSync(app.dataDir)
    .filter((name) => name.endsWith('.xlsx'))
    .map((name) => join(app.dataDir, name))
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!
}

describe('the data on screen always says where it came from', () => {
  it('1. asks, naming both choices, before changing the source of a profile with saved employees', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    await expect
      .poll(() => page.locator('.data-source').innerText())
      .toBe('Employees from Demo (sample data)')
    // Rows and settings agree: the header says nothing more than its badge.
    expect(await header().getByRole('note').count()).toBe(0)
    await changeEnvironment('Staging', 'https://staging.payroll.example.com')
    expect(await confirmation().getByRole('button').allInnerTexts()).toEqual([
      'Create a new profile for Staging',
      `Change this profile and set its ${SIZE} saved employees aside`,
      'Cancel',
    ])
    // "Demo" would name the old source beside the Staging badge: the confirmation says the profile is renamed.
    expect(await confirmation().innerText()).toContain(
      'It also renames the profile “Staging”, since “Demo” names the old source.',
    )
    await ui.screenshot('ui-identity-1-confirmation')
    expect((await app.core.handlers['settings:get']()).settings.environment).toBe('demo')
  })

  it('2. set aside: no Demo employee shows under Staging', async () => {
    await confirmation()
      .getByRole('button', { name: `Change this profile and set its ${SIZE} saved employees aside` })
      .click()
    await confirmation().waitFor({ state: 'detached' })
    await expect
      .poll(async () => (await app.core.handlers['settings:get']()).settings.environment)
      .toBe('staging')
    await header().getByLabel('Environment: Staging').waitFor()
    expect(app.core.queries.query({ limit: 1 }).total).toBe(0)
    expect((await app.core.handlers['profiles:list']()).profiles.map((p) => p.name)).toEqual(['Staging'])
    await expect
      .poll(() =>
        header()
          .getByRole('combobox', { name: /^Profile/ })
          .locator('option:checked')
          .innerText(),
      )
      .toBe('Staging')
    await expect.poll(() => page.getByText(allEmployeesText(SIZE)).count()).toBe(0)
    expect(await page.getByText(/Last synced/).count()).toBe(0)
    await ui.screenshot('ui-identity-2-set-aside')
    expect(ui.problems).toEqual([])
  })

  it('3. restored from Manage profiles: the rows show as Demo’s, and an export’s About sheet says Demo', async () => {
    await header().getByRole('button', { name: 'Manage profiles…' }).click()
    const profiles = page.getByRole('dialog', { name: 'Profiles' })
    const restore = profiles.getByRole('button', {
      name: /^Restore the Demo employees set aside on \d+\/\d+$/,
    })
    await restore.waitFor()
    await ui.screenshot('ui-identity-3-restore-offered')
    await restore.click()
    // The cache under the window was replaced: the workspace reloads (the dialog with it) and shows the rows.
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    if (await profiles.isVisible()) await page.keyboard.press('Escape')
    await profiles.waitFor({ state: 'detached' })
    // The profile reads Staging now; the rows on screen are Demo's and say so.
    await header().getByLabel('Environment: Staging').waitFor()
    await expect
      .poll(() => page.locator('.data-source').innerText())
      .toBe('Employees from Demo (sample data)')
    expect(await header().getByRole('note').innerText()).toBe('Showing Demo (sample data) employees')
    // The count line names them too.
    expect(await page.locator('.result-count').innerText()).toBe(
      `${allEmployeesText(SIZE)} from Demo (sample data)`,
    )
    await ui.screenshot('ui-identity-4-restored')

    await page.getByRole('button', { name: `Export ${SIZE} rows…` }).click()
    await page.getByText(new RegExp(`^Exported ${SIZE} rows to `)).waitFor({ timeout: 60_000 })
    const about = aboutCells(await readXlsx(newestExport()))
    expect(about.get('Environment')?.v).toBe('Demo (sample data)')
    expect(ui.problems).toEqual([])
  })

  it('4. a new profile for Production: switched to, empty, and the first profile keeps its employees', async () => {
    await changeEnvironment('Production', 'https://payroll.example.com')
    await confirmation().getByRole('button', { name: 'Create a new profile for Production' }).click()
    await confirmation().waitFor({ state: 'detached' })
    const select = header().getByRole('combobox', { name: /^Profile/ })
    await expect.poll(() => select.getAttribute('aria-label')).toBe('Profile (Production environment)')
    expect(app.core.queries.query({ limit: 1 }).total).toBe(0)
    expect(await page.getByText(allEmployeesText(SIZE)).count()).toBe(0)
    const list = await app.core.handlers['profiles:list']()
    expect(list.profiles.map((p) => [p.name, p.environment, p.employeeCount])).toEqual([
      ['Staging', 'staging', SIZE],
      ['Production', 'production', 0],
    ])
    await ui.screenshot('ui-identity-5-new-profile')
    expect(ui.problems).toEqual([])
  })
})
