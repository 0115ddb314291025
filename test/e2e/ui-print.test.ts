import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * Print and the CSV note in real Chromium over the real core: Ctrl+P on the filtered view hands main's page to the
 * shell's printer (recorded by the harness), and that page, printed to PDF by Chromium as Electron's print would,
 * holds exactly the view's rows with money in two decimals. Screenshots: the export bar with the CSV note, and the
 * printed page as PNG.
 */

const run = promisify(execFile)
const session = useUiSession({ sandbox: { size: 600 }, start: 'synced' })
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

const folder = mkdtempSync(join(tmpdir(), 'rosterdesk-ui-print-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('printing the view', () => {
  it('offers Excel instead of CSV, saying why', async () => {
    const format = page.getByLabel('Export format')
    await format.selectOption('csv')
    const note = page.getByRole('note')
    await expect.poll(() => note.innerText()).toContain('Spreadsheet apps drop leading zeros from CSV files')
    await page
      .getByRole('group', { name: 'Export' })
      .screenshot({ path: join(__dirname, 'screenshots', 'ui-print-1-csv-note.png') })
    await note.getByRole('button', { name: 'Use Excel (.xlsx) instead' }).click()
    expect(await format.inputValue()).toBe('xlsx')
    expect(await note.count()).toBe(0)
    expect(await format.evaluate((element) => element.matches(':focus'))).toBe(true)
  })

  it('prints the filtered view with Ctrl+P: its rows, columns and filters, money with two decimals', async () => {
    const active = sandbox.allEmployees().filter((row) => row['employeeStatus'] === 'Active')
    await page
      .getByRole('group', { name: 'Status' })
      .getByRole('checkbox', { name: /^Active/ })
      .check()
    await expect
      .poll(() => page.getByText(/^[\d,]+ of [\d,]+ employees/).innerText())
      .toMatch(new RegExp(`^${active.length} of 600 employees`))
    // Annual salary is a default column (the sandbox sends pay data), and the print follows the visible columns.
    await page.getByRole('columnheader', { name: /Annual salary/ }).waitFor()
    // The table shows amounts as the printed page does: two decimals, by the shared money rule.
    const salaryCells = page.getByRole('gridcell').and(page.locator('[data-col="annualSalary"]'))
    await salaryCells.first().waitFor()
    for (const text of await salaryCells.allInnerTexts()) expect(text).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/)
    await page.getByRole('grid', { name: 'Employees' }).focus()
    await page.keyboard.press('Control+p')
    await expect.poll(() => app.printed.length).toBe(1)
    const printed = app.printed[0]!
    expect(printed.title).toBe('Employees')
    expect(printed.html).toContain('<dt>Statuses</dt><dd>Active</dd>')
    expect(printed.html.match(/<tr>/g)).toHaveLength(active.length + 1)
    expect(printed.html).toContain('>Annual salary</th>')
    const request = app.calls.find((call) => call.channel === 'export:print')?.args[0]
    expect(request).toMatchObject({ kind: 'view', query: { statuses: ['Active'] } })

    // The page as the printer gets it: landscape PDF pages, rendered to PNG to look at.
    const file = join(folder, 'print.html')
    writeFileSync(file, printed.html)
    const context = await session().browser.context.browser()!.newContext({ javaScriptEnabled: false })
    const sheet = await context.newPage()
    await sheet.goto(pathToFileURL(file).href)
    const pdf = join(folder, 'print.pdf')
    await sheet.pdf({ path: pdf, preferCSSPageSize: true, printBackground: true })
    await context.close()
    const text = (await run('/usr/bin/pdftotext', ['-f', '1', '-l', '1', '-layout', pdf, '-'])).stdout
    const salary = active[0]?.['annualSalary']
    expect(typeof salary).toBe('number')
    expect(text).toMatch(/Page 1 of \d+/)
    expect(text).toMatch(/\d{2,3},\d{3}\.\d{2}/)
    await run('/usr/bin/pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      pdf,
      join(__dirname, 'screenshots', 'ui-print-2-page-1'),
    ])
    await ui.screenshot('ui-print-3-after-print')
  })
})
