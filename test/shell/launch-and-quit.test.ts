import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_REDIRECT_URI } from '../../src/main/core/settings/settings-defaults'
import { useMainProcesses, type MainProcess, type MainProcessOptions } from './main-process'

/**
 * The shipped main bundle's life as a desktop app, against the stand-in (which quits, closes windows and emits
 * 'second-instance' and 'open-url' as Electron does: test/shell/stand-in/electron-stand-in.ts): a quit closes the
 * window in Electron's order, a launch with no window open opens one, a launch during a quit starts RosterDesk
 * again once the quit is done, and only a packaged app registers the sign-in scheme.
 */

const shell = useMainProcesses()
function start(prefix: string, options: Omit<MainProcessOptions, 'userData'> = {}): MainProcess {
  return shell.start({ userData: shell.freshDir(`life-${prefix}`), ...options })
}

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }

/** The main log's text once it holds `text` (the shell logs as it goes). */
async function logOnceItSays(main: MainProcess, text: string): Promise<string> {
  const { setPaths } = await main.snapshot()
  const logFile = join(setPaths.at(-1)?.path ?? '', 'logs', 'main.log')
  await expect
    .poll(() => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''), { timeout: 30_000 })
    .toContain(text)
  return readFileSync(logFile, 'utf8')
}

const CALLBACK = `${DEFAULT_REDIRECT_URI}?code=late&state=late`

describe('the built main bundle as a desktop app', () => {
  it('quits in Electron’s order: before-quit, the window closed, then will-quit and quit', async () => {
    const main = start('quit')
    const window = await main.windowReady()
    await main.quit()
    expect(await main.exited).toEqual({ code: 0, signal: null })
    const events = (main.finalRecord()?.appEvents ?? []).filter((name) =>
      /quit|closed|window-all-closed/.test(name),
    )
    // The first before-quit is held while the core closes; the second goes through and closes the window, and
    // a quit's last window closing is no 'window-all-closed' (Browser::OnWindowAllClosed).
    expect(events).toEqual(['before-quit', 'before-quit', `window ${window.id} closed`, 'will-quit', 'quit'])
    expect(main.finalRecord()?.relaunches).toEqual([])
  })

  it('Windows: a relaunch while closing the window quits starts RosterDesk again once the quit is done', async () => {
    const main = start('relaunch', { platform: 'win32', args: [CALLBACK] })
    const window = await main.windowReady()
    const [core] = (await main.snapshot()).utilityProcesses
    // The core is held (stopped) so the quit waits for it, as a quit does while a sync or export stops.
    process.kill(core!.pid!, 'SIGSTOP')
    try {
      await main.closeWindow(window.id)
      await logOnceItSays(main, 'Quitting: stopping any sync or export first')
      // The clerk starts RosterDesk again, twice, once through a sign-in link.
      await main.secondInstance(['C:\\Program Files\\RosterDesk\\RosterDesk.exe'])
      await main.secondInstance(['C:\\Program Files\\RosterDesk\\RosterDesk.exe', CALLBACK])
      const during = await main.snapshot()
      // No window comes back in a process that is ending; one relaunch is asked for, without the callback.
      expect(during.windows).toHaveLength(1)
      expect(during.relaunches).toEqual([{ args: [] }])
    } finally {
      process.kill(core!.pid!, 'SIGCONT')
    }
    expect(await main.exited).toEqual({ code: 0, signal: null })
    expect(main.finalRecord()?.relaunches).toEqual([{ args: [] }])
  })

  it('macOS: a sign-in callback or a relaunch with the window closed opens it, and copy works there', async () => {
    const main = start('mac', { platform: 'darwin' })
    const first = await main.windowReady()
    await main.closeWindow(first.id)
    let state = await main.snapshot()
    // The app stays without a window, as macOS apps do.
    expect(state.appEvents).toContain('window-all-closed')
    expect(state.appEvents).not.toContain('before-quit')

    await main.openUrl(CALLBACK)
    await expect.poll(async () => (await main.snapshot()).windows.length).toBe(2)
    const second = (await main.snapshot()).windows[1]!
    await expect.poll(async () => (await main.snapshot()).windows[1]?.shown).toBe(true)
    // The new window's page may copy; the closed one's id is no longer the app's page.
    expect(await main.writeClipboard({ webContentsId: second.id, isMainFrame: true })).toBe(true)
    expect(await main.writeClipboard({ webContentsId: first.id, isMainFrame: true })).toBe(false)

    await main.closeWindow(second.id)
    await main.secondInstance(['/Applications/RosterDesk.app/Contents/MacOS/RosterDesk'])
    await expect.poll(async () => (await main.snapshot()).windows.length).toBe(3)
    state = await main.snapshot()
    expect(state.relaunches).toEqual([])
    // An invoke from the new window is answered: it is a trusted sender.
    const info = (await main.invokeFrom(
      { webContentsId: state.windows[2]!.id, frameUrl: 'rosterdesk-app://rosterdesk/index.html' },
      'app:get-info',
    )) as Result<{ name: string }>
    expect(info.ok).toBe(true)
    await main.quit()
    expect((await main.exited).code).toBe(0)
  })
})

describe('the sign-in scheme', () => {
  it('is registered by a packaged app', async () => {
    const main = start('packaged')
    await main.windowReady()
    await expect.poll(async () => (await main.snapshot()).protocolClients).toEqual([schemeOfDefault()])
  })

  it('is left alone under npm start, where Demo signs in over loopback and Staging says why it cannot', async () => {
    const main = start('unpackaged', { packaged: false })
    await main.windowReady()
    const log = await logOnceItSays(main, 'not registered (not a packaged app')
    expect(log).toContain(schemeOfDefault())
    expect((await main.snapshot()).protocolClients).toEqual([])

    // Demo: the browser is sent to the sandbox with a loopback redirect.
    const signingIn = main.invoke('auth:sign-in')
    const authorize = new URL(await main.nextOpenExternal())
    expect(authorize.searchParams.get('redirectUri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/)
    expect(((await main.invoke('auth:cancel-sign-in')) as Result<unknown>).ok).toBe(true)
    await signingIn

    // A profile set to the private-use redirect: refused before any browser opens, naming the loopback one.
    // The clerk confirms the new address in main's dialog (issue 31, point 2).
    await main.answerMessageBoxes(0)
    const saved = (await main.invoke('settings:update', {
      environment: 'staging',
      baseUrls: { staging: 'http://127.0.0.1:9/', production: '' },
      clientId: 'client',
      tenantId: 'tenant',
      redirectUri: DEFAULT_REDIRECT_URI,
    })) as Result<unknown>
    expect(saved.ok).toBe(true)
    const refused = (await main.invoke('auth:sign-in')) as Result<unknown>
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.error.code).toBe('config')
    expect(refused.error.message).toContain('npm start')
    expect(refused.error.message).toContain('http://127.0.0.1/oauth/callback')
    await main.quit()
  })

  it('on Windows, is not written for the user when a per-machine install already points at this executable', async () => {
    const exe = 'C:\\Program Files\\RosterDesk\\RosterDesk.exe'
    const machine = start('per-machine', { platform: 'win32', execPath: exe, registeredHandlerPath: exe })
    await machine.windowReady()
    await logOnceItSays(machine, 'already registered')
    expect((await machine.snapshot()).protocolClients).toEqual([])

    // Windows resolves the scheme elsewhere (an old npm start's electron.exe): the user's key is written.
    const elsewhere = start('taken-over', {
      platform: 'win32',
      execPath: exe,
      registeredHandlerPath: 'C:\\dev\\node_modules\\electron\\dist\\electron.exe',
    })
    await elsewhere.windowReady()
    await expect.poll(async () => (await elsewhere.snapshot()).protocolClients).toEqual([schemeOfDefault()])
  })
})

function schemeOfDefault(): string {
  return DEFAULT_REDIRECT_URI.slice(0, DEFAULT_REDIRECT_URI.indexOf(':'))
}
