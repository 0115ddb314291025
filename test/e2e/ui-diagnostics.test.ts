import { execFileSync } from 'node:child_process'
import { basename } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'
import { PYTHON } from '../helpers/xlsx-reader'

/**
 * Help → Save diagnostics… in real Chromium over the real core: the menu's command (what main sends on
 * `app:command`) opens the save dialog at "RosterDesk diagnostics <date>.zip", the zip is written there, and the
 * window says so with "Show in folder", which reveals that file. Screenshot: the confirmation.
 */
const session = useUiSession({ sandbox: { size: 40 }, start: 'synced' })
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ app, ui, page } = session()))

describe('Help → Save diagnostics…', () => {
  it('proposes the dated name, writes the zip, confirms it by name and shows it in its folder', async () => {
    const offered = app.saveDialog.offered.length
    app.events.emit('app:command', 'save-diagnostics')
    const status = page.getByRole('status').filter({ hasText: 'Diagnostics saved to' })
    await expect.poll(() => status.isVisible()).toBe(true)
    const proposed = app.saveDialog.offered.slice(offered)
    expect(proposed.map((path) => basename(path))).toEqual([
      `RosterDesk diagnostics ${new Date().toISOString().slice(0, 10)}.zip`,
    ])
    const name = basename(proposed[0]!)
    expect(await status.innerText()).toContain(
      `Diagnostics saved to ${name}. Send this file to your IT department`,
    )
    await ui.screenshot('ui-diagnostics-1-saved')

    await status.getByRole('button', { name: 'Show in folder' }).click()
    await expect.poll(() => app.revealed.map((path) => basename(path))).toContain(name)
    const file = app.revealed.find((path) => basename(path) === name)!
    const names = execFileSync(
      PYTHON,
      ['-c', 'import sys, zipfile\nprint("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', file],
      { encoding: 'utf8' },
    )
    expect(names.trim().split('\n')).toEqual(expect.arrayContaining(['README.txt', 'connection-report.txt']))
  })
})
