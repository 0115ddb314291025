import { join } from 'node:path'
import { _electron as electron, type ElectronApplication, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { answerConsent } from '../helpers/consent'
import { findPackagedApp, readFuses, type PackagedApp } from './packaged-app'

/** The packaged app started by Playwright, its first window, and the page errors seen so far. */
export interface LaunchedApp {
  readonly packaged: PackagedApp
  readonly app: ElectronApplication
  readonly page: Page
  readonly pageErrors: string[]
}

/**
 * A cold start of a freshly unpacked app on a hosted runner, then its first window: each has its own limit, both
 * well inside the hook's (vitest.desktop.config.ts, DESKTOP_HOOK_TIMEOUT_MS), so a slow start fails with
 * Playwright's own words for which of the two did not happen, not with vitest's hook timeout.
 */
const LAUNCH_TIMEOUT_MS = 120_000
const FIRST_WINDOW_TIMEOUT_MS = 60_000

/** The app's own environment, without Playwright's or a developer's NODE_OPTIONS leaking into it. */
function launchEnv(dataDir: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'NODE_OPTIONS') env[key] = value
  }
  // A fresh data folder: no settings, secrets or cache of a RosterDesk installed on this desktop, and its own
  // single-instance lock.
  env['ROSTERDESK_USER_DATA_DIR'] = dataDir
  return { ...env, ...extra }
}

/**
 * Starts the packaged app (packaged-app.ts finds it) with a data folder of its own under `workDir` (the same one
 * each time, so a second launch is the next start), Chromium's command line `args` and `env` added to the
 * environment, once its NodeCliInspect fuse lets Playwright attach.
 */
export async function launchPackaged(
  workDir: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<LaunchedApp> {
  const packaged = findPackagedApp()
  const fuses = await readFuses(packaged.fuseBinary)
  if (!fuses['enableNodeCliInspectArguments']) {
    // Playwright reaches Electron's main process through --inspect, which the shipped fuse turns off.
    throw new Error(
      `${packaged.executable} has the NodeCliInspect fuse off, as the installers ship. Package a test build with ` +
        '`npx electron-builder --dir --publish never -c.electronFuses.enableNodeCliInspectArguments=true` first.',
    )
  }
  const app = await electron.launch({
    executablePath: packaged.executable,
    // Playwright adds --use-mock-keychain (with its other Chromium switches) only to an Electron it finds itself,
    // not to an executable path (playwright-core's electron launcher): without it, safeStorage on a macOS runner
    // asks the runner's real login keychain.
    args: [...(process.platform === 'darwin' ? ['--use-mock-keychain'] : []), ...args],
    env: launchEnv(join(workDir, 'data'), env),
    timeout: LAUNCH_TIMEOUT_MS,
  })
  const page = await app.firstWindow({ timeout: FIRST_WINDOW_TIMEOUT_MS })
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  return { packaged, app, page, pageErrors }
}

/**
 * Signs in to the Demo sandbox as the clerk would. The system browser cannot be driven, so main's
 * shell.openExternal records the URL instead of opening it, and the test plays the browser (the consent page on
 * its own connection), which follows the redirect to the app's one-shot loopback listener. Returns the
 * authorize URL and the redirect URI the app asked for.
 */
export async function signInToDemo(launched: LaunchedApp): Promise<{ authorize: URL; redirectUri: string }> {
  const { app, page } = launched
  await app.evaluate(({ shell }) => {
    const store = globalThis as typeof globalThis & { rosterdeskOpenedUrls?: string[] }
    store.rosterdeskOpenedUrls = []
    shell.openExternal = async (url) => {
      store.rosterdeskOpenedUrls?.push(url)
    }
  })
  await page.getByRole('button', { name: 'Sign in with your browser' }).click()
  await page.getByText('Waiting for you to approve RosterDesk in your browser…').waitFor()
  const opened = async (): Promise<string[]> =>
    app.evaluate(() => {
      const store = globalThis as typeof globalThis & { rosterdeskOpenedUrls?: string[] }
      return store.rosterdeskOpenedUrls ?? []
    })
  await expect.poll(opened).toHaveLength(1)
  const [authorizeUrl] = await opened()
  const authorize = new URL(authorizeUrl!)
  const redirectUri = authorize.searchParams.get('redirectUri') ?? ''
  const callback = await answerConsent(authorizeUrl!, 'approve')
  expect(callback.startsWith(`${redirectUri}?`)).toBe(true)
  const landing = await fetch(callback)
  expect(landing.status).toBe(200)
  await page.getByRole('banner').getByText('Signed in', { exact: true }).waitFor()
  return { authorize, redirectUri }
}
