import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useMainProcesses } from './main-process'

/**
 * Issue 31, point 7: electron-builder's AppImage launcher (the AppRun of app-builder-lib 26.17.0,
 * src/targets/appimage/appImageUtil.ts) adds `--no-sandbox` when `unshare -Ur true` fails (no unprivileged user
 * namespaces), which turns Chromium's sandbox off for every process, the window's included. RosterDesk says so:
 * `app:get-info` tells the window (a notice the clerk can read) and the log has a warning.
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }

const shell = useMainProcesses()

async function started(args: readonly string[], env: Record<string, string> = {}) {
  const userData = shell.freshDir('sandbox')
  const main = shell.start({ userData, args, env })
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
