import { cleanup, render, screen, waitFor, within, type RenderResult } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import type { ReactElement } from 'react'
import type { RosterDeskApi } from '../../src/shared/ipc-contract'
import { App } from '../../src/renderer/src/App'
import { createClient } from '../../src/renderer/src/api/client'
import { ClientProvider } from '../../src/renderer/src/api/client-context'
import { createFakeApi, createFakeEvents, type FakeEvents } from '../helpers/fake/fake-api'
import { createFakeCore, type FakeCore, type FakeCoreOptions } from '../helpers/fake/fake-core'

export interface Rendered extends RenderResult {
  readonly core: FakeCore
  readonly events: FakeEvents
  readonly api: RosterDeskApi
}

/** Renders `ui` (the whole App by default) against a fake core. */
export function renderWithCore(options: FakeCoreOptions, ui: ReactElement = <App />): Rendered {
  const events = createFakeEvents()
  const core = createFakeCore(events, options)
  const api = createFakeApi(core.handlers, events)
  const result = render(<ClientProvider client={createClient(api)}>{ui}</ClientProvider>)
  return { ...result, core, events, api }
}

/**
 * jsdom has no layout, so the virtualized grid would see a 0×0 viewport and render no rows. Give the grid's scroll
 * element a laptop-sized box; every other element keeps jsdom's zero.
 */
export function giveGridAViewport(): () => void {
  const prototype = HTMLElement.prototype
  const height = Object.getOwnPropertyDescriptor(prototype, 'clientHeight')
  const width = Object.getOwnPropertyDescriptor(prototype, 'clientWidth')
  Object.defineProperty(prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('employee-grid') ? 720 : 0
    },
  })
  Object.defineProperty(prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('employee-grid') ? 1000 : 0
    },
  })
  return () => {
    if (height) Object.defineProperty(prototype, 'clientHeight', height)
    if (width) Object.defineProperty(prototype, 'clientWidth', width)
  }
}

/**
 * The setup every whole-app test file shares: the grid gets its viewport for the file, and after each test the
 * rendered app and what it remembered in localStorage are gone.
 */
export function setUpAppTests(): void {
  let restoreLayout: () => void = () => undefined
  beforeAll(() => {
    restoreLayout = giveGridAViewport()
  })
  afterAll(() => restoreLayout())
  afterEach(() => {
    cleanup()
    localStorage.clear()
  })
}

/** The employee table; the live look-up's table and the shortcuts panel have rows and column headers too. */
function employeeGrid(): HTMLElement {
  return screen.getByRole('grid')
}

/** The table's body rows (the header row is aria-rowindex 1). */
export function bodyRows(): HTMLElement[] {
  return within(employeeGrid())
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-rowindex') !== '1')
}

/**
 * The texts of one column of the rows on screen, by the start of its header. The rows are found by role once and
 * their cells by their role attribute: a role query per row runs jsdom's slow getComputedStyle up every ancestor
 * again, which took seconds on a loaded machine, and a waitFor callback that blocks that long keeps the app it
 * waits for (a debounced query, its answer's render) from running before the wait times out.
 */
export function column(header: string): string[] {
  const grid = employeeGrid()
  const headers = within(grid)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent)
  const index = headers.findIndex((text) => text?.startsWith(header))
  if (index === -1) throw new Error(`No column "${header}" among ${headers.join(', ')}`)
  return bodyRows().map((row) => row.querySelectorAll('[role="gridcell"]')[index]?.textContent ?? '')
}

/** The "N of M employees" line, as N. */
export function shownCount(): number {
  const text = screen.getByText(/ of [\d,]+ employees/).textContent ?? ''
  return Number(text.split(' of ')[0]!.replace(/,/g, ''))
}

/**
 * Waits until the roster dialog's one line on what it will write reads `text` (its identifiers are spans of their
 * own, kept whole on a line), and returns that line.
 */
export async function expectRosterSummary(dialog: HTMLElement, text: string): Promise<HTMLElement> {
  await waitFor(() => expect(dialog.querySelector('.roster-summary')?.textContent).toBe(text))
  const summary = dialog.querySelector<HTMLElement>('.roster-summary')
  if (summary === null) throw new Error('The roster dialog has no summary line.')
  return summary
}
