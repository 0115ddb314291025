import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { AppPage } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'

/**
 * A keystroke's work in the real Chromium over the real core (issue 33, point 15): the page reads no layout of the
 * employee grid while it renders a keystroke and its answer (each such read made Chromium lay the page out
 * mid-script and again for the frame), and only the rows in view and a few beyond are in the page to lay out and
 * paint again at each answer. Counted by the page's own getters, at the clerk's 1366×768; the screenshot
 * (ROSTERDESK_SCREENSHOTS=1) shows the last key's answer painted.
 */

const SIZE = 800

const session = useUiSession({
  sandbox: { size: SIZE, seed: 33 },
  start: 'synced',
  viewport: { width: 1366, height: 768 },
  setupTimeoutMs: 120_000,
})
let sandbox: SandboxHandle
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, ui, page } = session()))

/** Counts, in the page, every read of the grid's layout (the getters that make Chromium lay the page out). */
const COUNT_LAYOUT_READS = `(() => {
  window.__layoutReads = []
  for (const [proto, names] of [
    [HTMLElement.prototype, ['offsetHeight', 'offsetWidth']],
    [Element.prototype, ['clientHeight', 'clientWidth', 'scrollHeight', 'scrollTop']],
  ]) {
    for (const name of names) {
      const inherited = Object.getOwnPropertyDescriptor(proto, name)
      Object.defineProperty(proto, name, {
        configurable: true,
        get() {
          // A ResizeObserver's callback runs after the layout (the virtualizer measures the grid there): no read
          // there forces one; any other read of the grid's layout in a script does.
          if (this.classList && this.classList.contains('employee-grid')) {
            const stack = new Error().stack
            if (!stack.includes('ResizeObserver')) window.__layoutReads.push(name + ' ' + stack)
          }
          return inherited.get.call(this)
        },
        set: inherited.set,
      })
    }
  }
})()`

describe('a keystroke in the browser', () => {
  it('reads no grid layout while rendering keystrokes and their answers, and keeps few rows beyond the view', async () => {
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    await page.evaluate(COUNT_LAYOUT_READS)
    const box = page.getByRole('searchbox', { name: 'Search employees' })
    await box.focus()
    const prefix = String(sandbox.allEmployees()[0]?.['lastName'] ?? 'Smith').slice(0, 3)
    for (const letter of prefix) await page.keyboard.press(letter)
    // The last key's answer on screen: the count no longer busy, and no longer all of them.
    await page
      .locator('.result-count:not([aria-busy="true"])')
      .filter({ hasText: new RegExp(`^[\\d,]+ of ${SIZE.toLocaleString('en')} employees`) })
      .filter({ hasNotText: allEmployeesText(SIZE) })
      .waitFor()
    await expect.poll(() => box.inputValue()).toBe(prefix)
    expect(await page.evaluate('window.__layoutReads')).toEqual([])
    await ui.screenshot('keystroke-work-answer')

    // The rows in the page: those in view and at most 4 beyond its lower edge (the list is at its top).
    await box.press('Control+a')
    await box.press('Backspace')
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const grid = page.getByRole('grid', { name: 'Employees' })
    const height = await grid.evaluate((element) => element.getBoundingClientRect().height)
    const rowHeight = await page
      .locator('.body-row')
      .first()
      .evaluate((element) => element.getBoundingClientRect().height)
    const inView = Math.ceil(height / rowHeight)
    expect(await page.locator('.body-row').count()).toBeLessThanOrEqual(inView + 4)
    expect(await page.evaluate('window.__layoutReads')).toEqual([])
  })
})
