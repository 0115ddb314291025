import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { systemClock, type Clock } from '../../src/main/core/clock'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { auditPage, describeViolations } from '../helpers/axe-audit'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * Issue 24, point 6 and the detail panel's manager, in real Chromium over the real core and the sandbox: signing
 * in again never hides the saved employees (the waiting card sits above the rows, which stay clickable), a lost
 * sign-in is one message, and with the service out of reach "Look up on the service" is off with its reason.
 */

const SIZE = 300

/** How far the core's clock is ahead of the real one: moved on to make the access token expire. */
let offset = 0
const coreClock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep }

const session = useUiSession({
  sandbox: { size: SIZE, seed: 5 },
  viewport: { width: 1366, height: 768 },
  clock: coreClock,
  // A refused connection is given up on after two quick attempts, so the offline step takes seconds.
  syncRetry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 100 },
  start: 'synced',
  setupTimeoutMs: 120_000,
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const bodyRows = (): Locator => grid().locator('[role="row"]:not([aria-rowindex="1"])')
const detailPanel = (): Locator => page.locator('aside.detail-panel')
const syncBar = (): Locator => page.getByRole('region', { name: 'Sync' })

/** Screenshots in both themes (when wanted) and an axe audit of each; fails listing every violation. */
async function shootAndAudit(name: string): Promise<void> {
  const failures: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)))')
    await ui.screenshot(`ui-signin-offline-${name}-${theme}`)
    const violations = await auditPage(page, theme === 'dark' ? ['color-contrast'] : undefined)
    if (violations.length > 0) failures.push(`${name}, ${theme}:\n${describeViolations(violations)}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  expect(failures, failures.join('\n\n')).toEqual([])
}

describe('the saved employees stay in view', () => {
  it('the detail panel names the manager from the saved employees, with their number', async () => {
    const employees = sandbox.allEmployees()
    const text = (row: Record<string, unknown>, key: string): string => String(row[key])
    const byUuid = new Map(employees.map((row) => [text(row, 'UUID'), row]))
    const employee = employees.find((row) => byUuid.has(text(row, 'managerUUID')))!
    const manager = byUuid.get(text(employee, 'managerUUID'))!
    await page.getByRole('combobox', { name: 'Search in' }).selectOption({ label: 'Employee number' })
    await page.getByRole('searchbox', { name: 'Search employees' }).fill(text(employee, 'employeeNumber'))
    await page.getByText(`1 of ${SIZE} employees`).waitFor()
    await bodyRows().first().click()
    const panel = detailPanel()
    await panel.getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    const managerField = panel
      .locator('.detail-field')
      .filter({ has: page.getByText('Manager', { exact: true }) })
    await expect
      .poll(() => managerField.locator('dd').innerText())
      .toBe(`${text(manager, 'firstName')} ${text(manager, 'lastName')} (${text(manager, 'employeeNumber')})`)
    expect(await panel.getByText(text(manager, 'UUID')).count()).toBe(0)
    expect(await panel.getByRole('heading', { name: /^Pay cycles?$/ }).count()).toBe(1)
    await shootAndAudit('1-manager')
    await page.getByRole('button', { name: 'Close details' }).click()
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('')
    await page.getByRole('combobox', { name: 'Search in' }).selectOption({ index: 0 })
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(ui.problems).toEqual([])
  })

  it("Settings' Tenant ID shows the tenant in use, as the header does (Demo's own)", async () => {
    const inHeader = await page.getByRole('banner').locator('.tenant strong').innerText()
    expect(inHeader).toBe(app.core.auth.getState().tenantId)
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const tenant = page.locator('#setting-tenantId')
    await expect.poll(() => tenant.inputValue()).toBe(inHeader)
    expect(await tenant.getAttribute('readonly')).not.toBeNull()
    // Staging's tenant is the one the field edits: empty here, as saved.
    await page.locator('#setting-environment').selectOption({ label: 'Staging' })
    expect(await page.locator('#setting-tenantId').inputValue()).toBe('')
    expect(await page.locator('#setting-tenantId').getAttribute('readonly')).toBeNull()
    await page.locator('#setting-environment').selectOption({ label: 'Demo' })
    await page.getByRole('button', { name: 'Back to employees' }).click()
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    expect(ui.problems).toEqual([])
  })

  it('signing in again: the waiting card sits above the rows, which stay visible and clickable', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await syncBar().getByRole('button', { name: 'Sign in to sync' }).click()
    const card = page.getByRole('region', { name: 'Signing in' })
    await card.getByText('Waiting for you to approve RosterDesk in your browser…').waitFor()
    // Beside the rows, not over them: the card ends above the grid, and the rows are on screen.
    const cardBox = (await card.boundingBox())!
    const gridBox = (await grid().boundingBox())!
    expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(gridBox.y)
    expect(await bodyRows().count()).toBeGreaterThan(5)
    expect(await bodyRows().first().isVisible()).toBe(true)
    expect(await page.getByText(allEmployeesText(SIZE)).isVisible()).toBe(true)
    await shootAndAudit('2-signing-in-beside-rows')
    // Usable while waiting: a click opens the employee.
    await bodyRows().nth(2).click()
    await detailPanel().getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    expect(await card.isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Close details' }).click()

    await app.approveSignIn()
    await syncBar().getByRole('button', { name: 'Sync', exact: true }).waitFor()
    expect(await card.count()).toBe(0)
    expect(ui.problems).toEqual([])
  })

  it('a lost sign-in is one message', async () => {
    // The access token runs out (the core's clock moves past it) and the service refuses to renew it.
    sandbox.setBehaviours({ rejectRefresh: true })
    offset += 2 * 3600_000
    await syncBar().getByRole('button', { name: 'Sync', exact: true }).click()
    await page.getByRole('banner').getByText('Not signed in').waitFor({ timeout: 30_000 })
    await syncBar().getByRole('button', { name: 'Sign in to sync' }).waitFor()
    await expect
      .poll(() => page.getByRole('alert').allInnerTexts())
      .toEqual(['Your sign-in has expired. Sign in again to continue.'])
    expect(await page.getByText(allEmployeesText(SIZE)).isVisible()).toBe(true)
    await shootAndAudit('3-sign-in-lost')

    sandbox.setBehaviours({ rejectRefresh: false })
    await syncBar().getByRole('button', { name: 'Sign in to sync' }).click()
    await app.approveSignIn()
    await syncBar().getByRole('button', { name: 'Sync', exact: true }).waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(ui.problems).toEqual([])
  })

  it('with the service out of reach, "Look up on the service" is off and says why', async () => {
    await sandbox.close()
    await syncBar().getByRole('button', { name: 'Sync', exact: true }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: /was refused/ })
      .waitFor({ timeout: 60_000 })
    // A service that does not answer is not the clerk's network: no "Offline" (issue 33, point 5).
    expect(await page.getByText(/Offline/).count()).toBe(0)
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('Nobody-by-this-name')
    await page.getByText('No matches').waitFor()
    const lookUp = page.getByRole('button', { name: 'Look up on the service' })
    expect(await lookUp.isDisabled()).toBe(true)
    const reasonId = await lookUp.getAttribute('aria-describedby')
    expect(await page.locator(`[id="${reasonId}"]`).innerText()).toBe(
      'The payroll service did not answer the last sync: sync again once it is back, then look up.',
    )
    expect(app.calls.filter((call) => call.channel === 'employees:lookup-service')).toEqual([])
    // The sync's message says how often it tried, in words.
    expect(await syncBar().getByRole('alert').innerText()).toMatch(/tried twice without success\.$/)
    await shootAndAudit('4-offline-lookup')
    expect(ui.problems).toEqual([])
  }, 90_000)
})
