import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { launchChromium, type LaunchedChromium } from '../helpers/chromium'
import { startTestSandbox } from '../helpers/sandbox'
import { emulateZoom, openApp, startAppUnderTest, type AppPage, type AppUnderTest } from '../helpers/harness'

/**
 * The renderer at scale in real Chromium: 100,000 employees synced by the real core from the sandbox, then
 * browsed through the harness. Also the harness's own guarantees: the production CSP holds and requests are
 * validated by dispatchInvoke, as in Electron. Dark mode and 150% zoom are looked at here once.
 */

const SIZE = 100_000
const WINDOW = { width: 1280, height: 800 }

let sandbox: SandboxHandle
let browser: LaunchedChromium
let app: AppUnderTest

beforeAll(async () => {
  sandbox = await startTestSandbox({ size: SIZE })
  browser = await launchChromium({ viewport: WINDOW })
  app = await startAppUnderTest({ sandbox, browser: browser.context })
  // Larger pages make the 100,000-row sync quicker; the sandbox allows up to 1,000.
  await app.core.handlers['settings:update']({ pageSize: 1_000 })
}, 180_000)

afterAll(async () => {
  await app?.close()
  await browser?.close()
  await sandbox?.close()
})

const total = `${SIZE.toLocaleString('en')} of ${SIZE.toLocaleString('en')} employees`

async function open(): Promise<{ ui: AppPage; page: Page }> {
  const ui = await openApp(browser.context, app.harness)
  return { ui, page: ui.page }
}

describe('100,000 employees through the harness and the real core', () => {
  it('signs in and syncs all of them', async () => {
    const { ui, page } = await open()
    await page.getByRole('button', { name: 'Sign in with your browser' }).click()
    await app.approveSignIn()
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByRole('progressbar', { name: 'Sync progress' }).waitFor()
    await page.getByText(total).waitFor({ timeout: 170_000 })
    expect(await page.getByRole('grid', { name: 'Employees' }).getAttribute('aria-rowcount')).toBe(
      String(SIZE + 1),
    )
    await ui.screenshot('ui-scale-1-synced')
    expect(ui.problems).toEqual([])
    await page.close()
  }, 180_000)

  it('keeps the production CSP and validates requests on the Node side', async () => {
    const { ui, page } = await open()
    await page.getByText(total).waitFor()
    // (Page code is passed as strings: the Node test tsconfig has no DOM types.)
    const refused = await page.evaluate(
      "window.rosterdesk.invoke('employees:query', { offset: 0, limit: 5000 })",
    )
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } })
    const unknown = await page.evaluate("window.rosterdesk.invoke('fs:read', '/etc/passwd')")
    expect(unknown).toMatchObject({ ok: false, error: { code: 'validation' } })
    const inlineRan = await page.evaluate(`(() => {
      const script = document.createElement('script')
      script.textContent = 'window.__inline = true'
      document.body.append(script)
      return window.__inline === true
    })()`)
    expect(inlineRan).toBe(false)
    expect(ui.problems.some((problem) => /Content Security Policy/.test(problem))).toBe(true)
    await page.close()
  })

  it('jumps to the last of 100,000 rows with the keyboard, fetching only the windows it shows', async () => {
    const { ui, page } = await open()
    const grid = page.getByRole('grid', { name: 'Employees' })
    await page.getByText(total).waitFor()
    const before = app.calls.length
    await grid.focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('End')
    const last = page.locator(`[role="row"][aria-rowindex="${SIZE + 1}"]`)
    await last.waitFor()
    expect(await last.getAttribute('aria-selected')).toBe('true')
    await expect.poll(() => last.textContent()).not.toContain('…')
    const windows = app.calls.slice(before).filter((call) => call.channel === 'employees:query')
    expect(windows.length).toBeLessThanOrEqual(4)
    expect(await page.locator('[role="row"]').count()).toBeLessThan(80)
    await page.keyboard.press('Enter')
    await page.getByRole('complementary').getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    await ui.screenshot('ui-scale-2-end-of-list')
    expect(ui.problems).toEqual([])
    await page.close()
  })

  it('reads well at 125% zoom', async () => {
    const { ui, page } = await open()
    await emulateZoom(page, WINDOW, 1.25)
    await page.getByText(total).waitFor()
    await page.getByRole('row').nth(4).click()
    await page.getByRole('complementary').getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    expect(
      await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
    ).toBeLessThanOrEqual(0)
    await expectUncovered(page, total)
    await ui.screenshot('ui-scale-5-light-125-percent')
    expect(ui.problems).toEqual([])
    await page.close()
  })

  it('reads well in dark mode at 150% zoom', async () => {
    const { ui, page } = await open()
    await page.emulateMedia({ colorScheme: 'dark' })
    await emulateZoom(page, WINDOW, 1.5)
    await page.getByText(total).waitFor()
    await page.getByRole('row').nth(4).click()
    await page.getByRole('complementary').getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(21, 24, 28)')
    // Nothing wider than the window: the toolbar wraps and the table scrolls inside its own box.
    expect(
      await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
    ).toBeLessThanOrEqual(0)
    await expectUncovered(page, total)
    await ui.screenshot('ui-scale-3-dark-150-percent')
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    await ui.screenshot('ui-scale-4-settings-dark-150-percent')
    expect(ui.problems).toEqual([])
    await page.close()
  })
})

/**
 * The element showing `text` is what the page shows at its centre: nothing (an overlay, say) lies on top of it.
 * The label may say more than `text` (the count line names the rows' source); what is hit must be inside it.
 */
async function expectUncovered(page: Page, text: string): Promise<void> {
  const label = page.getByText(text)
  const box = await label.boundingBox()
  expect(box).not.toBeNull()
  const { x, y, width, height } = box!
  const centre = { x: x + width / 2, y: y + height / 2 }
  // Typed by hand: the Node test tsconfig has no DOM types.
  const onTop = await label.evaluate(
    (element, point) =>
      (element as unknown as { contains(node: unknown): boolean }).contains(
        (
          globalThis as unknown as { document: { elementFromPoint(x: number, y: number): unknown } }
        ).document.elementFromPoint(point.x, point.y),
      ),
    centre,
  )
  expect(onTop).toBe(true)
}
