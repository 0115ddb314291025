import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { arrayRowSource } from '../../src/main/core/export/array-row-source'
import { writeExport } from '../../src/main/core/export/export-engine'
import { printPageHtml } from '../../src/main/core/export/print-page'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/chromium'
import { ABOUT, GENERATED_COLUMNS, generatedRow } from '../helpers/export-fixtures'

/**
 * What a manager's printer gets, checked from the printed file: an export's .xlsx rendered to PDF by LibreOffice,
 * and the "Print…" page rendered to PDF by Chromium's print (what Electron's webContents.print uses), each read
 * back with poppler (page count, page size, text) and a page rendered to PNG under screenshots/ to look at.
 */

const run = promisify(execFile)
const SOFFICE = '/usr/bin/soffice'
const PDFINFO = '/usr/bin/pdfinfo'
const PDFTOTEXT = '/usr/bin/pdftotext'
const PDFTOPPM = '/usr/bin/pdftoppm'
const SCREENSHOTS = join(__dirname, 'screenshots')

/** Fails, never skips, when a tool is missing: a print test that does not run proves nothing. */
function requireTools(...tools: string[]): void {
  for (const tool of [...tools, PDFINFO, PDFTOTEXT, PDFTOPPM]) {
    if (!existsSync(tool)) {
      throw new Error(
        `${tool} is missing: install Debian's libreoffice-calc-nogui and poppler-utils (scripts/install-test-deps.sh).`,
      )
    }
  }
}

async function pdfInfo(pdf: string): Promise<{ pages: number; landscape: boolean }> {
  const info = (await run(PDFINFO, [pdf])).stdout
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])
  const [width = 0, height = 0] = (/Page size:\s+([\d.]+) x ([\d.]+)/.exec(info) ?? []).slice(1).map(Number)
  return { pages, landscape: width > height }
}

async function pageText(pdf: string, page: number): Promise<string> {
  const args = ['-f', String(page), '-l', String(page), '-layout', pdf, '-']
  return (await run(PDFTOTEXT, args, { maxBuffer: 16 * 1024 * 1024 })).stdout
}

describe('printed output', () => {
  let folder: string
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'rosterdesk-print-test-'))
  })
  afterEach(() => rmSync(folder, { recursive: true, force: true }))

  it('prints 444 rows on a few landscape pages in LibreOffice, not 30 pages in strips', async () => {
    requireTools(SOFFICE)
    const filePath = join(folder, 'roster.xlsx')
    const rows = Array.from({ length: 444 }, (_, index) => generatedRow(index))
    const columns = [
      ...GENERATED_COLUMNS,
      { key: 'department', label: 'Department', kind: 'text' as const },
      { key: 'jobTitle', label: 'Job title', kind: 'text' as const },
      { key: 'email', label: 'Email', kind: 'text' as const },
    ]
    const wide = rows.map((row, index) => ({
      ...row,
      department: ['Finance', 'Operations', 'People & Culture'][index % 3] as string,
      jobTitle: 'Senior payroll administrator',
      email: `employee.${index}@example-company.co.uk`,
    }))
    await writeExport({
      source: arrayRowSource(wide, 100),
      columns,
      about: { ...ABOUT, kind: 'roster', payCycleId: 'PC-2026-11-A' },
      filePath,
      format: 'xlsx',
    })
    const profile = join(folder, 'lo-profile')
    await run(
      SOFFICE,
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--convert-to',
        'pdf',
        '--outdir',
        folder,
        filePath,
      ],
      { timeout: 170_000 },
    )
    const pdf = join(folder, 'roster.pdf')
    const info = await pdfInfo(pdf)
    // 444 rows at about 60 a landscape page, plus the About sheet's one: not 30 pages in three strips.
    expect(info.pages).toBeGreaterThanOrEqual(5)
    expect(info.pages).toBeLessThanOrEqual(12)
    expect(info.landscape).toBe(true)
    // The second page starts with the repeated header and ends with the footer; the PNG is for a human to look at.
    await run(PDFTOPPM, [
      '-png',
      '-r',
      '70',
      '-f',
      '2',
      '-l',
      '2',
      '-singlefile',
      pdf,
      join(SCREENSHOTS, 'xlsx-print-page-2'),
    ])
    expect(readFileSync(join(SCREENSHOTS, 'xlsx-print-page-2.png')).subarray(1, 4).toString()).toBe('PNG')
    const text = await pageText(pdf, 2)
    expect(text.trimStart().split('\n')[0]).toMatch(/^UUID\s+First name\s+Last name/)
    expect(text).toMatch(
      new RegExp(`Exported 2026-11-22 10:45 .*Page 2 of ${info.pages}\\s+Roster PC-2026-11-A`),
    )
    expect(text).toContain('30,100.25')
  }, 180_000)

  describe('the Print page in Chromium', () => {
    let browser: Browser
    beforeAll(async () => {
      requireTools(CHROMIUM_PATH)
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
    })
    afterAll(async () => {
      await browser?.close()
    })

    const hostile: EmployeeRow = {
      ...generatedRow(3),
      firstName: '<script>document.title="owned"</script>',
      lastName: '<img src=x onerror="document.title=1">Evil',
      // A right-to-left override in a name: it may reverse its own cell, never the cells beside it.
      employeeNumber: '\u202E0004711',
    }
    const rows = [hostile, ...Array.from({ length: 443 }, (_, index) => generatedRow(index + 10))]

    it('keeps hostile text inert, even with scripts allowed', async () => {
      const file = join(folder, 'print.html')
      writeFileSync(
        file,
        printPageHtml({ about: ABOUT, columns: GENERATED_COLUMNS, rows, total: rows.length }),
      )
      const context = await browser.newContext()
      const page = await context.newPage()
      const dialogs: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      await page.goto(pathToFileURL(file).href)
      expect(await page.title()).toBe('Employees – RosterDesk')
      expect(await page.locator('script, img').count()).toBe(0)
      expect(await page.locator('tbody tr').first().locator('td').nth(1).textContent()).toBe(
        hostile['firstName'],
      )
      expect(await page.locator('tbody tr').first().locator('td').nth(2).textContent()).toBe(
        hostile['lastName'],
      )
      expect(dialogs).toEqual([])
      await context.close()
    })

    it('prints landscape pages with the header row and page numbers on each, looked at as PNG', async () => {
      const file = join(folder, 'print.html')
      writeFileSync(
        file,
        printPageHtml({
          about: { ...ABOUT, profile: 'Acme Ltd' },
          columns: GENERATED_COLUMNS,
          rows,
          total: 9000,
        }),
      )
      // As Electron's print window: no JavaScript at all.
      const context = await browser.newContext({ javaScriptEnabled: false })
      const page = await context.newPage()
      await page.goto(pathToFileURL(file).href)
      const pdf = join(folder, 'print.pdf')
      await page.pdf({ path: pdf, preferCSSPageSize: true, printBackground: true })
      await context.close()

      const info = await pdfInfo(pdf)
      expect(info.landscape).toBe(true)
      // 444 rows of 8 columns: about 40 a page, so a dozen pages, never strips of columns.
      expect(info.pages).toBeGreaterThanOrEqual(5)
      expect(info.pages).toBeLessThanOrEqual(15)
      const first = await pageText(pdf, 1)
      expect(first).toContain('Employees')
      expect(first).toMatch(/Profile\s+Acme Ltd/)
      expect(first).toContain('Only the first 444 of 9,000 employees are printed.')
      expect(first).toMatch(new RegExp(`Page 1 of ${info.pages}`))
      expect(first).toContain('RosterDesk · printed 11/22/2026, 10:45 AM (UTC+01:00, Europe/Berlin)')
      const second = await pageText(pdf, 2)
      // The column headers again atop page 2, and its number below.
      expect(second.trimStart().split('\n')[0]).toMatch(/^UUID\s+First name\s+Last name\s+Status/)
      expect(second).toMatch(new RegExp(`Page 2 of ${info.pages}`))
      expect(first + second).toMatch(/\d{2},\d{3}\.25/)

      await run(PDFTOPPM, [
        '-png',
        '-r',
        '80',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        pdf,
        join(SCREENSHOTS, 'print-view-page-1'),
      ])
      await run(PDFTOPPM, [
        '-png',
        '-r',
        '80',
        '-f',
        '2',
        '-l',
        '2',
        '-singlefile',
        pdf,
        join(SCREENSHOTS, 'print-view-page-2'),
      ])
      expect(readFileSync(join(SCREENSHOTS, 'print-view-page-1.png')).subarray(1, 4).toString()).toBe('PNG')
    })
  })
})
