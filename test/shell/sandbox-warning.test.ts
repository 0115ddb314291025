import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuiltBundles } from '../helpers/built-bundles'
import { startMainProcess, type MainProcess, killAndWait } from './main-process'

/**
 * Issue 31, point 7: electron-builder's AppImage launcher (the AppRun of app-builder-lib 26.17.0,
 * src/targets/appimage/appImageUtil.ts) adds `--no-sandbox` when `unshare -Ur true` fails (no unprivileged user
 * namespaces), which turns Chromium's sandbox off for every process, the window's included. RosterDesk says so:
 * `app:get-info` tells the window (a notice the clerk can read) and the log has a warning.
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }

const tempDirs: string[] = []
const running: MainProcess[] = []

beforeAll(async () => {
  await ensureBuiltBundles()
}, 180_000)

afterEach(async () => {
  await killAndWait(running.splice(0))
})

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

async function started(args: readonly string[], env: Record<string, string> = {}) {
  const userData = mkdtempSync(join(tmpdir(), 'rosterdesk-shell-sandbox-'))
  tempDirs.push(userData, `${userData}-development`)
  const main = startMainProcess({ userData, args, env })
  running.push(main)
  await main.windowReady()
  const info = (await main.invoke('app:get-info')) as Result<{ sandboxOff?: boolean }>
  const log = join(userData, 'logs', 'main.log')
  return {
    info: info.ok ? info.value : undefined,
    log: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
  }
}

describe('an app started without Chromium’s sandbox', () => {
  it('tells the window and warns in the log when the AppImage launcher added --no-sandbox', async () => {
    const { info, log } = await started(['--no-sandbox'], { APPIMAGE: '/home/clerk/RosterDesk.AppImage' })
    expect(info?.sandboxOff).toBe(true)
    await expect.poll(log).toContain('started with --no-sandbox')
    expect(log()).toContain('AppImage')
  })

  it('says nothing with the sandbox on', async () => {
    const { info, log } = await started([], { APPIMAGE: '/home/clerk/RosterDesk.AppImage' })
    expect(info?.sandboxOff).toBeUndefined()
    expect(log()).not.toContain('--no-sandbox')
  })
})
