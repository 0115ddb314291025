import type { Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { SettingsPatch } from '../../../src/shared/settings-schema'
import type { RetryPolicy } from '../../../src/main/core/api/retry-policy'
import type { PolicyInForce } from '../../../src/main/core/policy/policy-in-force'
import type { Clock } from '../../../src/main/core/clock'
import type { ColumnBuilder } from '../../../src/main/core/query/column-builds'
import type { SandboxHandle, SandboxOptions } from '../../../src/main/sandbox/index'
import { launchChromium, type LaunchedChromium } from '../chromium'
import { startTestSandbox } from '../sandbox'
import { openApp, type AppPage } from './app-page'
import { startAppUnderTest, type AppUnderTest } from './app-under-test'

/** One browser test file's world: the sandbox service, Chromium, the real app core behind the harness, the page. */
export interface UiSession {
  readonly sandbox: SandboxHandle
  readonly browser: LaunchedChromium
  readonly app: AppUnderTest
  readonly ui: AppPage
  readonly page: Page
}

export interface UiSessionOptions {
  readonly sandbox: SandboxOptions
  readonly viewport?: { readonly width: number; readonly height: number }
  readonly timezoneId?: string
  /** The browser's locale, which stands for the OS's regional formats where there is no Electron. */
  readonly locale?: string
  /** The core's clock; the system's unless the test sets the time. */
  readonly clock?: Clock
  /** Wraps the core worker's first-use builds (createAppCore's `columnBuilder`), e.g. to hold one back. */
  readonly columnBuilder?: (onWorker: ColumnBuilder) => ColumnBuilder
  /** How the app's syncs retry list requests; absent: the engine's policy. */
  readonly syncRetry?: Partial<RetryPolicy>
  /** The machine policy in force in the app core; absent: none. */
  readonly policy?: PolicyInForce
  /** Runs once Chromium is up and before the app starts (for example, to fix the page's clock). */
  readonly beforeApp?: (browser: LaunchedChromium) => Promise<void>
  /** Saved through the real settings handler before the page opens. */
  readonly settings?: SettingsPatch
  /** 'signed-in': through the consent page; 'synced': then a sync of every employee, waited for on screen. */
  readonly start?: 'first-run' | 'signed-in' | 'synced'
  readonly setupTimeoutMs?: number
}

export const DEFAULT_WINDOW = { width: 1280, height: 800 } as const

/** "N of N employees" as the table says it, its digits grouped as `locale` groups them ("1.200" in de-DE). */
export function allEmployeesText(size: number, locale = 'en'): string {
  const n = size.toLocaleString(locale)
  return `${n} of ${n} employees`
}

/**
 * Starts the world in the file's beforeAll and ends it in afterAll, whatever happened in between. Call the
 * returned function inside tests (not at module level) to reach it.
 */
export function useUiSession(options: UiSessionOptions): () => UiSession {
  let session: UiSession | undefined
  let parts: Partial<UiSession> = {}
  beforeAll(async () => {
    const sandbox = await startTestSandbox(options.sandbox)
    parts = { sandbox }
    const browser = await launchChromium({
      viewport: options.viewport ?? DEFAULT_WINDOW,
      ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
      ...(options.locale === undefined ? {} : { locale: options.locale }),
    })
    parts = { ...parts, browser }
    await options.beforeApp?.(browser)
    const app = await startAppUnderTest({
      sandbox,
      browser: browser.context,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.columnBuilder === undefined ? {} : { columnBuilder: options.columnBuilder }),
      ...(options.syncRetry === undefined ? {} : { syncRetry: options.syncRetry }),
      ...(options.policy === undefined ? {} : { policy: options.policy }),
    })
    parts = { ...parts, app }
    if (options.settings !== undefined) await app.core.handlers['settings:update'](options.settings)
    const ui = await openApp(browser.context, app.harness)
    session = { sandbox, browser, app, ui, page: ui.page }
    const start = options.start ?? 'first-run'
    if (start !== 'first-run') {
      await ui.page.getByRole('button', { name: 'Sign in with your browser' }).click()
      await app.approveSignIn()
      // The callback has reached the core, but the sign-in panel stays until the token exchange is done: a test
      // that starts signed in starts once the app says so.
      await ui.page.getByRole('button', { name: 'Sync now' }).waitFor()
    }
    if (start === 'synced') {
      await ui.page.getByRole('button', { name: 'Sync now' }).click()
      await ui.page
        .getByText(allEmployeesText(sandbox.employeeCount(), options.locale))
        .waitFor({ timeout: (options.setupTimeoutMs ?? 180_000) - 20_000 })
    }
  }, options.setupTimeoutMs ?? 180_000)
  afterAll(async () => {
    const { app, browser, sandbox } = session ?? parts
    await app?.close()
    await browser?.close()
    await sandbox?.close()
  })
  return () => {
    if (session === undefined) throw new Error('useUiSession: the session only exists while tests run')
    return session
  }
}
