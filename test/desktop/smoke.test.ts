import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import type { ElectronApplication, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logsFolder } from '../../src/main/core/log/file-log'
import { launchPackaged, signInToDemo } from './desktop-app'
import { listAsar, readFuses, type PackagedApp } from './packaged-app'

/**
 * The packaged app on a real desktop (Windows, macOS, or Linux under xvfb-run): the installer's app starts,
 * signs in to its built-in Demo sandbox over a loopback redirect, syncs, and exports a workbook. The system
 * browser and the save dialog are the two things a test cannot click, so they are replaced inside the app's
 * main process; everything else is the shipped code. Run by `npm run test:desktop` (and the desktop workflow),
 * never by `npm test`: it needs a packaged app and a display.
 */

const ROOT = resolve(__dirname, '../..')
/** Screenshots for a failed CI run to show (dist/ is ignored by git, and the workflow uploads this folder). */
const SCREENSHOTS = join(ROOT, 'dist', 'desktop-smoke')

let packaged: PackagedApp
let workDir: string
let app: ElectronApplication
let page: Page
let pageErrors: string[] = []
let employeeCount = 0

async function screenshot(name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${process.platform}-${name}.png`) })
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'rosterdesk-desktop-'))
  const launched = await launchPackaged(workDir)
  ;({ packaged, app, page } = launched)
  pageErrors = launched.pageErrors
})

afterAll(async () => {
  await app?.close()
  // Windows may hold the app's files for a moment after it exits.
  if (workDir) await rm(workDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 })
})

describe('the packaged RosterDesk on this desktop', () => {
  it('is packaged as electron-builder.json says: fuses, one native addon, no sources', async () => {
    const config = JSON.parse(await readFile(join(ROOT, 'electron-builder.json'), 'utf8')) as {
      electronFuses: Record<string, boolean>
    }
    const { resetAdHocDarwinSignature: _notAFuse, ...wanted } = config.electronFuses
    // The one difference from the installer: this build lets Playwright attach (see beforeAll).
    expect(await readFuses(packaged.fuseBinary)).toMatchObject({
      ...wanted,
      enableNodeCliInspectArguments: true,
    })

    const prebuilds = join(
      packaged.resources,
      'app.asar.unpacked',
      'node_modules',
      'better-sqlite3-multiple-ciphers',
      'prebuilds',
    )
    expect(await readdir(prebuilds)).toEqual([`${process.platform}-${process.arch}.node`])

    const files = await listAsar(join(packaged.resources, 'app.asar'))
    expect(files).toContain('out/main/index.js')
    expect(files).toContain('out/renderer/index.html')
    expect(files).toContain('node_modules/better-sqlite3-multiple-ciphers/lib/binding.js')
    expect(files.filter((path) => /^(src|test|\.tools)\//.test(path))).toEqual([])
    expect(
      files.filter((path) => path.startsWith('node_modules/better-sqlite3-multiple-ciphers/deps/')),
    ).toEqual([])
  })

  it('opens its window on the app, served from the packaged renderer', async () => {
    await page.getByRole('banner').getByText('Not signed in').waitFor()
    expect(await page.getByRole('banner').getByText('RosterDesk', { exact: true }).isVisible()).toBe(true)
    expect(await page.getByRole('banner').getByLabel('Environment: Demo').isVisible()).toBe(true)
    expect(page.url()).toMatch(/^rosterdesk-app:\/\/rosterdesk\//)
    const windows = await app.evaluate(({ app: electronApp, BrowserWindow }) => ({
      packaged: electronApp.isPackaged,
      windows: BrowserWindow.getAllWindows().map((window) => ({
        visible: window.isVisible(),
        title: window.getTitle(),
      })),
    }))
    expect(windows).toEqual({ packaged: true, windows: [{ visible: true, title: 'RosterDesk' }] })
    // The app core runs in a utility process of its own (src/main/core-host/core-process.ts), named for the clerk's task
    // manager by its serviceName.
    const utilities = await app.evaluate(({ app: electronApp }) =>
      electronApp
        .getAppMetrics()
        .filter((metric) => metric.type === 'Utility')
        .map((metric) => metric.name),
    )
    expect(utilities).toContain('RosterDesk core')
    await screenshot('1-first-window')
    expect(pageErrors).toEqual([])
  })

  it('signs in to Demo through the browser and a loopback redirect', async () => {
    const { authorize, redirectUri } = await signInToDemo({ packaged, app, page, pageErrors })
    // Demo is the sandbox inside the app, on this machine, and redirects to a loopback listener.
    expect(authorize.hostname).toBe('127.0.0.1')
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    await page.getByText('Sync to download employees.').waitFor()
    await screenshot('2-signed-in')
    expect(pageErrors).toEqual([])
  })

  it('syncs every employee of the sandbox into the local cache', async () => {
    await page.getByRole('button', { name: 'Sync now' }).click()
    const synced = page.getByText(/^([1-9][\d,]*) of \1 employees( from .+)?$/)
    await synced.waitFor({ timeout: 120_000 })
    await page.getByText('Last synced just now').waitFor()
    employeeCount = Number((await synced.innerText()).split(' of ')[0]!.replace(/,/g, ''))
    expect(employeeCount).toBeGreaterThan(0)
    expect(await page.getByRole('grid', { name: 'Employees' }).getAttribute('aria-rowcount')).toBe(
      String(employeeCount + 1),
    )
    await screenshot('3-synced')
    expect(pageErrors).toEqual([])
  })

  it('copies three rows to the system clipboard as tab-separated text with headers and an HTML table', async () => {
    // The page names the rows and columns; main reads them from the core and writes the OS clipboard with
    // Electron's clipboard.write (decision 038). What reached the OS clipboard is read back in main, as another
    // program would paste it: the text, and the HTML a spreadsheet pastes, whose text cells are in Excel's text
    // format so an employee number keeps its leading zeros. Only this real OS clipboard proves the round trip;
    // pasting into Excel itself is not automated here.
    await app.evaluate(({ clipboard }) => clipboard.clear())
    const grid = page.getByRole('grid', { name: 'Employees' })
    await grid.locator('[data-cell="0:0"]').click()
    await grid.locator('[data-cell="2:1"]').click({ modifiers: ['Shift'] })
    expect(await grid.locator('[role="row"][aria-selected="true"]').count()).toBe(3)
    await page.keyboard.press('ControlOrMeta+c')
    await page.getByText('Copied 3 rows.').waitFor()
    await screenshot('4-copied')

    // The expected text, as the browser test builds it: the shown columns' labels, then the first three rows of
    // the table's order as the core answers them through the window's own bridge.
    const columns = await grid.getByRole('columnheader').evaluateAll((cells) =>
      cells.map((item) => ({
        key: item.getAttribute('data-col') ?? '',
        label: (item.querySelector('.header-label')?.textContent ?? '').trim(),
      })),
    )
    const answer = (await page.evaluate(
      `window.rosterdesk.invoke('employees:query', { offset: 0, limit: 3 })`,
    )) as { ok: boolean; value?: { rows: Array<Record<string, unknown>> } }
    expect(answer.ok).toBe(true)
    const rows = answer.value?.rows ?? []
    expect(rows).toHaveLength(3)
    const expected = [
      columns.map((column) => column.label).join('\t'),
      ...rows.map((row) => columns.map((column) => String(row[column.key] ?? '')).join('\t')),
    ]
    await expect
      .poll(() => app.evaluate(({ clipboard }) => clipboard.readText()))
      .toBe(`${expected.join('\r\n')}\r\n`)
    const html = await app.evaluate(async ({ clipboard }) => {
      const [item] = await clipboard.read()
      if (item === undefined || !item.types.includes('text/html')) return ''
      const blob = (await item.getType('text/html')) as Blob
      return blob.text()
    })
    const numbers = rows.map((row) => String(row['employeeNumber'] ?? ''))
    expect(numbers.every((number) => /^0\d+$/.test(number))).toBe(true)
    for (const number of numbers)
      expect(html.replace(/\s+/g, ' ')).toMatch(new RegExp(`<td[^>]*mso-number-format:[^>]*>${number}</td>`))
    expect(pageErrors).toEqual([])
  })

  it('exports the view to an .xlsx file where the save dialog said', async () => {
    const target = join(workDir, 'exports', 'RosterDesk smoke export.xlsx')
    await mkdir(join(workDir, 'exports'), { recursive: true })
    // The native save dialog cannot be clicked either, so main's dialog answers with the test's path.
    await app.evaluate(({ dialog }, filePath) => {
      dialog.showSaveDialog = async () => ({ canceled: false, filePath })
    }, target)
    const count = employeeCount.toLocaleString('en')
    await page.getByRole('button', { name: `Export ${count} rows…` }).click()
    await page.getByText(`Exported ${count} rows to`).waitFor({ timeout: 120_000 })
    await screenshot('5-exported')

    // A complete zip: a local file header first, the end-of-central-directory record last.
    const file = await readFile(target)
    expect(file.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04')
    expect(file.lastIndexOf(Buffer.from('PK\x05\x06', 'latin1'))).toBe(file.length - 22)
    // Nothing but the workbook is left beside it (the writer's temporary .part file is gone).
    expect(await readdir(join(workDir, 'exports'))).toEqual(['RosterDesk smoke export.xlsx'])

    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(target)
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Employees', 'About this export'])
    expect(workbook.getWorksheet('Employees')!.actualRowCount).toBe(employeeCount + 1)
    // Written by the fast path: an exceljs writer the packaged app cannot load (as happened when the bundle
    // asked for it without its .js) falls back to plain streaming, whose file passes every check above, and
    // says so in the log.
    const log = await readFile(join(logsFolder(join(workDir, 'data')), 'main.log'), 'utf8')
    expect(log).not.toContain('plain streaming')
    expect(pageErrors).toEqual([])
  })
})
