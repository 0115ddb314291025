import type { Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { RosterDeskError } from '../../../src/main/core/errors'
import type { InvokeHandlers } from '../../../src/main/core/ipc/dispatch'
import type { InvokeChannel } from '../../../src/shared/ipc-contract'
import { launchChromium, type LaunchedChromium } from '../chromium'
import { FakeIpcError, type FakeHandlers } from '../fake/fake-api'
import { createFakeCore, type FakeCore, type FakeCoreOptions } from '../fake/fake-core'
import { openApp, type AppPage } from './app-page'
import { createEventHub } from './event-hub'
import { startHarness, type Harness } from './server'
import { DEFAULT_WINDOW } from './ui-session'

/** One browser test file's world over the fake core: Chromium, the harness serving the fake, the page. */
export interface FakeUiSession {
  readonly core: FakeCore
  readonly harness: Harness
  readonly browser: LaunchedChromium
  readonly ui: AppPage
  readonly page: Page
}

/**
 * The fake core's handlers as the harness's InvokeHandlers: a FakeIpcError becomes the RosterDeskError main's
 * dispatch turns into the same IpcError (code, message, field messages), as createFakeApi does in jsdom.
 */
export function fakeInvokeHandlers(handlers: FakeHandlers): InvokeHandlers {
  const wrapped: Partial<Record<InvokeChannel, (...args: unknown[]) => Promise<unknown>>> = {}
  for (const channel of Object.keys(handlers) as InvokeChannel[]) {
    wrapped[channel] = async (...args) => {
      try {
        return await (handlers[channel] as (...values: unknown[]) => Promise<unknown>)(...args)
      } catch (error) {
        if (!(error instanceof FakeIpcError)) throw error
        throw new RosterDeskError(error.code, error.message, {
          ...(error.fieldErrors === undefined ? {} : { fieldErrors: error.fieldErrors }),
        })
      }
    }
  }
  return wrapped as InvokeHandlers
}

/**
 * For what only main's shell can do and the real core behind the harness cannot (a native open dialog, a
 * proxy's challenge): the built renderer in headless Chromium over the fake core (fake-core.ts), whose network
 * channels a test scripts. Started in the file's beforeAll and ended in its afterAll, whatever happened between.
 */
export function useFakeUiSession(
  options: FakeCoreOptions & { readonly viewport?: { readonly width: number; readonly height: number } },
): () => FakeUiSession {
  let session: FakeUiSession | undefined
  let parts: { harness?: Harness; browser?: LaunchedChromium } = {}
  beforeAll(async () => {
    const events = createEventHub()
    const core = createFakeCore(events, options)
    const harness = await startHarness({ handlers: fakeInvokeHandlers(core.handlers), events })
    parts = { harness }
    const browser = await launchChromium({ viewport: options.viewport ?? DEFAULT_WINDOW })
    parts = { harness, browser }
    const ui = await openApp(browser.context, harness)
    session = { core, harness, browser, ui, page: ui.page }
  }, 120_000)
  afterAll(async () => {
    const { harness, browser } = session ?? parts
    await browser?.close()
    await harness?.close()
  })
  return () => {
    if (session === undefined) throw new Error('useFakeUiSession: the session only exists while tests run')
    return session
  }
}
