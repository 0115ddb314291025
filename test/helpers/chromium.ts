import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

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

export interface LaunchedChromium {
  readonly context: BrowserContext
  /** Closes the browser and deletes its profile folder. */
  close(): Promise<void>
}

/**
 * Starts headless Chromium with a fresh, throw-away profile, so no test sees another's cookies or cache. Fails
 * loudly (never skips) when the binary is missing: a browser test that silently does not run proves nothing.
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
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's chromium package (apt-get install chromium) to run the browser tests.`,
    )
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'rosterdesk-chromium-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1000, height: 720 },
      ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
      ...(options.locale === undefined ? {} : { locale: options.locale }),
    })
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true })
    throw error
  }
  return {
    context,
    close: async () => {
      await context.close()
      await rm(userDataDir, { recursive: true, force: true })
    },
  }
}
