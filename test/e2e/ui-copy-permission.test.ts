import { beforeAll, describe, expect, it } from 'vitest'
import type { CDPSession, Locator, Page } from 'playwright-core'
import type { AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * The first half of copy's proof in Electron (decision 038): what the table's copy asks of the browser, in real
 * Chromium with nothing granted up front. The table copies with navigator.clipboard.writeText after reading the
 * rows, outside a copy event, so Chromium asks for the permission `clipboard-write` without unsanitized writing,
 * i.e. CLIPBOARD_SANITIZED_WRITE (clipboard_promise.cc, ValidatePreconditions), the one Electron hands to the
 * app's handlers as 'clipboard-sanitized-write'. Shown both ways: with that one permission refused and every
 * other granted (the clipboard's reading among them), the copy fails; with that one granted and nothing else, it
 * works. The second half, test/shell/copy-permission.test.ts, shows the built main process grants exactly it.
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

/** The page's own view of the permission its writeText needs (the Permissions API, in the page). */
async function clipboardWriteState(): Promise<string> {
  return String(
    await page.evaluate(
      `navigator.permissions.query({ name: 'clipboard-write' }).then((status) => status.state)`,
    ),
  )
}

/** Selects the first three rows with click and Shift+click and presses the copy shortcut. */
async function copyThreeRows(): Promise<void> {
  await cell(0, 0).click()
  await cell(2, 1).click({ modifiers: ['Shift'] })
  expect(await grid().locator('[role="row"][aria-selected="true"]').count()).toBe(3)
  await page.keyboard.press('Control+c')
}

describe('what the table’s copy asks of the browser', () => {
  it('fails when clipboard-sanitized-write alone is refused, every other permission granted', async () => {
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

    await copyThreeRows()
    await page.getByText('RosterDesk could not copy to the clipboard. Try again.').waitFor()
    await expect.poll(() => page.getByText('Copied 3 rows.').count()).toBe(0)
  })

  it('works with clipboard-sanitized-write granted and nothing else', async () => {
    await page.context().clearPermissions()
    await page.context().grantPermissions(['clipboard-write'], { origin })
    expect(await clipboardWriteState()).toBe('granted')
    expect(
      String(
        await page.evaluate(`navigator.permissions.query({ name: 'clipboard-read' }).then((s) => s.state)`),
      ),
    ).not.toBe('granted')

    await copyThreeRows()
    await page.getByText('Copied 3 rows.').waitFor()

    // Read back (reading needs its own permission, granted only now) to show the copy really wrote the rows.
    await page.context().grantPermissions(['clipboard-write', 'clipboard-read'], { origin })
    const pasted = String(await page.evaluate('navigator.clipboard.readText()'))
    const lines = pasted.split('\r\n')
    expect(lines).toHaveLength(5)
    expect(lines[0]).toContain('\t')
    expect(lines[1]).toContain(await cell(0, 0).innerText())
  })
})
