import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'
import { readXlsx } from '../helpers/xlsx-reader'

/**
 * Numbers kept exactly as the service wrote them (issue 32, point 6), through the app core in real Chromium: a
 * service that sends an employee number beyond 2^53 and a salary beyond a double's range as JSON numbers (the
 * sandbox's `rawFields`). The clerk sees the exact digits in the grid and the detail panel, the sync bar says a
 * value was kept as text, and the exported cells, read back with openpyxl, hold the same digits as text.
 */

const SIZE = 60
const NUMBER = '12345678901234567890'
const session = useUiSession({
  sandbox: {
    size: SIZE,
    seed: 32,
    behaviours: {
      rawFields: { page: 1, row: 2, fields: { employeeNumber: NUMBER, annualSalary: '1e400' } },
    },
  },
  start: 'synced',
})
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })

describe('numbers beyond a double, on screen and in the export', () => {
  it('shows the exact digits and says what was kept as text; the export holds them as text cells', async () => {
    const uuid = String(sandbox.allEmployees()[1]!['UUID'])
    await page
      .getByRole('region', { name: 'Sync' })
      .getByText('1 value was too large for a number and was kept as text.')
      .waitFor()
    expect(app.core.sync.getStatus().lastComplete?.numbersTooLarge).toBe(1)

    await page.getByRole('searchbox', { name: 'Search employees' }).fill(uuid)
    await expect.poll(() => grid().getByRole('gridcell', { name: NUMBER }).count()).toBe(1)
    expect(await grid().innerText()).toContain('1e400')
    await grid().getByRole('gridcell', { name: NUMBER }).click()
    const panel = page.locator('aside.detail-panel')
    await expect.poll(() => panel.innerText()).toContain(NUMBER)
    await ui.screenshot('ui-exact-numbers-1-grid')

    await page.getByRole('button', { name: /^Export 1 row/ }).click()
    await page.getByText(/^Exported 1 row to /).waitFor({ timeout: 60_000 })
    const file = readdirSync(app.dataDir).find((name) => /^Demo – Employees.*\.xlsx$/.test(name))
    expect(file).toBeDefined()
    const rows = (await readXlsx(join(app.dataDir, file!))).sheets[0]!.rows
    const at = (label: string): number => rows[0]!.findIndex((cell) => cell?.v === label)
    expect(rows).toHaveLength(2)
    expect(rows[1]![at('Employee number')]).toMatchObject({ v: NUMBER, t: 's' })
    expect(rows[1]![at('Annual salary')]).toMatchObject({ v: '1e400', t: 's' })
    expect(ui.problems).toEqual([])
  })
})
