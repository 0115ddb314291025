import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import type { Harness } from './server'

/** Where browser tests save what they saw (gitignored). */
export const SCREENSHOT_DIR = resolve(__dirname, '../../e2e/screenshots')

/**
 * Screenshots are written on request, `ROSTERDESK_SCREENSHOTS=1 npm test` (or any test file run so): capturing
 * and encoding a full window costs about a second on this project's 2-core machine, dozens of them a minute of
 * the suite, and they are for a person to look at, not for an assertion.
 */
export const SCREENSHOTS_WANTED = process.env['ROSTERDESK_SCREENSHOTS'] === '1'

export interface AppPage {
  readonly page: Page
  /** Console errors, CSP refusals and uncaught exceptions seen so far; a healthy page has none. */
  readonly problems: string[]
  /**
   * Saves a full-window PNG as test/e2e/screenshots/<name>.png when screenshots are wanted
   * (`SCREENSHOTS_WANTED`) and returns its path, or undefined when they are not.
   */
  screenshot(name: string): Promise<string | undefined>
}

/** Messages Chromium prints for policy it ignores by design, not for anything the app did wrong. */
const EXPECTED_CONSOLE = [
  // frame-ancestors is in the <meta> policy on purpose (the brief's CSP); Chromium applies it only as a header.
  /'frame-ancestors' is ignored when delivered via a <meta> element/,
  // The app ships no favicon; Chromium asks for one anyway.
  /Failed to load resource: the server responded with a status of 404/,
]

/**
 * Opens the app in a new tab of `context`, with the harness's bridge installed before any app script runs,
 * and records every console error, CSP refusal and page error.
 */
export async function openApp(context: BrowserContext, harness: Harness): Promise<AppPage> {
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() !== 'error' && !/Content Security Policy/.test(message.text())) return
    if (EXPECTED_CONSOLE.some((pattern) => pattern.test(message.text()))) return
    problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  await page.addInitScript(harness.initScript)
  await page.goto(harness.url)
  return {
    page,
    problems,
    async screenshot(name) {
      if (!SCREENSHOTS_WANTED) return undefined
      await mkdir(SCREENSHOT_DIR, { recursive: true })
      const path = join(SCREENSHOT_DIR, `${name}.png`)
      // Captured over CDP rather than page.screenshot, which would undo emulateZoom's device metrics first.
      const session = await page.context().newCDPSession(page)
      try {
        const { data } = (await session.send('Page.captureScreenshot', { format: 'png' })) as { data: string }
        await writeFile(path, Buffer.from(data, 'base64'))
      } finally {
        await session.detach()
      }
      return path
    },
  }
}

/**
 * Shows the page as a 150% browser zoom would: the same window, a viewport 1/1.5 as wide in CSS pixels, drawn at
 * 1.5 device pixels per CSS pixel (what Ctrl+Plus does in Chromium and Electron).
 */
export async function emulateZoom(
  page: Page,
  window: { width: number; height: number },
  zoom: number,
): Promise<void> {
  const session = await page.context().newCDPSession(page)
  // The override lives as long as this session, so the session is left attached for the page's lifetime.
  await session.send('Emulation.setDeviceMetricsOverride', {
    width: Math.round(window.width / zoom),
    height: Math.round(window.height / zoom),
    deviceScaleFactor: zoom,
    mobile: false,
  })
}
