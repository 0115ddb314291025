import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, isAbsolute, join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { createAppCore, type AppCore } from '../../../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../../../src/main/core-host/worker/worker-runners'
import type { RetryPolicy } from '../../../src/main/core/api/retry-policy'
import type { Clock } from '../../../src/main/core/clock'
import type { ClipboardContent } from '../../../src/main/core/export/copy-rows'
import type { PolicyInForce } from '../../../src/main/core/policy/policy-in-force'
import type { ColumnBuilder } from '../../../src/main/core/query/column-builds'
import { createLogger } from '../../../src/main/core/log/logger'
import { MemorySecretStore } from '../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../src/main/sandbox/index'
import type { InvokeChannel } from '../../../src/shared/ipc-contract'
import type { InvokeHandlers } from '../../../src/main/core/ipc/dispatch'
import { createEventHub, type EventHub } from './event-hub'
import { startHarness, type Harness } from './server'
import { testCoreWorkerEntry } from '../core-worker-bundle'
import { TEST_CACHE_KEY } from '../test-cache-key'

export interface AppUnderTest {
  readonly core: AppCore
  readonly events: EventHub
  readonly harness: Harness
  /** Every request the page made, in order (channel and validated arguments). */
  readonly calls: { channel: InvokeChannel; args: unknown[] }[]
  /** Folder for the cache and exports; deleted by close(). */
  readonly dataDir: string
  /** Browser tabs openExternal opened (the "system browser" showing the consent page), newest last. */
  readonly browserPages: Page[]
  /** Custom-scheme redirects the system browser was sent to, already handed to the core. */
  readonly callbacks: string[]
  /** Files the core asked the shell to reveal ("Show in folder"). */
  readonly revealed: string[]
  /** Pages "Print…" handed to the shell's printer (which answers as if the clerk printed them). */
  readonly printed: Array<{ readonly html: string; readonly title: string }>
  /** What the table's Copy had main write on the system clipboard (text and HTML), newest last. */
  readonly clipboard: ClipboardContent[]
  /** Log lines, for checking that nothing secret was written. */
  readonly log: string[]
  /** The core's secret store, as the shell's safeStorage-backed one would hold the tokens. */
  readonly secrets: MemorySecretStore
  /**
   * The save dialog as the clerk answers it: `offered` lists every path it opened at, newest last; with `folder`
   * set the clerk saves there (keeping the name offered), else where it opened (a bare name: the data folder).
   */
  readonly saveDialog: { readonly offered: string[]; folder: string | undefined }
  /**
   * Plays the clerk in the system browser: waits for the consent tab sign-in opened, presses Approve, and once
   * the redirect reached the core, closes the tab (the clerk is back in RosterDesk).
   */
  approveSignIn(timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

export interface AppUnderTestOptions {
  readonly sandbox: SandboxHandle
  /** The Chromium profile that plays the clerk's system browser. */
  readonly browser: BrowserContext
  /** The core's clock (sync times, token expiry, automatic syncs); the system's unless a test sets the time. */
  readonly clock?: Clock
  /** Wraps the core worker's first-use builds (createAppCore's `columnBuilder`), e.g. to hold one back. */
  readonly columnBuilder?: (onWorker: ColumnBuilder) => ColumnBuilder
  /** How the app's syncs retry list requests (createAppCore's `syncRetry`); absent: the engine's policy. */
  readonly syncRetry?: Partial<RetryPolicy>
  /** The machine policy in force (what loadMachinePolicy would have found); absent: none. */
  readonly policy?: PolicyInForce
}

/**
 * The real app core (createAppCore, as Electron's main builds it) over a sandbox, served through the harness. The
 * OS's part of sign-in is played the way the Electron shell's deep-link handler does it: openExternal opens the
 * authorize URL in a Chromium tab, and when that tab is sent to the redirect URI's custom scheme, the URL goes to
 * core.handleCallbackUrl.
 */
export async function startAppUnderTest(options: AppUnderTestOptions): Promise<AppUnderTest> {
  const { sandbox, browser } = options
  const dataDir = await mkdtemp(join(tmpdir(), 'rosterdesk-ui-'))
  const events = createEventHub()
  const browserPages: Page[] = []
  const callbacks: string[] = []
  const revealed: string[] = []
  const printed: AppUnderTest['printed'] = []
  const clipboard: ClipboardContent[] = []
  const log: string[] = []
  const scheme = new URL(sandbox.credentials.redirectUri).protocol
  let sandboxClosed = false
  // The callback needs the core that openExternal is part of, so it is bound once the core exists.
  let handleCallbackUrl: (url: string) => void = () => undefined

  const logger = createLogger((level, line) => log.push(`${level}: ${line}`))
  const secrets = new MemorySecretStore()
  const saveDialog: AppUnderTest['saveDialog'] = { offered: [], folder: undefined }
  const core = await createAppCore({
    cacheKey: TEST_CACHE_KEY,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.columnBuilder === undefined ? {} : { columnBuilder: options.columnBuilder }),
    ...(options.syncRetry === undefined ? {} : { syncRetry: options.syncRetry }),
    appInfo: { name: 'RosterDesk', version: '0.1.0-test', platform: process.platform },
    dataDir,
    settings: new SettingsStore(new MemoryKeyValueBackend(), options.policy),
    secrets,
    fetch: (input, init) => fetch(input, init),
    openExternal: async (url) => {
      const page = await browser.newPage()
      browserPages.push(page)
      page.on('request', (request) => {
        if (!request.url().startsWith(scheme)) return
        callbacks.push(request.url())
        handleCallbackUrl(request.url())
      })
      await page.goto(url)
    },
    demo: {
      environment: { baseUrl: sandbox.baseUrl, ...sandbox.credentials },
      close: async () => {
        if (sandboxClosed) return
        sandboxClosed = true
        await sandbox.close()
      },
    },
    events,
    logger,
    // The worker's code from one bundle, as the app's build has it: its thread starts without tsx's transforms.
    runners: coreWorkerRunners({ logger, entry: await testCoreWorkerEntry(), cacheKey: TEST_CACHE_KEY }),
    // The clerk accepts what the save dialog offers (the last folder used, else the data folder), unless the test
    // picked a folder.
    chooseExportPath: async (defaultPath) => {
      saveDialog.offered.push(defaultPath)
      if (saveDialog.folder !== undefined) return join(saveDialog.folder, basename(defaultPath))
      return isAbsolute(defaultPath) ? defaultPath : join(dataDir, defaultPath)
    },
    revealFile: (path) => void revealed.push(path),
    printPage: async (page) => {
      printed.push(page)
      return 'printed'
    },
    writeClipboard: async (content) => void clipboard.push(content),
  })
  handleCallbackUrl = (url) => void core.handleCallbackUrl(url)
  const calls: AppUnderTest['calls'] = []
  const harness = await startHarness({ handlers: recordCalls(core.handlers, calls), events })

  return {
    core,
    secrets,
    saveDialog,
    calls,
    events,
    harness,
    dataDir,
    browserPages,
    callbacks,
    revealed,
    printed,
    clipboard,
    log,
    async approveSignIn(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      const seen = callbacks.length
      // The consent page this sign-in opened: an earlier sign-in's page is closed once approved, so a second
      // sign-in in one session waits for its own page rather than clicking the closed one.
      const open = (): (typeof browserPages)[number] | undefined =>
        browserPages.filter((candidate) => !candidate.isClosed()).at(-1)
      while (open() === undefined && Date.now() < deadline) await delay(25)
      const consent = open()
      if (!consent) throw new Error('Sign-in did not open the system browser')
      await consent
        .getByRole('button', { name: 'Approve' })
        .click({ timeout: Math.max(1, deadline - Date.now()) })
      while (callbacks.length === seen && Date.now() < deadline) await delay(25)
      if (callbacks.length === seen) throw new Error('The consent page did not redirect to RosterDesk')
      // The clerk is back in RosterDesk, and the system browser is another app. Here it is a tab in the app's
      // own Chromium, and a tab left in front holds the app's page to about one frame a second (its
      // requestAnimationFrame, ResizeObserver, and every click, which Playwright makes only on a steady frame).
      await consent.close()
    },
    async close() {
      for (const page of browserPages) await page.close().catch(() => undefined)
      await harness.close()
      await core.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** The same handlers, noting each call first; the page's requests are what the tests look at. */
function recordCalls(
  handlers: InvokeHandlers,
  calls: { channel: InvokeChannel; args: unknown[] }[],
): InvokeHandlers {
  const recorded: Partial<Record<InvokeChannel, (...args: unknown[]) => Promise<unknown>>> = {}
  for (const channel of Object.keys(handlers) as InvokeChannel[]) {
    const handler = handlers[channel] as (...args: unknown[]) => Promise<unknown>
    recorded[channel] = (...args) => {
      calls.push({ channel, args })
      return handler(...args)
    }
  }
  return recorded as InvokeHandlers
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
