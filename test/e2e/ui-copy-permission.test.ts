import { beforeAll, describe, expect, it } from 'vitest'
import type { CDPSession, Locator, Page } from 'playwright-core'
import type { AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * The first half of copy's proof in Electron (decision 038), in real Chromium with nothing granted up front. The
 * table's Copy asks the page's clipboard for nothing: the page names the rows and columns (`export:copy-rows`) and
 * main writes the system clipboard. The page's one write of its own is the connection check's Copy report, with
 * navigator.clipboard.writeText outside a copy event, so Chromium asks for `clipboard-write` without unsanitized
 * writing, i.e. CLIPBOARD_SANITIZED_WRITE (clipboard_promise.cc, ValidatePreconditions), the one Electron hands to
 * the app's handlers as 'clipboard-sanitized-write'. Shown both ways: with that one permission refused and every
 * other granted, the table still copies and the report does not; with that one granted and nothing else, the
 * report copies. The second half, test/shell/copy-permission.test.ts, shows the built main process grants it.
 */

const SIZE = 60

const session = useUiSession({ sandbox: { size: SIZE }, start: 'synced' })
let app: AppUnderTest
let page: Page
let origin: string
let cdp: CDPSession
beforeAll(async () => {
  ;({ app, page } = session())
  origin = new URL(app.harness.url).origin
  cdp = await page.context().newCDPSession(page)
})

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })
const cell = (row: number, column: number): Locator => grid().locator(`[data-cell="${row}:${column}"]`)
const report = (): Locator => page.getByRole('region', { name: 'Connection report' })

/** The page's own view of the permission its writeText needs (the Permissions API, in the page). */
async function clipboardWriteState(): Promise<string> {
  return String(
    await page.evaluate(
      `navigator.permissions.query({ name: 'clipboard-write' }).then((status) => status.state)`,
    ),
  )
}

/** Settings → Test connection run to its report (once), then Copy report pressed. */
async function copyReport(): Promise<void> {
  if ((await report().count()) === 0) {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('button', { name: 'Test connection' }).click()
    await report().waitFor()
  }
  await report().getByRole('button', { name: 'Copy report' }).click()
}

describe('what copying asks of the browser', () => {
  it('with clipboard-sanitized-write alone refused: the table copies through main, the report cannot', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    await page
      .context()
      .grantPermissions(['clipboard-read', 'notifications', 'geolocation', 'camera', 'microphone'], {
        origin,
      })
    // Chromium's sanitized clipboard write (Browser.setPermission's descriptor: 'clipboard-write' with
    // allowWithoutSanitization false), refused for the app's origin.
    await cdp.send('Browser.setPermission', {
      permission: { name: 'clipboard-write', allowWithoutSanitization: false },
      setting: 'denied',
      origin,
    })
    expect(await clipboardWriteState()).toBe('denied')

    await cell(0, 0).click()
    await cell(2, 1).click({ modifiers: ['Shift'] })
    expect(await grid().locator('[role="row"][aria-selected="true"]').count()).toBe(3)
    await page.keyboard.press('Control+c')
    await page.getByText('Copied 3 rows.').waitFor()
    const lines = app.clipboard.at(-1)?.text.split('\r\n') ?? []
    expect(lines).toHaveLength(5)
    expect(lines[1]).toContain(await cell(0, 0).innerText())

    await copyReport()
    await report().getByText('RosterDesk could not copy to the clipboard. Try again.').waitFor()
  })

  it('copies the report with clipboard-sanitized-write granted and nothing else', async () => {
    await page.context().clearPermissions()
    await page.context().grantPermissions(['clipboard-write'], { origin })
    expect(await clipboardWriteState()).toBe('granted')
    expect(
      String(
        await page.evaluate(`navigator.permissions.query({ name: 'clipboard-read' }).then((s) => s.state)`),
      ),
    ).not.toBe('granted')

    await copyReport()
    await report().getByText('Report copied. Paste it into an e-mail or ticket for IT.').waitFor()
    // Read back (reading needs its own permission, granted only now) to show the copy really wrote the report.
    await page.context().grantPermissions(['clipboard-write', 'clipboard-read'], { origin })
    const pasted = String(await page.evaluate('navigator.clipboard.readText()'))
    expect(pasted).toMatch(/^RosterDesk connection check \(app\), /)
    expect(pasted.split('\n')[1]).toMatch(/^Service: http:\/\/127\.0\.0\.1:\d+/)
  })
})
