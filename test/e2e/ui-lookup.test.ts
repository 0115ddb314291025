import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * "Look up on the service" as a clerk uses it, in real Chromium over the real core and the sandbox service: an
 * employee HR added on the service after the morning's sync is not among the saved employees; the lookup finds
 * them on the service and shows them apart, as live and not saved; the next sync saves them.
 */

const SIZE = 2_000
const count = (n: number): string => n.toLocaleString('en')

const session = useUiSession({ sandbox: { size: SIZE }, start: 'synced', setupTimeoutMs: 120_000 })
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const liveResults = (): Locator => page.getByRole('region', { name: /^From the service/ })

describe('an employee hired after the sync', () => {
  let hired: Record<string, unknown>

  it('is not found in the saved employees', async () => {
    // The sandbox's churn adds one employee at the front of its list on the next list request.
    sandbox.setBehaviours({ churn: { add: 1, remove: 0, listRequests: 1 } })
    const { accessToken } = sandbox.issueTokens()
    const poke = await fetch(`${sandbox.baseUrl}/employees/list?limit=1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    expect(poke.status).toBe(200)
    expect(sandbox.employeeCount()).toBe(SIZE + 1)
    hired = sandbox.allEmployees()[0]!

    await page.getByRole('combobox', { name: 'Search in' }).selectOption({ label: 'Employee number' })
    await page.getByRole('searchbox', { name: 'Search employees' }).fill(String(hired['employeeNumber']))
    await page.getByText('No matches').waitFor()
    expect(await page.getByText(`0 of ${count(SIZE)} employees`).isVisible()).toBe(true)
    await page
      .getByText(
        `Not in your saved employees. Hired since the last sync? Search the payroll service for “${String(hired['employeeNumber'])}” in employee number.`,
      )
      .waitFor()
    await ui.screenshot('ui-lookup-1-not-saved')
    expect(ui.problems).toEqual([])
  })

  it('"Look up on the service" finds them and shows them as live, not saved', async () => {
    await page.getByRole('button', { name: 'Look up on the service' }).click()
    const live = liveResults()
    await live.waitFor()
    expect(await live.getByRole('heading').innerText()).toBe(
      'From the service just now — not in your saved employees until the next sync',
    )
    expect(await live.getByText('Live', { exact: true }).isVisible()).toBe(true)
    const rows = live.getByRole('table', { name: 'Employees found on the payroll service' }).getByRole('row')
    expect(await rows.count()).toBe(2)
    const row = rows.nth(1)
    expect(await row.getByRole('cell').first().innerText()).toBe('Not saved yet')
    for (const field of ['firstName', 'lastName', 'employeeStatus']) {
      expect(await row.getByRole('cell', { name: String(hired[field]), exact: true }).count()).toBe(1)
    }
    // Set apart by its colours too, not only by its words.
    // An expression string, as the test project's types have no DOM; Chromium evaluates it in the page.
    const look = await page.evaluate<{ border: string; background: string }>(
      `(() => { const style = getComputedStyle(document.querySelector('.live-results'));
        return { border: style.borderTopStyle, background: style.backgroundColor } })()`,
    )
    expect(look.border).toBe('dashed')
    expect(look.background).not.toBe('rgba(0, 0, 0, 0)')
    const asked = app.calls.filter((call) => call.channel === 'employees:lookup-service')
    expect(asked.map((call) => call.args)).toEqual([
      [{ text: String(hired['employeeNumber']), column: 'employeeNumber' }],
    ])
    await ui.screenshot('ui-lookup-2-live')
    expect(ui.problems).toEqual([])
  })

  it('is saved by the next sync, and the live answer goes', async () => {
    await page.getByRole('button', { name: 'Sync', exact: true }).click()
    await page.getByText(`1 of ${count(SIZE + 1)} employees`).waitFor({ timeout: 60_000 })
    expect(await liveResults().count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Look up on the service' }).isVisible()).toBe(true)
    expect(ui.problems).toEqual([])
  })
})
