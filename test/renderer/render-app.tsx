import { render, type RenderResult } from '@testing-library/react'
import type { ReactElement } from 'react'
import type { RosterDeskApi } from '../../src/shared/ipc-contract'
import { App } from '../../src/renderer/src/App'
import { createClient } from '../../src/renderer/src/api/client'
import { ClientProvider } from '../../src/renderer/src/api/client-context'
import { createFakeApi, createFakeEvents, type FakeEvents } from './fake/fake-api'
import { createFakeCore, type FakeCore, type FakeCoreOptions } from './fake/fake-core'

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
