import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type BrowserServer } from 'playwright-core'

/** Debian's chromium; playwright's own browsers cannot be downloaded here. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** Fails loudly (never skips) when the binary is missing: a browser test that silently does not run proves nothing. */
function assertChromiumInstalled(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's chromium package (apt-get install chromium) to run the browser tests.`,
    )
  }
}

/**
 * Starts headless Chromium as a server that test files connect to (e2e-global-setup.ts starts one per run);
 * each file's contexts are its own, so sharing the process shares no cookies, storage or cache.
 */
export async function launchChromiumServer(): Promise<BrowserServer> {
  assertChromiumInstalled()
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
}

/**
 * The run's shared Chromium (e2e-global-setup.ts) when this runs in a vitest project that provides one; vitest
 * is loaded only then, so a script outside vitest (bench/) can launch Chromium through this module too.
 */
async function sharedChromiumEndpoint(): Promise<string | undefined> {
  if (process.env['VITEST'] === undefined) return undefined
  const { inject } = await import('vitest')
  return inject('chromiumWsEndpoint') as string | undefined
}

export interface LaunchedChromium {
  readonly context: BrowserContext
  /** Closes the context (and every page and context this file opened in the browser). */
  close(): Promise<void>
}

/**
 * A fresh browser context (no cookies, storage or cache from any other test) in headless Chromium: the run's
 * shared Chromium when the project provides one (`chromiumWsEndpoint`), else one started for this context alone.
 */
export async function launchChromium(
  options: {
    viewport?: { width: number; height: number }
    /** The IANA zone the pages' clocks show, for tests that read times on screen; the machine's by default. */
    timezoneId?: string
    /** The locale the pages' Intl and `navigator.language` report ("de-DE"): a clerk's regional formats. */
    locale?: string
  } = {},
): Promise<LaunchedChromium> {
  const endpoint = await sharedChromiumEndpoint()
  let browser: Browser
  if (endpoint === undefined) {
    assertChromiumInstalled()
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
  } else {
    browser = await chromium.connect(endpoint)
  }
  try {
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 1000, height: 720 },
      ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
      ...(options.locale === undefined ? {} : { locale: options.locale }),
    })
    return {
      context,
      close: async () => {
        await context.close()
        // Connected: closes this file's other contexts and disconnects; launched here: ends the browser.
        await browser.close()
      },
    }
  } catch (error) {
    await browser.close()
    throw error
  }
}
