import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { INVOKE_CHANNELS } from '../../src/shared/ipc-channels'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import { APP_ORIGIN, secureWebPreferences } from '../../src/main/shell/window-and-startup/window-security'
import { DEFAULT_REDIRECT_URI } from '../../src/main/core/settings/settings-defaults'
import { ensureBuiltBundles, MAIN_BUNDLE, PRELOAD_BUNDLE } from '../helpers/built-bundles'
import { answerConsent } from '../helpers/consent'
import { startTestSandbox } from '../helpers/sandbox'
import { PYTHON } from '../helpers/xlsx-reader'
import { startMainProcess, type MainProcess, killAndWait } from './main-process'
import { standInVaultCacheKey } from './stand-in-vault'

/** Prints a diagnostics zip's summary.txt, read by Python's zipfile. */
const UNZIP_SUMMARY = 'import sys, zipfile\nprint(zipfile.ZipFile(sys.argv[1]).read("summary.txt").decode())'

/**
 * The Electron shell as it ships: `out/main/index.js`, run under plain Node against a recording stand-in for
 * Electron's API (test/shell/stand-in). Each test starts its own main process in a fresh data folder.
 */

type Ok<T> = { ok: true; value: T }
type Result<T> = Ok<T> | { ok: false; error: { code: string; message: string } }

function value<T>(result: unknown): T {
  const r = result as Result<T>
  if (!r.ok) throw new Error(`IPC failed: ${r.error.code}: ${r.error.message}`)
  return r.value
}

/** Starts a sync as the window does; its outcome arrives only as the `sync:finished` event with the run's id. */
async function syncToEnd(main: MainProcess): Promise<{ id: number; status: string; stored: number }> {
  const { runId } = value<{ runId: number }>(await main.invoke('sync:start'))
  expect(runId).toEqual(expect.any(Number))
  const finished = await main.waitForEvent(
    'sync:finished',
    (payload) => (payload as { id?: unknown }).id === runId,
  )
  return finished as { id: number; status: string; stored: number }
}

const tempDirs: string[] = []
function freshDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rosterdesk-shell-${prefix}-`))
  tempDirs.push(dir)
  return dir
}

const running: MainProcess[] = []
function start(options: Parameters<typeof startMainProcess>[0]): MainProcess {
  const main = startMainProcess(options)
  running.push(main)
  return main
}

beforeAll(async () => {
  await ensureBuiltBundles()
}, 180_000)

afterAll(async () => {
  await killAndWait(running)
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

describe('the built main bundle', () => {
  it('registers one handler per contract channel, opens the secure window, and Demo signs in over loopback', async () => {
    const userData = freshDir('demo')
    const main = start({ userData })
    const window = await main.windowReady()
    const state = await main.snapshot()

    // Exactly the contract: every invoke channel once, nothing else (no library's own channel either).
    expect(state.handlers).toEqual(Object.fromEntries(INVOKE_CHANNELS.map((channel) => [channel, 1])))
    expect(state.ipcListeners).toEqual([])

    expect(state.windows).toHaveLength(1)
    const options = window.options as { webPreferences: Record<string, unknown> }
    // No test hooks' switch: main's inspector is not open here, as in every installer's build (test-hooks.ts).
    expect(options.webPreferences).toEqual({
      ...secureWebPreferences(PRELOAD_BUNDLE),
      additionalArguments: [],
    })
    expect(window.loadedUrls).toEqual([`${APP_ORIGIN}/index.html`])
    expect(state.privilegedSchemes).toEqual(['rosterdesk-app'])
    expect(state.handledProtocols).toEqual(['rosterdesk-app'])
    expect(state.protocolClients).toContain('com.rosterdesk.app')
    expect(state.lockRequested).toBe(true)
    // A packaged build keeps the installed data folder.
    expect(state.setPaths).toEqual([{ name: 'userData', path: userData }])

    // A message from anything but the app's own page is refused before any handler runs.
    const refused = (await main.invokeFrom(
      { webContentsId: window.id, frameUrl: 'https://evil.example/' },
      'app:get-info',
    )) as Result<unknown>
    expect(refused.ok).toBe(false)
    expect(value<{ name: string }>(await main.invoke('app:get-info')).name).toBe('RosterDesk')

    // Demo: the browser is sent to the built-in sandbox, which redirects to RosterDesk's loopback listener.
    const signingIn = main.invoke('auth:sign-in')
    const authorizeUrl = await main.nextOpenExternal()
    const redirectUri = new URL(authorizeUrl).searchParams.get('redirectUri') ?? ''
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/)
    const callback = await answerConsent(authorizeUrl, 'approve')
    expect(callback.startsWith(redirectUri)).toBe(true)
    const page = await fetch(callback)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('You are signed in')
    expect(value<{ status: string }>(await signingIn).status).toBe('signed-in')

    const summary = await syncToEnd(main)
    expect(summary.status).toBe('complete')
    expect(value<{ employeeCount: number }>(await main.invoke('sync:get-status')).employeeCount).toBe(
      summary.stored,
    )

    // What the core process asks of the shell: the save dialog, Explorer/Finder and the print window.
    const target = join(freshDir('demo-exports'), 'demo roster.csv')
    await main.setSavePath(target)
    const request = { kind: 'view', query: {}, columns: ['firstName', 'lastName'], format: 'csv' }
    expect(value<{ status: string }>(await main.invoke('export:start', request))).toEqual({
      status: 'written',
      rows: summary.stored,
      fileName: 'demo roster.csv',
    })
    expect(readFileSync(target, 'utf8').split('\n').length).toBeGreaterThan(summary.stored)
    expect(value<boolean>(await main.invoke('export:show-in-folder'))).toBe(true)
    expect((await main.snapshot()).shownItems).toEqual([target])
    expect(value<{ status: string }>(await main.invoke('export:print', request))).toMatchObject({
      status: 'printed',
      total: summary.stored,
    })
    const [printed] = (await main.snapshot()).printed
    expect(printed?.html).toContain('<table')
    expect(printed?.title).toBe('Employees')

    // The table's Copy: the page names employees and columns, the core reads them, main writes the clipboard:
    // text and an HTML table in one ClipboardItem, through Electron's clipboard.write (stand-in/clipboard.ts).
    const first = value<{ rows: Array<Record<string, unknown>> }>(
      await main.invoke('employees:query', { limit: 3, sort: { column: 'employeeNumber', order: 'asc' } }),
    ).rows
    const copy = {
      uuids: first.map((row) => row['UUID']),
      columns: ['employeeNumber', 'lastName'],
      headers: true,
    }
    expect(value(await main.invoke('export:copy-rows', copy))).toEqual({ rows: 3, columns: 2 })
    const written = (await main.snapshot()).clipboardWrites
    expect(written).toHaveLength(1)
    expect(Object.keys(written[0]!).sort()).toEqual(['text/html', 'text/plain'])
    const numbers = first.map((row) => String(row['employeeNumber']))
    expect(written[0]!['text/plain']).toBe(
      `Employee number\tLast name\r\n${first.map((row) => `${String(row['employeeNumber'])}\t${String(row['lastName'])}`).join('\r\n')}\r\n`,
    )
    const html = written[0]!['text/html']!
    for (const number of numbers) expect(html).toContain(`<td style="mso-number-format:'\\@'">${number}</td>`)

    // Help → Save diagnostics…: main's save dialog, then the zip, with what only main knows (install kind, updates).
    const zip = join(freshDir('diagnostics'), 'RosterDesk diagnostics.zip')
    await main.setSavePath(zip)
    expect(value<{ status: string }>(await main.invoke('diagnostics:save'))).toMatchObject({
      status: 'written',
      fileName: 'RosterDesk diagnostics.zip',
    })
    const facts = execFileSync(PYTHON, ['-c', UNZIP_SUMMARY, zip], { encoding: 'utf8' })
    expect(facts).toContain('Install kind: packaged\n')
    expect(facts).toMatch(/\nUpdates: .+\n/)
    expect(facts).not.toContain('not known here')

    await main.quit()
    expect(await main.exited).toEqual({ code: 0, signal: null })
    expect(main.appExitCode()).toBe(0)
  })

  it('runs the app core in a utility process, starts a fresh one if it dies, and reloads the window', async () => {
    const userData = freshDir('core-process')
    const main = start({ userData })
    await main.windowReady()
    expect(value<{ name: string }>(await main.invoke('app:get-info')).name).toBe('RosterDesk')
    const first = (await main.snapshot()).utilityProcesses
    expect(first).toHaveLength(1)
    expect(first[0]).toMatchObject({ serviceName: 'RosterDesk core' })
    expect(first[0]?.modulePath).toBe(join(dirname(MAIN_BUNDLE), 'core-process.js'))

    process.kill(first[0]!.pid!, 'SIGKILL')
    await vi.waitFor(async () => expect((await main.snapshot()).windows[0]?.reloads).toBe(1), {
      timeout: 30_000,
      interval: 100,
    })
    const both = (await main.snapshot()).utilityProcesses
    expect(both).toHaveLength(2)
    expect(value<{ name: string }>(await main.invoke('app:get-info')).name).toBe('RosterDesk')
    const log = readFileSync(join(userData, 'logs', 'main.log'), 'utf8')
    expect(log).toContain('The core process stopped unexpectedly')
    expect(log).toContain('The core process was started again')

    await main.quit()
    expect(await main.exited).toEqual({ code: 0, signal: null })
    // Nothing outlives the app: the replacement ended with it.
    expect(() => process.kill(both[1]!.pid!, 0)).toThrow()
  })

  it('gives a desktop menu (no DevTools when packaged), a log folder and an About box', async () => {
    const userData = freshDir('menu')
    const main = start({ userData })
    await main.windowReady()
    const { menu } = await main.snapshot()
    const roles = JSON.stringify(menu)
    for (const role of ['copy', 'paste', 'selectAll', 'cut', 'undo', 'zoomIn', 'zoomOut', 'resetZoom']) {
      expect(roles).toContain(`"role":"${role}"`)
    }
    expect(roles).not.toContain('toggleDevTools')
    expect(roles).not.toContain('"reload"')

    // Window commands reach the page as `app:command`, which handles them as it does their shortcuts.
    await main.clickMenu('File', 'Print…')
    expect((await main.snapshot()).sent).toContainEqual({ channel: 'app:command', payload: 'print' })

    await main.clickMenu('Help', 'Open log folder')
    const logs = join(userData, 'logs')
    expect((await main.snapshot()).openedPaths).toEqual([logs])
    expect(readdirSync(logs).some((name) => name.endsWith('.log'))).toBe(true)

    if (process.platform !== 'darwin') {
      await main.clickMenu('Help', 'About RosterDesk')
      const [about] = (await main.snapshot()).messageBoxes
      expect(about?.detail).toContain('Version 0.1.0-shell-test')
      expect(about?.detail).toContain(`Data folder: ${userData}`)
      expect(about?.detail).toContain(`Log folder: ${logs}`)
    }
    await main.quit()
    expect((await main.exited).code).toBe(0)
  })

  it('shows an error box naming the log, releases the lock and exits 1 when starting fails', async () => {
    const base = freshDir('broken')
    // A development run uses its own folder; there, a file stands where the cache folder must be.
    const devData = `${base}-development`
    tempDirs.push(devData)
    mkdirSync(devData)
    writeFileSync(join(devData, 'cache'), 'not a folder')
    const main = start({ userData: base, packaged: false })
    expect(await main.exited).toEqual({ code: 1, signal: null })
    expect(main.appExitCode()).toBe(1)
    expect(main.stderr()).not.toMatch(/UnhandledPromiseRejection/)
    const final = main.finalRecord()
    expect(final?.setPaths).toEqual([{ name: 'userData', path: devData }])
    expect(final?.lockReleased).toBe(true)
    expect(final?.errorBoxes).toHaveLength(1)
    const [box] = final?.errorBoxes ?? []
    const logFile = join(devData, 'logs', 'main.log')
    expect(box?.title).toBe('RosterDesk could not start')
    expect(box?.message).toContain(logFile)
    // The log holds what support needs: the failure with its stack.
    const log = readFileSync(logFile, 'utf8')
    expect(log).toContain('RosterDesk could not start')
    expect(log).toMatch(/\n\s+at /)
  })
})

describe('the built main bundle against a Staging service', () => {
  let sandbox: SandboxHandle
  beforeAll(async () => {
    sandbox = await startTestSandbox({ size: 30_000, redirectUris: [DEFAULT_REDIRECT_URI] })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  async function configureStaging(main: MainProcess): Promise<void> {
    // The clerk confirms the new address in main's dialog (issue 31, point 2).
    await main.answerMessageBoxes(0)
    value(
      await main.invoke('settings:update', {
        environment: 'staging',
        baseUrls: { staging: sandbox.baseUrl, production: '' },
        clientId: sandbox.credentials.clientId,
        redirectUri: DEFAULT_REDIRECT_URI,
        tenantId: sandbox.credentials.tenantId,
      }),
    )
    value(await main.invoke('settings:set-client-secret', sandbox.credentials.clientSecret))
  }

  it('signs in from a callback in a second instance’s argv, syncs, and a quit mid-export leaves no file', async () => {
    const userData = freshDir('staging')
    const exportsDir = freshDir('exports')
    const main = start({ userData })
    await main.windowReady()
    await configureStaging(main)

    const signingIn = main.invoke('auth:sign-in')
    const callback = await answerConsent(await main.nextOpenExternal(), 'approve')
    expect(callback.startsWith(`${DEFAULT_REDIRECT_URI}?`)).toBe(true)
    // Windows starts a second RosterDesk with the URL among Chromium's own switches; the lock forwards its argv.
    await main.appEvent(
      'second-instance',
      {},
      [
        'C:\\Program Files\\RosterDesk\\RosterDesk.exe',
        '--allow-file-access-from-files',
        '--original-process-start-time=13360000000000000',
        callback,
        '--enable-features=WinRetrieveSuggestionsOnlyOnDemand',
      ],
      'C:\\Windows\\System32',
    )
    expect(value<{ status: string }>(await signingIn).status).toBe('signed-in')
    const focused = (await main.snapshot()).windows[0]
    expect(focused?.focused).toBeGreaterThan(0)

    const summary = await syncToEnd(main)
    expect(summary).toMatchObject({ status: 'complete', stored: 30_000 })

    const target = join(exportsDir, 'roster.xlsx')
    await main.setSavePath(target)
    const exporting = main.invoke('export:start', {
      kind: 'view',
      query: {},
      columns: ['UUID', 'firstName', 'lastName', 'employeeStatus'],
      format: 'xlsx',
    })
    void exporting.catch(() => undefined)
    await main.waitForEvent('export:progress')
    await main.quit()
    expect(await main.exited).toEqual({ code: 0, signal: null })
    expect(readdirSync(exportsDir)).toEqual([])
    expect(main.stderr()).not.toMatch(/after it was closed|Unhandled/i)
    // exceljs loaded as it ships: a writer file the bundle cannot find falls back to plain streaming and says so.
    expect(readFileSync(join(userData, 'logs', 'main.log'), 'utf8')).not.toContain('plain streaming')

    // Started again on the same folder: still signed in (secrets went through safeStorage), and a quit during
    // a second sync keeps the first sync's employees.
    const again = start({ userData })
    await again.windowReady()
    expect(value<{ status: string }>(await again.invoke('auth:get-state')).status).toBe('signed-in')
    sandbox.setBehaviours({ latencyMs: 200 })
    try {
      const { runId } = value<{ runId: number }>(await again.invoke('sync:start'))
      await again.waitForEvent('sync:progress', (payload) => (payload as { runId?: unknown }).runId === runId)
      await again.quit()
      expect(await again.exited).toEqual({ code: 0, signal: null })
    } finally {
      sandbox.setBehaviours({ latencyMs: 0 })
    }
    // The app's cache key, from its vault: the user's `cacheKey` secret, wrapped by the stand-in's safeStorage.
    const cache = openCacheDatabase(join(userData, 'cache', 'employees.sqlite'), {
      key: standInVaultCacheKey(userData),
      mustExist: true,
    })
    try {
      expect(cache.employeeCount()).toBe(30_000)
      expect(cache.runs.lastRun()?.status).toBe('cancelled')
    } finally {
      cache.close()
    }
  })
})
