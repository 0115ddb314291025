import { createHash, randomBytes } from 'node:crypto'
import type { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import Module, { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppUpdater } from 'electron-updater'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../../../src/main/core/log/logger'
import { UpdateController } from '../../../../../src/main/shell/updates/update-controller'
import { updateSetup, type UpdateSetup } from '../../../../../src/main/shell/updates/update-setup'
import type { UpdateState } from '../../../../../src/shared/update-state'
import { createElectronStandIn, type ElectronStandIn } from '../../../../shell/stand-in/electron-stand-in'
import { until } from '../../../../helpers/until'

/**
 * The update controller over electron-updater's real NsisUpdater and GenericProvider, under plain Node, with the
 * Electron stand-in as its `electron` module (main's net.request on a session, app.getVersion, whenReady: as
 * test/shell/stand-in/electron-stand-in.ts cites Electron's source for). The NsisUpdater is made here directly
 * (a test seam): on Linux electron-updater's own choice is the AppImageUpdater, which stays inactive outside an
 * AppImage. The provider names its channel files for the OS it runs on (`latest-linux.yml`, `beta-linux.yml`
 * here; `latest.yml` on Windows, which test/shell/updates.test.ts serves). The macOS tests make a MacUpdater the
 * same way, which hands its download to the stand-in's Squirrel.Mac (its `autoUpdater`, `standIn.squirrel`).
 */

const CURRENT = '1.3.0'
const dirs: string[] = []
const servers: Server[] = []
let resources: string
let restoreLoad: () => void
let NsisUpdater: new () => AppUpdater
let MacUpdater: new () => AppUpdater
let standIn: ElectronStandIn

function freshDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rosterdesk-updater-${prefix}-`))
  dirs.push(dir)
  return dir
}

/** A generic feed: channel files as given, each release's installer beside them; the paths asked, in order. */
async function startFeed(
  releases: Record<string, string>,
  extension: 'exe' | 'zip' = 'exe',
): Promise<{ url: string; asked: string[] }> {
  const files = new Map<string, string | Buffer>()
  for (const [channelFile, version] of Object.entries(releases)) {
    const name = `RosterDesk-Setup-${version}.${extension}`
    const bytes = randomBytes(32 * 1024)
    const sha512 = createHash('sha512').update(bytes).digest('base64')
    files.set(name, bytes)
    files.set(
      channelFile,
      `version: ${version}\nfiles:\n  - url: ${name}\n    sha512: ${sha512}\n    size: ${bytes.length}\n` +
        `path: ${name}\nsha512: ${sha512}\nreleaseDate: '2026-11-20T10:00:00.000Z'\n`,
    )
  }
  const asked: string[] = []
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://feed').pathname.slice(1)
    asked.push(path)
    const body = files.get(path)
    if (body === undefined) response.writeHead(404).end()
    else response.writeHead(200).end(body)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, asked }
}

/**
 * The build's app-update.yml, as electron-builder writes it for a generic feed; a prerelease build's carries its
 * version's tag as `channel` (app-builder-lib's PublishManager: `o.channel = channelFromAppVersion`).
 */
function buildFeed(url: string, channel?: string): void {
  writeFileSync(
    join(resources, 'app-update.yml'),
    `provider: generic\nurl: ${url}\nupdaterCacheDirName: rosterdesk-updater-${Math.random().toString(36).slice(2)}\n` +
      (channel === undefined ? '' : `channel: ${channel}\n`),
  )
}

/**
 * A controller over a fresh NsisUpdater (or, with `mac`, a MacUpdater handing its download to the stand-in's
 * Squirrel.Mac, Electron's autoUpdater); `steps` records the restart's steps in order.
 */
function controllerFor(
  setup: UpdateSetup,
  busy: () => Promise<string | undefined> = async () => undefined,
  mac?: { restartBoundMs?: number },
): { controller: UpdateController; states: UpdateState[]; steps: string[]; updater: () => AppUpdater } {
  const states: UpdateState[] = []
  const steps: string[] = []
  let made: AppUpdater | undefined
  const app = standIn.module['app'] as EventEmitter
  const squirrel = standIn.module['autoUpdater'] as EventEmitter
  const controller = new UpdateController({
    setup,
    updater: () => (made = mac === undefined ? new NsisUpdater() : new MacUpdater()),
    busy: async () => {
      steps.push('busy asked')
      return busy()
    },
    closeForRestart: async () => {
      steps.push('closing the core')
      await Promise.resolve()
      steps.push('core closed')
    },
    reopenAfterFailedRestart: async () => void steps.push('core reopened'),
    onQuit: (listener) => {
      const quitBegan = () => {
        steps.push('quit began')
        listener()
      }
      app.on('before-quit', quitBegan)
      return () => app.off('before-quit', quitBegan)
    },
    ...(mac === undefined ? {} : { squirrel, ...mac }),
    emit: (state) => states.push(state),
    logger: silentLogger,
  })
  return {
    controller,
    states,
    steps,
    updater: () => {
      if (made === undefined) throw new Error('no updater yet')
      return made
    },
  }
}

const on = (channel: 'stable' | 'beta', feedUrl?: string): UpdateSetup =>
  updateSetup({
    policy: { channel, ...(feedUrl === undefined ? {} : { feedUrl }) },
    disabledReason: undefined,
    isPackaged: true,
    builtFeed: true,
    macSigned: undefined,
    platform: 'win32',
    publisherNamed: true,
  })

beforeAll(() => {
  resources = freshDir('resources')
  const userData = freshDir('user-data')
  standIn = createElectronStandIn({ userData, isPackaged: true, appPath: userData, version: CURRENT })
  // electron-updater's require('electron') gets the stand-in, as the shell tests' boot.ts arranges.
  type Loader = (request: string, parent: unknown, isMain: boolean) => unknown
  const loader = Module as unknown as { _load: Loader }
  const original = loader._load
  loader._load = function load(request, parent, isMain) {
    if (request === 'electron') return standIn.module
    return original.call(this, request, parent, isMain)
  }
  const resourcesBefore = Object.getOwnPropertyDescriptor(process, 'resourcesPath')
  Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true })
  const cacheBefore = process.env['XDG_CACHE_HOME']
  process.env['XDG_CACHE_HOME'] = freshDir('cache')
  restoreLoad = () => {
    loader._load = original
    if (resourcesBefore === undefined) Reflect.deleteProperty(process, 'resourcesPath')
    else Object.defineProperty(process, 'resourcesPath', resourcesBefore)
    if (cacheBefore === undefined) delete process.env['XDG_CACHE_HOME']
    else process.env['XDG_CACHE_HOME'] = cacheBefore
  }
  ;({ NsisUpdater, MacUpdater } = createRequire(__filename)('electron-updater') as {
    NsisUpdater: new () => AppUpdater
    MacUpdater: new () => AppUpdater
  })
})

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    }),
  )
})

afterAll(() => {
  restoreLoad()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('the update controller over electron-updater', () => {
  it('on the stable channel takes the stable release, never the beta', async () => {
    const feed = await startFeed({ 'latest-linux.yml': '1.4.0', 'beta-linux.yml': '1.5.0-beta.1' })
    buildFeed(feed.url)
    const { controller, states } = controllerFor(on('stable'))
    await controller.check()
    await until(() => controller.state.status === 'ready')
    expect(controller.state).toEqual({ status: 'ready', version: '1.4.0' })
    expect(states.map((state) => state.status)).toEqual(
      expect.arrayContaining(['checking', 'downloading', 'ready']),
    )
    expect(feed.asked).not.toContain('beta-linux.yml')
    expect(feed.asked).toContain('RosterDesk-Setup-1.4.0.exe')
  })

  it('on the stable channel reads the stable file even when the build’s app-update.yml names beta', async () => {
    // A beta build that IT moves back to stable: its app-update.yml says `channel: beta`.
    const feed = await startFeed({ 'latest-linux.yml': '1.4.0', 'beta-linux.yml': '1.5.0-beta.1' })
    buildFeed(feed.url, 'beta')
    const { controller } = controllerFor(on('stable'))
    await controller.check()
    await until(() => controller.state.status === 'ready')
    expect(controller.state).toEqual({ status: 'ready', version: '1.4.0' })
    expect(feed.asked).toContain('latest-linux.yml')
    expect(feed.asked).not.toContain('beta-linux.yml')
  })

  it('on the beta channel (the policy’s) takes the beta', async () => {
    const feed = await startFeed({ 'latest-linux.yml': '1.4.0', 'beta-linux.yml': '1.5.0-beta.1' })
    buildFeed(feed.url)
    const { controller } = controllerFor(on('beta'))
    await controller.check()
    await until(() => controller.state.status === 'ready')
    expect(controller.state).toEqual({ status: 'ready', version: '1.5.0-beta.1' })
    expect(feed.asked).not.toContain('latest-linux.yml')
  })

  it('reads the policy’s feed instead of the build’s', async () => {
    const built = await startFeed({ 'latest-linux.yml': '9.9.9' })
    const policy = await startFeed({ 'latest-linux.yml': '1.4.1' })
    buildFeed(built.url)
    const { controller } = controllerFor(on('stable', policy.url))
    await controller.check()
    await until(() => controller.state.status === 'ready')
    expect(controller.state).toEqual({ status: 'ready', version: '1.4.1' })
    expect(built.asked).toEqual([])
  })

  it('is up to date when the beta channel’s newest is older, never going back to it', async () => {
    const feed = await startFeed({ 'beta-linux.yml': '1.2.0' })
    buildFeed(feed.url)
    const { controller } = controllerFor(on('beta'))
    expect((await controller.check()).status).toBe('up-to-date')
    expect(feed.asked.filter((path) => path.endsWith('.exe'))).toEqual([])
  })

  it('answers a failed check with a muted note, and a channel the server lacks in words', async () => {
    const feed = await startFeed({})
    buildFeed(feed.url)
    const { controller, states } = controllerFor(on('stable'))
    const state = await controller.check()
    expect(state).toMatchObject({
      status: 'failed',
      message: 'the update server has no release for this channel',
    })
    expect(states.at(-1)).toEqual(state)
  })
})

describe('restarting into a downloaded update', () => {
  async function ready(busy?: () => Promise<string | undefined>) {
    const feed = await startFeed({ 'latest-linux.yml': '1.4.0' })
    buildFeed(feed.url)
    const made = controllerFor(on('stable'), busy)
    await made.controller.check()
    await until(() => made.controller.state.status === 'ready')
    return made
  }

  it('closes the core (main’s quit path) before the installer starts', async () => {
    const { controller, steps, updater } = await ready()
    // electron-updater's quitAndInstall would run the installer: recorded instead.
    updater().quitAndInstall = () => void steps.push('installer started')
    expect(await controller.restart()).toEqual({ status: 'restarting' })
    expect(steps).toEqual(['busy asked', 'closing the core', 'core closed', 'installer started'])
  })

  it('reopens the core and says why when the installer does not start (issue 31, point 11)', async () => {
    const { controller, steps, updater } = await ready()
    // What BaseUpdater.install does when the installer is missing: its 'error' at once, and no quit of its own.
    updater().quitAndInstall = function (this: AppUpdater) {
      this.emit('error', new Error("No update filepath provided, can't quit and install"))
    }
    expect(await controller.restart()).toEqual({ status: 'restarting' })
    await until(() => steps.includes('core reopened'))
    expect(steps).toEqual(['busy asked', 'closing the core', 'core closed', 'core reopened'])
    expect(controller.state).toMatchObject({
      status: 'failed',
      message: 'RosterDesk 1.4.0 was not installed: its installer did not start',
    })
  })

  it('neither closes the core nor installs while something runs', async () => {
    const { controller, steps, updater } = await ready(async () => 'a sync is running')
    updater().quitAndInstall = () => void steps.push('installer started')
    expect(await controller.restart()).toEqual({ status: 'busy', reason: 'a sync is running' })
    expect(steps).toEqual(['busy asked'])
  })
})

/**
 * On macOS (issue 31, point 11): electron-updater's MacUpdater serves its verified download to Squirrel.Mac
 * (Electron's autoUpdater, the stand-in's model of auto_updater_mac.mm), which downloads it again and checks its
 * signature; only then can Squirrel install it.
 */
describe('restarting into an update on macOS', () => {
  async function handedToSquirrel(mac: { restartBoundMs?: number } = {}) {
    const feed = await startFeed({ 'latest-linux.yml': '1.4.0' }, 'zip')
    buildFeed(feed.url)
    const made = controllerFor(on('stable'), undefined, mac)
    await made.controller.check()
    return made
  }

  afterEach(() => {
    standIn.squirrel.downloading = Promise.resolve()
    standIn.squirrel.relaunch = 'never'
  })

  it('is ready only once Squirrel.Mac has the update', async () => {
    let letSquirrelFinish: () => void = () => undefined
    standIn.squirrel.downloading = new Promise((resolve) => (letSquirrelFinish = resolve))
    const fetchedBefore = standIn.squirrel.fetched
    const { controller } = await handedToSquirrel()
    // electron-updater has downloaded and verified the zip and is serving it; Squirrel is still downloading it.
    await until(() => standIn.record.appEvents.filter((e) => e === 'autoUpdater update-available').length > 0)
    expect(controller.state).toMatchObject({ status: 'downloading', version: '1.4.0' })
    letSquirrelFinish()
    await until(() => controller.state.status === 'ready')
    expect(standIn.squirrel.fetched).toBe(fetchedBefore + 1)
  })

  it('reopens the core and says why when Squirrel.Mac refuses the update at relaunch', async () => {
    const { controller, steps } = await handedToSquirrel()
    await until(() => controller.state.status === 'ready')
    standIn.squirrel.relaunch = {
      error:
        'The code signature of the update did not pass validation: code failed to satisfy specified code requirement(s)',
    }
    expect(await controller.restart()).toEqual({ status: 'restarting' })
    await until(() => steps.includes('core reopened'))
    expect(steps).toEqual(['busy asked', 'closing the core', 'core closed', 'core reopened'])
    expect(controller.state).toMatchObject({
      status: 'failed',
      message:
        'RosterDesk 1.4.0 was not installed: macOS refused the update’s signature (The code signature of the ' +
        'update did not pass validation: code failed to satisfy specified code requirement(s))',
    })
  })

  it('reopens the core when the install does not begin within the bound', async () => {
    const { controller, steps } = await handedToSquirrel({ restartBoundMs: 200 })
    await until(() => controller.state.status === 'ready')
    standIn.squirrel.relaunch = 'never'
    expect(await controller.restart()).toEqual({ status: 'restarting' })
    await until(() => steps.includes('core reopened'))
    expect(controller.state).toMatchObject({
      status: 'failed',
      message: 'RosterDesk 1.4.0 was not installed: it did not begin installing within 0.2 seconds',
    })
  })

  // Last: the stand-in's app has quit after it.
  it('changes nothing once the quit began (Squirrel installs and relaunches)', async () => {
    const { controller, steps, updater } = await handedToSquirrel({ restartBoundMs: 60_000 })
    await until(() => controller.state.status === 'ready')
    standIn.squirrel.relaunch = 'quit'
    expect(await controller.restart()).toEqual({ status: 'restarting' })
    await until(() => steps.includes('quit began'))
    // An error after the quit began is not the restart's: nothing is reopened.
    updater().emit('error', new Error('late'))
    expect(steps).toEqual(['busy asked', 'closing the core', 'core closed', 'quit began'])
    expect(standIn.record.appEvents).toContain('autoUpdater before-quit-for-update')
  })
})

describe('whether updates run', () => {
  const base = {
    policy: undefined,
    disabledReason: undefined,
    isPackaged: true,
    builtFeed: true,
    macSigned: undefined,
    platform: 'win32' as const,
    publisherNamed: true,
  }
  it('follows the policy, the caller’s reason, the build’s feed and the macOS signature, in that order', () => {
    expect(updateSetup(base)).toEqual({ on: true, channel: 'stable' })
    expect(updateSetup({ ...base, policy: { enabled: false }, disabledReason: 'installed by MSI' })).toEqual({
      on: false,
      state: { status: 'disabled', reason: 'Turned off by your organisation' },
    })
    expect(
      updateSetup({ ...base, disabledReason: 'installed by MSI: your IT department updates RosterDesk' }),
    ).toEqual({
      on: false,
      state: { status: 'disabled', reason: 'installed by MSI: your IT department updates RosterDesk' },
    })
    expect(
      updateSetup({ ...base, builtFeed: false, policy: { feedUrl: 'https://updates.example.com/' } }),
    ).toEqual({
      on: false,
      state: { status: 'not-configured' },
    })
    expect(updateSetup({ ...base, isPackaged: false })).toEqual({
      on: false,
      state: { status: 'not-configured' },
    })
    expect(updateSetup({ ...base, macSigned: false })).toEqual({
      on: false,
      state: { status: 'disabled', reason: 'This copy is not signed, so it cannot update itself' },
    })
    expect(updateSetup({ ...base, macSigned: true, policy: { channel: 'beta' } })).toEqual({
      on: true,
      channel: 'beta',
    })
  })

  it('refuses a Windows build that names no publisher, and Linux (an AppImage): nothing checks a signature there', () => {
    expect(updateSetup({ ...base, publisherNamed: false })).toEqual({
      on: false,
      state: {
        status: 'disabled',
        reason:
          'This copy is not signed, so it cannot check that an update comes from the publisher of RosterDesk',
      },
    })
    expect(updateSetup({ ...base, platform: 'linux', publisherNamed: false })).toEqual({
      on: false,
      state: {
        status: 'disabled',
        reason:
          'An AppImage update cannot be checked for the publisher’s signature; install the next version as you installed this one',
      },
    })
    // macOS: Squirrel.Mac checks the signature; app-update.yml's publisherName is Windows' only.
    expect(updateSetup({ ...base, platform: 'darwin', publisherNamed: false, macSigned: true })).toEqual({
      on: true,
      channel: 'stable',
    })
  })

  it('never makes an updater when off, and says why in its state', async () => {
    const controller = new UpdateController({
      setup: updateSetup({ ...base, policy: { enabled: false } }),
      updater: () => {
        throw new Error('made an updater')
      },
      busy: async () => undefined,
      closeForRestart: async () => undefined,
      reopenAfterFailedRestart: async () => undefined,
      onQuit: () => () => undefined,
      emit: () => undefined,
      logger: silentLogger,
    })
    controller.start()
    expect(await controller.check()).toEqual({
      status: 'disabled',
      reason: 'Turned off by your organisation',
    })
    expect(await controller.restart()).toEqual({ status: 'not-ready' })
    controller.stop()
  })
})
