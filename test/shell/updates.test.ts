import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { DEFAULT_REDIRECT_URI } from '../../src/main/core/settings/settings-defaults'
import type { ProxySignInRequest } from '../../src/shared/connection-report'
import type { UpdateRestartResult, UpdateState } from '../../src/shared/update-state'
import { ensureBuiltBundles } from '../helpers/built-bundles'
import { answerConsent } from '../helpers/consent'
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy'
import { startTestSandbox } from '../helpers/sandbox'
import { killAndWait, startMainProcess, type MainProcess } from './main-process'

/**
 * The app's updater as the shipped main bundle runs it, against the Electron stand-in (main's `net.request` on a
 * session, `session.fromPartition`, `autoUpdater`, `process.resourcesPath`, each as Electron's source says:
 * test/shell/stand-in/electron-stand-in.ts) and a generic feed on 127.0.0.1. The shell is told it runs on
 * Windows, so electron-updater's own platform choice (its main.js) gives the NsisUpdater and the GenericProvider
 * reads `latest.yml`, as on a clerk's PC; the installer it downloads is never run (the stand-in's spawn of a
 * non-executable file fails, which electron-updater reports after the quit began).
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }
function value<T>(result: unknown): T {
  const r = result as Result<T>
  if (!r.ok) throw new Error(`IPC failed: ${r.error.code}: ${r.error.message}`)
  return r.value
}

const CURRENT = '1.3.0'
const CACHE_DIR_NAME = 'rosterdesk-updater'
const tempDirs: string[] = []
let sandbox: SandboxHandle
let proxy: ForwardProxy
let feed: Feed

function freshDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rosterdesk-shell-updates-${prefix}-`))
  tempDirs.push(dir)
  return dir
}

/** A generic provider's feed: `latest.yml` as the test sets it, and installers by name. */
interface Feed {
  readonly url: string
  readonly server: Server
  /** Every path asked for, in order. */
  readonly asked: string[]
  release(release: {
    version: string
    file?: string
    body?: Buffer
    sha512Of?: Buffer
    staging?: number
  }): void
}

async function startFeed(): Promise<Feed> {
  let latest = ''
  const files = new Map<string, Buffer>()
  const asked: string[] = []
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://feed').pathname
    asked.push(path)
    if (path === '/latest.yml') {
      response.writeHead(200, { 'content-type': 'text/yaml' }).end(latest)
      return
    }
    const file = files.get(path.slice(1))
    if (file === undefined) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { 'content-length': String(file.length) }).end(file)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return {
    url,
    server,
    asked,
    release({ version, file, body, sha512Of, staging }) {
      const name = file ?? `RosterDesk-Setup-${version}.exe`
      const bytes = body ?? randomBytes(64 * 1024)
      files.set(name, bytes)
      // electron-builder's latest.yml (updateInfoBuilder.js): files with url, sha512 (base64) and size, the
      // legacy path and sha512, the release date and, for a staged rollout, its percentage.
      const sha512 = createHash('sha512')
        .update(sha512Of ?? bytes)
        .digest('base64')
      latest = [
        `version: ${version}`,
        'files:',
        `  - url: ${name}`,
        `    sha512: ${sha512}`,
        `    size: ${bytes.length}`,
        `path: ${name}`,
        `sha512: ${sha512}`,
        `releaseDate: '2026-11-20T10:00:00.000Z'`,
        ...(staging === undefined ? [] : [`stagingPercentage: ${staging}`]),
        '',
      ].join('\n')
    },
  }
}

/** The publisher the test builds name in app-update.yml, and the one the fake PowerShell reports by default. */
const PUBLISHER = 'CN=RosterDesk Test Publisher, O=RosterDesk Test, C=GB'

/**
 * What electron-builder writes beside a packaged app for a generic `publish` (PublishManager.ts; `publisherName`
 * for a signed Windows build, a js-yaml block list).
 */
function writeBuiltFeed(resources: string, publisher: string | undefined): void {
  writeFileSync(
    join(resources, 'app-update.yml'),
    `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: ${CACHE_DIR_NAME}\n` +
      (publisher === undefined ? '' : `publisherName:\n  - ${publisher}\n`),
  )
}

/**
 * Windows PowerShell as the shell finds it on "Windows" here: a folder for PATH holding a file named by its full
 * path (%SystemRoot% unset: C:\Windows\System32\…, which has no `/`, so Linux looks it up on PATH). It answers
 * `Get-AuthenticodeSignature` as windows-signature.ts's script asks (the path it was given; Status 0 and the
 * subject in `subject.txt` beside it, or 2, NotSigned, without one) and fails for any other script; each
 * signature it reports on is a line in `asked.txt`.
 */
function fakePowerShell(subject: string | undefined): {
  dir: string
  path: string
  setSubject(s: string): void
} {
  const dir = freshDir('powershell')
  const setSubject = (text: string) => writeFileSync(join(dir, 'subject.txt'), text)
  if (subject !== undefined) setSubject(subject)
  const file = join(dir, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe')
  writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('node:fs')
const path = require('node:path')
const args = process.argv.slice(2)
const script = Buffer.from(args[args.indexOf('-EncodedCommand') + 1] || '', 'base64').toString('utf16le')
const literal = /-LiteralPath '((?:[^']|'')*)'/.exec(script)
if (!script.includes('Get-AuthenticodeSignature') || literal === null) {
  process.stderr.write('not modelled')
  process.exit(1)
}
const file = literal[1].replace(/''/g, "'")
fs.appendFileSync(path.join(${JSON.stringify(dir)}, 'asked.txt'), file + '\\n')
let subject = null
try { subject = fs.readFileSync(path.join(${JSON.stringify(dir)}, 'subject.txt'), 'utf8') } catch {}
process.stdout.write(JSON.stringify({ Status: subject === null ? 2 : 0, Path: file, Subject: subject }) + '\\r\\n')
`,
    { mode: 0o755 },
  )
  return { dir, path: `${dir}:${process.env['PATH'] ?? ''}`, setSubject }
}

/** The installers in electron-updater's pending folder (none when it was never made). */
function installersIn(pending: string): string[] {
  return existsSync(pending) ? readdirSync(pending).filter((name) => name.endsWith('.exe')) : []
}

const isState =
  (status: UpdateState['status'], version?: string) =>
  (payload: unknown): boolean => {
    const state = payload as UpdateState
    return (
      state.status === status && (version === undefined || ('version' in state && state.version === version))
    )
  }

beforeAll(async () => {
  await ensureBuiltBundles()
  sandbox = await startTestSandbox({ size: 3_000, redirectUris: [DEFAULT_REDIRECT_URI] })
  proxy = await startForwardProxy({ credentials: { user: 'clerk', password: 'pa55-word' } })
  feed = await startFeed()
}, 180_000)

afterAll(async () => {
  await sandbox?.close()
  await proxy?.close()
  feed?.server.closeAllConnections()
  await new Promise((resolve) => feed?.server.close(resolve))
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

describe('updates from a generic feed', () => {
  let main: MainProcess | undefined
  afterAll(async () => {
    if (main !== undefined) await killAndWait([main])
  })

  it('checks, refuses a staged-out or corrupted release, downloads a verified one, and restarts only when no sync runs', async () => {
    const userData = freshDir('data')
    const resources = freshDir('resources')
    const localAppData = freshDir('local')
    writeBuiltFeed(resources, PUBLISHER)
    // Signed by someone else at first.
    const powerShell = fakePowerShell('CN=Someone Else, O=Someone Else, C=GB')
    feed.release({ version: '1.2.0' })
    main = startMainProcess({
      userData,
      platform: 'win32',
      version: CURRENT,
      resourcesPath: resources,
      env: { LOCALAPPDATA: localAppData, PATH: powerShell.path },
    })
    const app = main
    await app.windowReady()

    // At start, once the window shows: an older release is no update.
    await app.waitForEvent('updates:state', isState('up-to-date'))
    await app.clickMenu('Help', 'About RosterDesk')
    expect((await app.snapshot()).messageBoxes.at(-1)?.detail).toContain('RosterDesk is up to date')
    let state = await app.snapshot()
    // electron-updater's own session (electronHttpExecutor.js getNetSession), made without a cache, with the
    // app's verify proc; its requests went through main's net.request in that session.
    expect(state.sessions.find((s) => s.partition === 'electron-updater')).toMatchObject({
      cache: false,
      verifyProc: true,
    })
    expect(state.netRequests.filter((r) => r.partition === 'electron-updater').map((r) => r.route)).toEqual([
      'DIRECT',
    ])

    // The same version: up to date.
    feed.release({ version: CURRENT })
    expect(value<UpdateState>(await app.invoke('updates:check')).status).toBe('up-to-date')

    // The profile's proxy (with its sign-in) now carries the updater's requests too.
    // The clerk confirms the new address in main's dialog (issue 31, point 2).
    await app.answerMessageBoxes(0)
    value(
      await app.invoke('settings:update', {
        proxyMode: 'fixed',
        proxyUrl: proxy.url,
        proxyBypass: '<-loopback>',
        environment: 'staging',
        baseUrls: { staging: sandbox.baseUrl, production: '' },
        clientId: sandbox.credentials.clientId,
        redirectUri: DEFAULT_REDIRECT_URI,
        tenantId: sandbox.credentials.tenantId,
      }),
    )
    value(await app.invoke('settings:set-client-secret', sandbox.credentials.clientSecret))
    await expect
      .poll(async () =>
        (await app.snapshot()).sessions.find((s) => s.partition === 'electron-updater')?.proxyConfigs.at(-1),
      )
      .toEqual({ mode: 'fixed_servers', proxyRules: proxy.url, proxyBypassRules: '<-loopback>' })

    // A release staged to 0% of installs is not offered (electron-updater's isStagingMatch); the proxy asks
    // for a sign-in, which the window answers.
    feed.release({ version: '2.0.0', staging: 0 })
    const staged = app.invoke('updates:check')
    const question = (await app.waitForEvent('network:proxy-sign-in')) as ProxySignInRequest
    expect(question).toMatchObject({ proxy: `127.0.0.1:${proxy.port}`, retry: false })
    value(
      await app.invoke('network:answer-proxy-sign-in', question.id, {
        username: 'clerk',
        password: 'pa55-word',
        remember: false,
      }),
    )
    expect(value<UpdateState>(await staged).status).toBe('up-to-date')
    expect(feed.asked.filter((path) => path.endsWith('.exe'))).toEqual([])
    // (electron-updater adds a `noCache` query to the channel file's URL.)
    const fromProxy = proxy.requests.filter((r) => r.url?.startsWith(`${feed.url}latest.yml`) === true)
    expect(fromProxy.map((r) => r.credentials)).toEqual(['none', 'right'])
    state = await app.snapshot()
    const viaProxy = state.netRequests.filter((r) => r.partition === 'electron-updater').slice(2)
    expect(viaProxy.length).toBeGreaterThan(0)
    expect(viaProxy.every((r) => r.route === `PROXY 127.0.0.1:${proxy.port}`)).toBe(true)

    // A download whose sha512 is not the feed's is refused: a muted note and a log line, no error box.
    feed.release({ version: '2.0.0', staging: 100, sha512Of: Buffer.from('something else') })
    value(await app.invoke('updates:check'))
    const failed = (await app.waitForEvent('updates:state', isState('failed'))) as UpdateState
    expect(failed).toMatchObject({
      message: 'the download did not match its published checksum and was deleted',
    })
    expect((await app.snapshot()).errorBoxes).toEqual([])
    expect(readFileSync(join(userData, 'logs', 'main.log'), 'utf8')).toContain(
      'Updates: the download did not match its published checksum',
    )

    // The right checksum, but signed by another publisher than the build names: refused (issue 31, point 4).
    const installer = randomBytes(96 * 1024)
    feed.release({ version: '2.0.0', staging: 100, body: installer })
    value(await app.invoke('updates:check'))
    await expect
      .poll(async () => value<UpdateState>(await app.invoke('updates:get-state')))
      .toMatchObject({ message: 'the download is not signed by the publisher of RosterDesk and was deleted' })
    const pending = join(localAppData, CACHE_DIR_NAME, 'pending')
    expect(installersIn(pending)).toEqual([])

    // The release as published and signed by the build's publisher: downloaded, verified, ready.
    powerShell.setSubject(PUBLISHER)
    value(await app.invoke('updates:check'))
    await app.waitForEvent('updates:state', isState('ready', '2.0.0'))
    // The signature was asked of Windows PowerShell by its full path, for the downloaded installer.
    const asked = readFileSync(join(powerShell.dir, 'asked.txt'), 'utf8').trim().split('\n')
    expect(asked).toHaveLength(2)
    expect(asked.every((file) => file.startsWith(join(localAppData, CACHE_DIR_NAME, 'pending')))).toBe(true)
    expect(readdirSync(pending)).toContain('RosterDesk-Setup-2.0.0.exe')
    expect(readFileSync(join(pending, 'RosterDesk-Setup-2.0.0.exe')).equals(installer)).toBe(true)
    await app.clickMenu('Help', 'About RosterDesk')
    expect((await app.snapshot()).messageBoxes.at(-1)?.detail).toContain(
      'RosterDesk 2.0.0 is ready: restart to update',
    )

    // Signed in (the callback in a second instance's argv, as Windows delivers it), a slow sync runs: the
    // restart waits and says why; once the sync is over, the clerk's click restarts.
    const signingIn = app.invoke('auth:sign-in')
    const callback = await answerConsent(await app.nextOpenExternal(), 'approve')
    await app.appEvent('second-instance', {}, ['C:\\RosterDesk\\RosterDesk.exe', callback], 'C:\\')
    expect(value<{ status: string }>(await signingIn).status).toBe('signed-in')
    // Each list request waits 20 s, so the sync is still running whatever the machine's load when the restart is
    // asked for; it is then cancelled rather than waited for.
    sandbox.setBehaviours({ latencyMs: 20_000 })
    try {
      const { runId } = value<{ runId: number }>(await app.invoke('sync:start'))
      // Running from the moment sync:start answers (the core's sync:get-status says so).
      expect(value<{ running: boolean }>(await app.invoke('sync:get-status')).running).toBe(true)
      const refused = value<UpdateRestartResult>(await app.invoke('updates:restart'))
      expect(refused).toEqual({
        status: 'busy',
        reason: 'RosterDesk restarts to update once it is done: a sync is running.',
      })
      expect((await app.snapshot()).appEvents).not.toContain('before-quit')
      expect(value<boolean>(await app.invoke('sync:cancel'))).toBe(true)
      const ended = await app.waitForEvent(
        'sync:finished',
        (payload) => (payload as { id?: unknown }).id === runId,
      )
      expect(ended).toMatchObject({ status: 'cancelled' })
    } finally {
      sandbox.setBehaviours({ latencyMs: 0 })
    }
    expect(value<UpdateRestartResult>(await app.invoke('updates:restart'))).toEqual({ status: 'restarting' })
    expect(await app.exited).toEqual({ code: 0, signal: null })
    const events = app.finalRecord()?.appEvents ?? []
    // electron-updater's quitAndInstall: Electron's 'before-quit-for-update', then the app's quit.
    expect(events.indexOf('autoUpdater before-quit-for-update')).toBeGreaterThan(-1)
    expect(events.indexOf('before-quit')).toBeGreaterThan(
      events.indexOf('autoUpdater before-quit-for-update'),
    )
  }, 240_000)
})

/**
 * Updates only where a signature is checked (issue 31, point 4): electron-updater checks a Windows installer's
 * signature only when app-update.yml names the publisher (NsisUpdater.verifySignature) and lets it through when
 * PowerShell cannot tell (windowsExecutableCodeSignatureVerifier.ts); an AppImage's update has the feed's sha512
 * only.
 */
describe('updates that cannot be verified', () => {
  async function aboutSays(app: MainProcess, text: string): Promise<void> {
    await app.clickMenu('Help', 'About RosterDesk')
    await expect.poll(async () => (await app.snapshot()).messageBoxes.at(-1)?.detail ?? '').toContain(text)
  }

  it('are off for a Windows build that names no publisher, and About says why', async () => {
    const resources = freshDir('unsigned-win')
    writeBuiltFeed(resources, undefined)
    feed.release({ version: '2.0.0' })
    const app = startMainProcess({
      userData: freshDir('unsigned-win-data'),
      platform: 'win32',
      resourcesPath: resources,
    })
    try {
      await app.windowReady()
      expect(value<UpdateState>(await app.invoke('updates:check'))).toEqual({
        status: 'disabled',
        reason:
          'This copy is not signed, so it cannot check that an update comes from the publisher of RosterDesk',
      })
      await aboutSays(
        app,
        'Updates are off: This copy is not signed, so it cannot check that an update comes from the publisher of RosterDesk',
      )
      expect((await app.snapshot()).sessions.map((s) => s.partition)).not.toContain('electron-updater')
    } finally {
      await killAndWait([app])
    }
  })

  it('are off on Linux (an AppImage), and About says why', async () => {
    const resources = freshDir('appimage')
    writeBuiltFeed(resources, undefined)
    const app = startMainProcess({
      userData: freshDir('appimage-data'),
      platform: 'linux',
      resourcesPath: resources,
    })
    try {
      await app.windowReady()
      expect(value<UpdateState>(await app.invoke('updates:get-state'))).toMatchObject({
        status: 'disabled',
        reason:
          'An AppImage update cannot be checked for the publisher’s signature; install the next version as you installed this one',
      })
      await aboutSays(app, 'Updates are off: An AppImage update cannot be checked')
      expect((await app.snapshot()).sessions.map((s) => s.partition)).not.toContain('electron-updater')
    } finally {
      await killAndWait([app])
    }
  })

  it('refuse an installer whose signature Windows PowerShell could not check', async () => {
    const resources = freshDir('no-powershell')
    const localAppData = freshDir('no-powershell-local')
    writeBuiltFeed(resources, PUBLISHER)
    feed.release({ version: '2.0.0' })
    // No PowerShell on this PATH: the check cannot run.
    const userData = freshDir('no-powershell-data')
    const app = startMainProcess({
      userData,
      platform: 'win32',
      version: CURRENT,
      resourcesPath: resources,
      env: { LOCALAPPDATA: localAppData },
    })
    try {
      await app.windowReady()
      const failed = (await app.waitForEvent('updates:state', isState('failed'))) as UpdateState
      expect(failed).toMatchObject({
        message: 'the download’s signature could not be checked, so it was deleted',
      })
      expect(installersIn(join(localAppData, CACHE_DIR_NAME, 'pending'))).toEqual([])
      expect(readFileSync(join(userData, 'logs', 'main.log'), 'utf8')).toContain(
        'RosterDesk could not check the signature',
      )
    } finally {
      await killAndWait([app])
    }
  })
})

describe('a build without a feed', () => {
  it('never checks, and About says updates are not set up', async () => {
    const resources = freshDir('no-feed')
    mkdirSync(resources, { recursive: true })
    const app = startMainProcess({ userData: freshDir('no-feed-data'), resourcesPath: resources })
    try {
      await app.windowReady()
      expect(value<UpdateState>(await app.invoke('updates:get-state'))).toEqual({ status: 'not-configured' })
      expect(value<UpdateState>(await app.invoke('updates:check'))).toEqual({ status: 'not-configured' })
      // Help → Check for updates… checks, then shows About with the state.
      await app.clickMenu('Help', 'Check for updates…')
      await expect.poll(async () => (await app.snapshot()).messageBoxes.length).toBe(1)
      const snapshot = await app.snapshot()
      expect(snapshot.messageBoxes.at(-1)?.detail).toContain('Updates are not set up for this build')
      expect(snapshot.sessions.map((s) => s.partition)).not.toContain('electron-updater')
      await app.quit()
      expect((await app.exited).code).toBe(0)
    } finally {
      app.kill()
    }
  })
})
