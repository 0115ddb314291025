import { mkdirSync, readdirSync } from 'node:fs'
import { basename, dirname, isAbsolute, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { auditBothThemes } from '../helpers/axe-audit'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { aboutCells, readXlsx } from '../helpers/xlsx-reader'

/**
 * Issue 33, points 6 to 8, as a clerk meets them at 1366×768: the built renderer in Chromium over the real app
 * core and the sandbox, with a machine policy that deletes saved employees at sign-out. One session, in order:
 * (6) a Demo profile changed to Staging (tenant acme), its employees set aside and restored: the header, the
 * count line and the export's About sheet all name the rows' source (Demo, tenant-demo), and the confirmation
 * names it too; (7) two profiles' exports are named after each profile and each opens in its own last folder;
 * (8) Sign out asks first, naming what the policy deletes, and leaves a notice after. Screenshots
 * (ROSTERDESK_SCREENSHOTS=1): test/e2e/screenshots/ui-week-three-profiles-*.png.
 */

const SIZE = 800

const session = useUiSession({
  sandbox: { size: SIZE, seed: 33 },
  start: 'synced',
  viewport: { width: 1366, height: 768 },
  setupTimeoutMs: 120_000,
  policy: () => ({
    policy: { personalData: { clearOnSignOut: true } },
    source: '/etc/rosterdesk/policy.json',
    problem: undefined,
  }),
})
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

const header = (): Locator => page.getByRole('banner')
const profileSelect = (): Locator => header().getByRole('combobox', { name: /^Profile/ })
const DATED = '\\d{4}-\\d\\d-\\d\\d'

/** Exports the whole view with the export bar, waiting for the message; returns the file's path. */
async function exportView(rows: number): Promise<string> {
  const offered = app.saveDialog.offered.length
  await page.getByRole('button', { name: `Export ${rows.toLocaleString('en')} rows…` }).click()
  await page
    .getByText(new RegExp(`^Exported ${rows.toLocaleString('en')} rows to `))
    .waitFor({ timeout: 60_000 })
  expect(app.saveDialog.offered.length).toBe(offered + 1)
  // Where the harness's save dialog put it: the folder the test picked, else where the dialog opened.
  const offeredPath = app.saveDialog.offered.at(-1)!
  if (app.saveDialog.folder !== undefined) return join(app.saveDialog.folder, basename(offeredPath))
  return isAbsolute(offeredPath) ? offeredPath : join(app.dataDir, offeredPath)
}

describe('profiles say whose data they show, name their files and warn before deleting', () => {
  it('6. after a restore the header, the count line and the export all name the rows’ source', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    await page.locator('#setting-environment').selectOption({ label: 'Staging' })
    await page.locator('#setting-stagingUrl').fill('https://staging.payroll.example.com')
    await page.locator('#setting-tenantId').fill('acme')
    await page.getByRole('button', { name: 'Save settings' }).click()
    // The confirmation names where the saved employees came from.
    const confirmation = page.getByRole('dialog', {
      name: 'These saved employees came from Demo (sample data)',
    })
    await confirmation.waitFor()
    expect(await page.getByText('came from elsewhere').count()).toBe(0)
    await ui.screenshot('ui-week-three-profiles-6-confirmation')
    await confirmation
      .getByRole('button', { name: `Change this profile and set its ${SIZE} saved employees aside` })
      .click()
    await confirmation.waitFor({ state: 'detached' })
    await header().getByLabel('Environment: Staging').waitFor()

    await header().getByRole('button', { name: 'Manage profiles…' }).click()
    const profiles = page.getByRole('dialog', { name: 'Profiles' })
    await profiles.getByRole('button', { name: /^Restore the Demo employees set aside on / }).click()
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    if (await profiles.isVisible()) await page.keyboard.press('Escape')
    await profiles.waitFor({ state: 'detached' })
    await expect
      .poll(() => page.locator('.data-source').innerText())
      .toBe('Employees from Demo (sample data)')

    // The header names the rows' source and tenant, not the settings' (Staging, tenant acme).
    expect(await header().getByRole('note').innerText()).toBe('Showing Demo (sample data) employees')
    await expect.poll(() => header().locator('.tenant').innerText()).toBe('Tenant tenant-demo')
    expect(await header().innerText()).not.toContain('acme')
    expect(await page.locator('.result-count').innerText()).toBe(
      `${allEmployeesText(SIZE)} from Demo (sample data)`,
    )
    // One line at 1366 px: the header did not grow.
    expect(await header().evaluate((element) => element.getBoundingClientRect().height)).toBeLessThan(70)
    await ui.screenshot('ui-week-three-profiles-6-restored')

    const about = aboutCells(await readXlsx(await exportView(SIZE)))
    expect(about.get('Environment')?.v).toBe('Demo (sample data)')
    expect(about.get('Tenant')?.v).toBe('tenant-demo')
    expect(ui.problems).toEqual([])
  })

  it('7. each profile’s exports start with its name and open in its own last folder', async () => {
    // A second client, on Demo too so it can sync from the sandbox.
    await app.core.handlers['profiles:create']('Acme Ltd', { environment: 'demo' })
    await expect.poll(() => profileSelect().locator('option').allInnerTexts()).toHaveLength(2)
    await profileSelect().selectOption({ label: 'Acme Ltd (Demo)' })
    await page.getByRole('button', { name: 'Sign in with your browser' }).click()
    await app.approveSignIn()
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText(allEmployeesText(SIZE)).waitFor({ timeout: 60_000 })

    // Acme's file, saved in Acme's folder.
    const acmeFolder = join(app.dataDir, 'Acme exports')
    mkdirSync(acmeFolder)
    app.saveDialog.folder = acmeFolder
    const acmeFile = await exportView(SIZE)
    expect(basename(acmeFile)).toMatch(new RegExp(`^Acme Ltd – Employees ${DATED}\\.xlsx$`))
    expect(readdirSync(acmeFolder)).toEqual([basename(acmeFile)])
    app.saveDialog.folder = undefined

    // The roster too.
    await page.getByRole('button', { name: 'Export roster…' }).click()
    const roster = page.getByRole('dialog', { name: 'Export a pay-cycle roster' })
    await roster.getByLabel('Pay cycle').selectOption({ index: 1 })
    const cycle = await roster.getByLabel('Pay cycle').inputValue()
    await roster.getByRole('button', { name: /^Export [\d,]+ rows…$/ }).click()
    await page.getByText(/^Exported [\d,]+ rows to /).waitFor({ timeout: 60_000 })
    expect(app.saveDialog.offered.at(-1)).toMatch(
      new RegExp(
        `^${acmeFolder.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}[/\\\\]Acme Ltd – Roster ${cycle} ${DATED}\\.xlsx$`,
      ),
    )
    await ui.screenshot('ui-week-three-profiles-7-acme-exported')

    // The other profile offers its own name, in its own folder (none chosen yet: where its last file went).
    await profileSelect().selectOption({ label: 'Staging' })
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const stagingFile = await exportView(SIZE)
    expect(basename(stagingFile)).toMatch(new RegExp(`^Staging – Employees ${DATED}\\.xlsx$`))
    expect(dirname(stagingFile)).not.toBe(acmeFolder)

    // Back to Acme: its folder again.
    await profileSelect().selectOption({ label: 'Acme Ltd (Demo)' })
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    await exportView(SIZE)
    expect(dirname(app.saveDialog.offered.at(-1)!)).toBe(acmeFolder)
    expect(ui.problems).toEqual([])
  })

  it('8. Sign out asks first when the policy deletes the saved employees, and says after that it did', async () => {
    const signOut = header().getByRole('button', { name: 'Sign out' })
    await signOut.click()
    const question = page.getByRole('dialog', { name: 'Sign out of Acme Ltd?' })
    await question.waitFor()
    expect(await question.innerText()).toContain(
      'Signing out also deletes the 800 saved employees of Acme Ltd, as your organisation requires.',
    )
    expect(await question.getByRole('button').allInnerTexts()).toEqual(['Sign out', 'Cancel'])
    // The safe answer has the focus: Enter pressed by habit deletes nothing.
    expect(
      await question
        .getByRole('button', { name: 'Cancel' })
        .evaluate((button) => button === button.ownerDocument.activeElement),
    ).toBe(true)
    const failures = await auditBothThemes(page, 'sign-out question', (theme) =>
      ui.screenshot(`ui-week-three-profiles-8-question-${theme}`),
    )
    expect(failures, failures.join('\n\n')).toEqual([])
    await question.getByRole('button', { name: 'Cancel' }).click()
    await question.waitFor({ state: 'detached' })
    expect((await app.core.handlers['auth:get-state']()).status).toBe('signed-in')
    expect(app.core.queries.query({ limit: 1 }).total).toBe(SIZE)

    await signOut.click()
    await question.getByRole('button', { name: 'Sign out' }).click()
    const notices = page.getByRole('region', { name: 'From your organisation' })
    await notices
      .getByText(
        'Signed out: the 800 saved employees of Acme Ltd were deleted, as your organisation requires. ' +
          'Sign in and sync to see employees again.',
      )
      .waitFor()
    expect(app.core.queries.query({ limit: 1 }).total).toBe(0)
    await page.getByRole('button', { name: 'Sign in with your browser' }).waitFor()
    await ui.screenshot('ui-week-three-profiles-8-notice')
    expect(ui.problems).toEqual([])
  })
})
