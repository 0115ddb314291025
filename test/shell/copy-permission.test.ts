import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_ORIGIN } from '../../src/main/shell/window-and-startup/window-security'
import { ensureBuiltBundles } from '../helpers/built-bundles'
import { startMainProcess, type MainProcess, killAndWait } from './main-process'

/**
 * The second half of copy's proof (the first, test/e2e/ui-copy-permission.test.ts, shows in real Chromium that the
 * page's own copy, Copy report, needs exactly the 'clipboard-sanitized-write' permission): the built main
 * process's answer when Electron asks for it. The stand-in asks as Electron does (electron_permission_manager.cc, through the session's
 * request and check handlers, with their argument shapes), so a main that refuses every request fails here.
 * Decision 038.
 */

let main: MainProcess
let userData: string
let appPage: number
const PAGE = `${APP_ORIGIN}/index.html`

beforeAll(async () => {
  await ensureBuiltBundles()
  userData = mkdtempSync(join(tmpdir(), 'rosterdesk-shell-copy-'))
  main = startMainProcess({ userData })
  appPage = (await main.windowReady()).id
}, 180_000)

afterAll(async () => {
  await killAndWait([main])
  rmSync(userData, { recursive: true, force: true })
})

describe('the clipboard permission the page’s copy asks for', () => {
  it('is granted to the app window’s own top-level page', async () => {
    expect(await main.writeClipboard({ webContentsId: appPage, isMainFrame: true })).toBe(true)
    expect(
      await main.checkPermission('clipboard-sanitized-write', { webContentsId: appPage, isMainFrame: true }),
    ).toBe(true)
    const [asked] = (await main.snapshot()).permissionAsks
    // Asked of main's own handler (not granted by Electron's default for a session without one), with the
    // frame's URL as Electron gives it.
    expect(asked).toEqual({
      kind: 'request',
      permission: 'clipboard-sanitized-write',
      webContentsId: appPage,
      requestingUrl: PAGE,
      isMainFrame: true,
      granted: true,
      handler: 'app',
    })
  })

  it('is refused to a subframe, another origin and a page main did not open', async () => {
    const refused = [
      { webContentsId: appPage, frameUrl: 'https://evil.example/', isMainFrame: false },
      { webContentsId: appPage, frameUrl: PAGE, isMainFrame: false },
      { webContentsId: appPage, frameUrl: 'https://evil.example/', isMainFrame: true },
      { webContentsId: appPage + 100, frameUrl: PAGE, isMainFrame: true },
    ]
    for (const frame of refused) {
      expect(await main.writeClipboard(frame), JSON.stringify(frame)).toBe(false)
      expect(await main.checkPermission('clipboard-sanitized-write', frame), JSON.stringify(frame)).toBe(
        false,
      )
    }
  })

  it('is the only permission the app’s page gets', async () => {
    const page = { webContentsId: appPage, isMainFrame: true }
    for (const permission of [
      'clipboard-read',
      'notifications',
      'media',
      'geolocation',
      'openExternal',
      'fullscreen',
      'pointerLock',
    ]) {
      expect(await main.requestPermission(permission, page), permission).toBe(false)
      expect(await main.checkPermission(permission, page), permission).toBe(false)
    }
    const asks = (await main.snapshot()).permissionAsks
    expect(asks.every((ask) => ask.handler === 'app')).toBe(true)
    expect(asks.filter((ask) => ask.granted).map((ask) => ask.permission)).toEqual([
      'clipboard-sanitized-write',
      'clipboard-sanitized-write',
    ])
  })
})
