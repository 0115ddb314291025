import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { auditBothThemes } from '../helpers/axe-audit'
import type { AppPage, AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { churnTheService } from '../helpers/sandbox'

/**
 * Every screen a clerk meets, audited by axe-core end to end: the built renderer in headless Chromium under the
 * production CSP, the real app core behind the harness's bridge, and the sandbox. The light theme gets every rule
 * (WCAG 2.0 and 2.1 A and AA, and best practices); the dark theme, which changes colours and nothing else, gets
 * colour contrast again. The theme follows `prefers-color-scheme`, which Chromium emulates. Any violation of any
 * impact fails the screen, listed with its rule, elements and what to fix. With ROSTERDESK_SCREENSHOTS=1,
 * screenshots of each screen in both themes go to test/e2e/screenshots/ui-a11y-*.png.
 */

const SIZE = 300

const session = useUiSession({ sandbox: { size: SIZE, seed: 11 }, setupTimeoutMs: 120_000 })
let sandbox: SandboxHandle
let app: AppUnderTest
let ui: AppPage
let page: Page
beforeAll(() => ({ sandbox, app, ui, page } = session()))

/** Each theme and the axe rules it is audited by: all of them in one, what a theme changes in the other. */
/** Audits what is on screen now in both themes (and screenshots each, when wanted); fails listing every violation. */
async function expectAccessible(screen: string): Promise<void> {
  const failures = await auditBothThemes(page, screen, (theme) => ui.screenshot(`ui-a11y-${screen}-${theme}`))
  // Exactly one h1 on every screen (axe only asks for at least one); hidden screens do not count.
  expect.soft(await page.getByRole('heading', { level: 1 }).count(), `${screen}: h1 count`).toBe(1)
  await expectFocusVisible(screen)
  // Soft, so one screen's violations do not hide the next screen's.
  expect.soft(failures, failures.join('\n\n')).toEqual([])
  expect.soft(ui.problems).toEqual([])
}

/** Keyboard stops tried per screen: more than any screen has, so every control is reached before focus cycles. */
const MAX_TAB_STOPS = 60

interface FocusStop {
  /** Tag, id, name and position: tells one control from another, and says which it was. */
  readonly id: string
  readonly shown: boolean
  /** Ancestors that clip their overflow inside the ring's outer edge, and on which sides. */
  readonly clippedBy: readonly string[]
}

/**
 * The focused control and whether its focus shows, evaluated in the page (as source text: this project is
 * type-checked without the DOM's types). The ring is drawn outside the box, so an ancestor that clips its
 * overflow closer than the ring's outer edge hides part of it (a cell with `overflow: hidden` around a header
 * button).
 */
const FOCUSED_CONTROL = `(() => {
  const element = document.activeElement
  if (!(element instanceof HTMLElement) || element === document.body) return null
  const style = getComputedStyle(element)
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
  const shadow = style.boxShadow !== 'none'
  const rect = element.getBoundingClientRect()
  // How far the ring reaches outside the box: none when it is drawn inside (a negative offset).
  const ring = outline ? Math.max(0, parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset)) : 0
  const clippedBy = []
  // A fixed box (a dialog) escapes the clipping of everything above it.
  for (
    let child = element, parent = element.parentElement;
    parent !== null && getComputedStyle(child).position !== 'fixed';
    child = parent, parent = parent.parentElement
  ) {
    if (getComputedStyle(parent).overflow === 'visible') continue
    const box = parent.getBoundingClientRect()
    // Half a pixel of slack for subpixel layout.
    const sides = [
      rect.left - ring < box.left - 0.5 ? 'left' : '',
      rect.right + ring > box.right + 0.5 ? 'right' : '',
      rect.top - ring < box.top - 0.5 ? 'top' : '',
      rect.bottom + ring > box.bottom + 0.5 ? 'bottom' : '',
    ].filter(Boolean)
    if (sides.length > 0) clippedBy.push(parent.tagName.toLowerCase() + '.' + [...parent.classList].join('.') + ' ' + sides.join('/'))
  }
  const label = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? ''
  const id = element.tagName + '#' + element.id + ':' + label + ':' + Math.round(rect.x) + ',' + Math.round(rect.y)
  return { id, shown: (outline || shadow) && element.matches(':focus-visible'), clippedBy }
})()`

/**
 * Tabs through the screen and fails on any control that takes keyboard focus without showing it (WCAG 2.4.7): a
 * 2 px outline or a box shadow, as `:focus-visible` draws in app.css, and not clipped away by a scrolling parent.
 */
async function expectFocusVisible(screen: string): Promise<void> {
  const unseen: string[] = []
  const visited = new Set<string>()
  for (let stop = 0; stop < MAX_TAB_STOPS; stop++) {
    await page.keyboard.press('Tab')
    const focused = await page.evaluate<FocusStop | null>(FOCUSED_CONTROL)
    if (focused === null) continue
    if (visited.has(focused.id)) break
    visited.add(focused.id)
    if (!focused.shown) unseen.push(focused.id)
    if (focused.clippedBy.length > 0)
      unseen.push(`${focused.id}: ring clipped by ${focused.clippedBy.join(', ')}`)
  }
  expect.soft(visited.size, `${screen}: keyboard focus reaches its controls`).toBeGreaterThan(0)
  expect.soft(unseen, `${screen}: focus not visible on`).toEqual([])
}

const grid = (): Locator => page.getByRole('grid', { name: 'Employees' })

const viewsButton = (): Locator => page.getByRole('button', { name: /^(Views|View: .*)$/ })
const viewsPanel = (): Locator => page.getByRole('dialog', { name: 'Saved views' })

describe('every screen meets WCAG 2.1 AA in the light and the dark theme', () => {
  it('first run: the sign-in screen', async () => {
    await page.getByRole('button', { name: 'Sign in with your browser' }).waitFor()
    await expectAccessible('1-first-run')
  })

  it('settings, reached from the first run', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    await expectAccessible('2-settings')
    await page.getByRole('button', { name: 'Back to employees' }).click()
  })

  it('signing in, then signed in with nothing saved yet', async () => {
    await page.getByRole('button', { name: 'Sign in with your browser' }).click()
    await page.getByText('Waiting for you to approve RosterDesk in your browser…').waitFor()
    await expectAccessible('3a-signing-in')
    await app.approveSignIn()
    await page.getByText('Sync to download employees.').waitFor()
    await expectAccessible('3b-signed-in-empty')
  })

  it('browse: every employee synced', async () => {
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText(allEmployeesText(SIZE)).waitFor({ timeout: 60_000 })
    await expectAccessible('4-browse')
  })

  it('search with results', async () => {
    const someone = sandbox.allEmployees()[7]!
    await page.getByRole('searchbox', { name: 'Search employees' }).fill(String(someone['lastName']))
    await expect
      .poll(() => page.getByText(/^[\d,]+ of [\d,]+ employees/).innerText())
      .not.toBe(allEmployeesText(SIZE))
    await grid()
      .getByRole('gridcell', { name: String(someone['lastName']), exact: true })
      .first()
      .waitFor()
    await expectAccessible('5-search')
  })

  it('the detail panel', async () => {
    await grid().getByRole('gridcell').first().click()
    await page.getByRole('complementary').getByRole('heading', { name: 'Pay cycle', exact: true }).waitFor()
    await expectAccessible('6-details')
    await page.getByRole('button', { name: 'Close details' }).click()
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('')
    await page.getByText(allEmployeesText(SIZE)).waitFor()
  })

  it('the column chooser, saved views, profiles and the keyboard shortcuts', async () => {
    await page.getByRole('button', { name: 'Columns', exact: true }).click()
    await page.getByRole('checkbox', { name: 'Last name' }).waitFor()
    await expectAccessible('7a-column-chooser')
    // Tabbing through the screen has taken focus out of each popup, so each closes by its own button.
    await page.getByRole('button', { name: 'Columns', exact: true }).click()
    await page.getByRole('checkbox', { name: 'Last name' }).waitFor({ state: 'detached' })

    await viewsButton().click()
    await page.getByRole('heading', { name: 'Saved views' }).waitFor()
    await expectAccessible('7b-saved-views')
    await viewsButton().click()
    await page.getByRole('heading', { name: 'Saved views' }).waitFor({ state: 'detached' })

    await page.getByRole('button', { name: 'Manage profiles…' }).click()
    const profiles = page.getByRole('dialog', { name: 'Profiles' })
    await profiles.waitFor()
    await expectAccessible('7c-profiles')
    await profiles.getByRole('button', { name: 'Close profiles' }).click()

    await page.keyboard.press('Control+/')
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await shortcuts.waitFor()
    await expectAccessible('7d-keyboard-shortcuts')
    await shortcuts.getByRole('button', { name: 'Close', exact: true }).click()
    await shortcuts.waitFor({ state: 'detached' })
  })

  it('saving a view, the saved views with rename and delete, and the rows’ menu', async () => {
    await viewsButton().click()
    await viewsPanel().getByRole('button', { name: 'Save view…' }).click()
    await viewsPanel().getByRole('textbox', { name: 'Name this view' }).fill('Leavers')
    await expectAccessible('7f-save-view')
    await viewsPanel().getByRole('button', { name: 'Save', exact: true }).click()
    await viewsPanel().getByRole('button', { name: 'Leavers', exact: true }).waitFor()
    await expectAccessible('7g-views-list')

    await viewsPanel().getByRole('button', { name: 'Rename Leavers' }).click()
    await viewsPanel().getByRole('textbox', { name: 'New name for Leavers' }).waitFor()
    await expectAccessible('7h-view-rename')
    await viewsPanel().getByRole('button', { name: 'Cancel' }).click()

    await viewsPanel().getByRole('button', { name: 'Delete Leavers' }).click()
    const confirmation = viewsPanel().getByRole('group', { name: 'Delete Leavers?' })
    await confirmation.waitFor()
    await expectAccessible('7i-view-delete-confirmation')
    // Kept: the roster dialog offers it as a template below.
    await confirmation.getByRole('button', { name: 'Keep' }).click()
    await viewsButton().click()
    await viewsPanel().waitFor({ state: 'detached' })

    await grid().getByRole('gridcell').first().click({ button: 'right' })
    const menu = page.getByRole('menu', { name: 'Row actions' })
    await menu.getByRole('menuitem', { name: /^Copy/ }).first().waitFor()
    await expectAccessible('7j-row-menu')
    // The focus walk's first Tab closes the menu, as it should; Esc would too.
    if ((await menu.count()) > 0) await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
  })

  it('settings, reached from the employees', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    await expectAccessible('7e-settings-signed-in')
    await page.getByRole('button', { name: 'Back to employees' }).click()
  })

  it('the roster dialog, and an export done', async () => {
    await page.getByRole('button', { name: 'Export roster…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export a pay-cycle roster' })
    // No pay cycle ticked on screen: the clerk is asked to choose one.
    await dialog.getByText('Nothing will be written until a pay cycle is chosen.').waitFor()
    await expectAccessible('8a0-roster-dialog-choose')
    await dialog.getByRole('combobox', { name: 'Pay cycle' }).selectOption({ index: 1 })
    await dialog.getByRole('button', { name: /^Export [\d,]+ rows?…$/ }).waitFor()
    await expectAccessible('8a-roster-dialog')
    await dialog.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'View: Leavers' })
    await dialog.getByText(/^From the view “Leavers”/).waitFor()
    await expectAccessible('8a2-roster-dialog-template')
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    const format = page.getByRole('combobox', { name: 'Export format' })
    await format.selectOption('csv')
    await page.getByRole('note').getByRole('button', { name: 'Use Excel (.xlsx) instead' }).waitFor()
    await expectAccessible('8c-csv-note')
    await page.getByRole('note').getByRole('button', { name: 'Use Excel (.xlsx) instead' }).click()
    expect(await format.inputValue()).toBe('xlsx')

    // Print… once the page went to the printer: the button ready again, no message left.
    await page.getByRole('button', { name: 'Print…' }).click()
    await expect.poll(() => app.printed.length).toBe(1)
    await expect.poll(() => page.getByRole('button', { name: 'Print…' }).isEnabled()).toBe(true)
    await expectAccessible('8d-printed')

    await page.getByRole('button', { name: `Export ${SIZE} rows…` }).click()
    await page.getByText(/^Exported [\d,]+ rows? to/).waitFor({ timeout: 60_000 })
    await expectAccessible('8b-exported')
  })

  it('no saved match, and the live look-up on the service', async () => {
    const saved = new Set(sandbox.allEmployees().map((row) => row.UUID))
    // The service's next list answer differs from the cache's, so the next sync has a change report.
    await churnTheService(sandbox, { churn: { add: 3, remove: 2 }, mutate: { rows: 5 } })
    const hired = sandbox.allEmployees().find((row) => !saved.has(row.UUID))!
    await page.getByRole('combobox', { name: 'Search in' }).selectOption({ label: 'Employee number' })
    await page.getByRole('searchbox', { name: 'Search employees' }).fill(String(hired['employeeNumber']))
    await page.getByText('No matches').waitFor()
    // Nothing to print: Print… is disabled, and audited so.
    expect(await page.getByRole('button', { name: 'Print…' }).isDisabled()).toBe(true)
    await expectAccessible('9a-no-matches')
    await page.getByRole('button', { name: 'Look up on the service' }).click()
    await page
      .getByRole('region', { name: /^From the service/ })
      .getByRole('table')
      .waitFor()
    await expectAccessible('9b-live-results')
    await page.getByRole('searchbox', { name: 'Search employees' }).fill('')
    await page.getByRole('combobox', { name: 'Search in' }).selectOption({ index: 0 })
  })

  it('the change report', async () => {
    await page.getByRole('button', { name: 'Sync', exact: true }).click()
    const summary = page.getByRole('button', { name: /^\d+ added, \d+ removed, \d+ changed$/ })
    await summary.waitFor({ timeout: 60_000 })
    await summary.click()
    const dialog = page.getByRole('dialog', { name: 'Change report' })
    await expect.poll(() => dialog.getByRole('tabpanel').getByRole('button').count()).toBeGreaterThan(0)
    await expectAccessible('10-change-report')
    // The changed list: a table with each field before (struck through) and after, sorted by a heading.
    await dialog.getByRole('tab', { name: /^Changed/ }).click()
    const numberHeading = dialog.getByRole('columnheader', { name: /Number/ })
    await numberHeading.getByRole('button').click()
    await expect.poll(() => numberHeading.getAttribute('aria-sort')).toBe('ascending')
    await expectAccessible('10b-change-report-changed')
  })
})
