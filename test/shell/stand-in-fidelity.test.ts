import type { EventEmitter } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import Module from 'node:module'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { constants, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuiltBundles } from '../helpers/built-bundles'
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy'
import { createTestCa, TEST_CA_COMMON_NAME, type TestCa } from '../helpers/test-ca'
import { startMainProcess, type MainProcess, killAndWait } from './main-process'
import { standInBoot } from './stand-in-build'
import type { createElectronStandIn as CreateStandIn } from './stand-in/electron-stand-in'
import { createUtilityNet, type StandInIncomingMessage } from './stand-in/utility-net'

/**
 * Where the stand-in once differed from Electron's utility processes (issue 23, point 7), each held to the Electron
 * source cited in electron-stand-in.ts and utility-boot.ts: messages are structured clones (a Buffer arrives as a
 * plain Uint8Array, both ways), the child serves through `process.parentPort` and never sees 'disconnect', and
 * 'exit' reports 0 for a process ended by kill() and the signal's number for one that crashed. First the stand-in
 * alone with a small module, then the built bundles: the core process ends with main, and its crash is logged
 * with the signal's number. And its `net` hands header values and status text over decoded as UTF-8, as
 * Electron's does (the source cited in utility-net.ts).
 */

interface UtilityChild extends EventEmitter {
  postMessage(message: unknown): void
  kill(): boolean
  readonly pid: number | undefined
}

const tempDirs: string[] = []
let utilityProcess: {
  fork(modulePath: string, args?: string[], options?: Record<string, unknown>): UtilityChild
}
let moduleFile: string
let standIn: ReturnType<typeof CreateStandIn>

beforeAll(async () => {
  await ensureBuiltBundles()
  // The stand-in as the shell tests run it: transpiled to plain CommonJS next to its utility-boot.js.
  const boot = standInBoot()
  const { createElectronStandIn } = Module.createRequire(boot)('./electron-stand-in.js') as {
    createElectronStandIn: typeof CreateStandIn
  }
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-stand-in-'))
  tempDirs.push(dir)
  standIn = createElectronStandIn({ userData: dir, isPackaged: true, appPath: dir, version: '0.0.0' })
  utilityProcess = standIn.module['utilityProcess'] as typeof utilityProcess
  moduleFile = join(dir, 'utility-module.js')
  writeFileSync(
    moduleFile,
    `const port = process.parentPort
let disconnects = 0
process.on('disconnect', () => { disconnects += 1 })
port.on('message', ({ data }) => {
  if (data.type === 'describe') {
    port.postMessage({
      type: 'described',
      payload: Object.prototype.toString.call(data.payload),
      isBuffer: Buffer.isBuffer(data.payload),
      hasSend: typeof process.send,
      disconnects,
      back: Buffer.from('back'),
    })
  } else if (data.type === 'crash') {
    process.abort()
  } else if (data.type === 'exit') {
    process.exit(data.code)
  }
})
port.postMessage({ type: 'up' })
`,
  )
}, 180_000)

const running: MainProcess[] = []
afterAll(async () => {
  await killAndWait(running)
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

/** Forks the module and waits for its first message. */
async function forkModule(): Promise<{ child: UtilityChild; messages: unknown[]; exit: Promise<number> }> {
  const child = utilityProcess.fork(moduleFile)
  const messages: unknown[] = []
  child.on('message', (message: unknown) => messages.push(message))
  const exit = new Promise<number>((resolve) => child.once('exit', resolve))
  await expect.poll(() => messages.length).toBe(1)
  return { child, messages, exit }
}

describe('the stand-in’s clipboard, as Electron 45’s (stand-in/clipboard.ts)', () => {
  it('takes only ClipboardItems with a type, commits every entry of one write at once, replacing what was held', async () => {
    type Item = { readonly types: string[] }
    const ClipboardItem = standIn.module['ClipboardItem'] as new (items: unknown) => Item
    const clipboard = standIn.module['clipboard'] as {
      write(items: unknown): Promise<void>
      writeText(text: string): Promise<void>
      readText(): Promise<string>
    }
    expect(() => new ClipboardItem({})).toThrow(TypeError)
    expect(() => new ClipboardItem([])).toThrow(/object mapping MIME types/)
    await expect(clipboard.write({ 'text/plain': 'x' })).rejects.toThrow(/array of ClipboardItem/)
    await expect(clipboard.write([{ 'text/plain': 'x' }])).rejects.toThrow(/array of ClipboardItem/)
    await clipboard.writeText('before')
    const item = new ClipboardItem({
      'text/plain': 'a\tb',
      'text/html': Promise.resolve(new Blob(['<table>'])),
    })
    expect(item.types).toEqual(['text/plain', 'text/html'])
    await clipboard.write([item])
    expect(await clipboard.readText()).toBe('a\tb')
    expect(standIn.record.clipboardWrites.at(-1)).toEqual({ 'text/plain': 'a\tb', 'text/html': '<table>' })
  })
})

describe('the stand-in’s utility process, as Electron’s', () => {
  it('delivers a Buffer as a plain Uint8Array both ways, through parentPort, with no process.send', async () => {
    const { child, messages, exit } = await forkModule()
    child.postMessage({ type: 'describe', payload: Buffer.from('rows') })
    await expect.poll(() => messages.length).toBe(2)
    const described = messages[1] as Record<string, unknown>
    expect(described).toMatchObject({
      type: 'described',
      payload: '[object Uint8Array]',
      isBuffer: false,
      hasSend: 'undefined',
      disconnects: 0,
    })
    expect(described['back']).toBeInstanceOf(Uint8Array)
    expect(Buffer.isBuffer(described['back'])).toBe(false)
    child.postMessage({ type: 'exit', code: 3 })
    expect(await exit).toBe(3)
  })

  it('reports exit code 0 for a process ended by kill(), and a crash’s signal number', async () => {
    const killed = await forkModule()
    expect(killed.child.kill()).toBe(true)
    expect(await killed.exit).toBe(0)

    const crashed = await forkModule()
    crashed.child.postMessage({ type: 'crash' })
    expect(await crashed.exit).toBe(constants.signals.SIGABRT)
  })
})

describe('the built bundles on the stand-in’s utility process', () => {
  it('log the core process’s crash with its signal’s number, and the core process ends with main', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'rosterdesk-shell-fidelity-'))
    tempDirs.push(userData)
    const main = startMainProcess({ userData })
    running.push(main)
    await main.windowReady()
    // The core is up (a crash while RosterDesk starts is a start-up failure, main-bundle.test.ts).
    expect(((await main.invoke('app:get-info')) as { ok: boolean }).ok).toBe(true)
    const [first] = (await main.snapshot()).utilityProcesses
    process.kill(first!.pid!, 'SIGKILL')
    const log = join(userData, 'logs', 'main.log')
    await expect
      .poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : ''), { timeout: 30_000 })
      .toContain(`The core process exited with code ${constants.signals.SIGKILL}`)

    // A fresh core process serves; when main is gone it ends too (no 'disconnect' listener of the app's needed).
    await expect
      .poll(async () => (await main.snapshot()).utilityProcesses.length, { timeout: 30_000 })
      .toBe(2)
    const second = (await main.snapshot()).utilityProcesses[1]!
    main.kill()
    await main.exited
    await expect
      .poll(() => {
        try {
          process.kill(second.pid!, 0)
          return 'running'
        } catch {
          return 'ended'
        }
      })
      .toBe('ended')
    expect(dirname(first!.modulePath)).toBe(dirname(second.modulePath))
  })
})

describe('the stand-in’s net, as Electron’s', () => {
  /** A server writing its answer's bytes as given: UTF-8 in a header, and one byte that is not UTF-8. */
  async function rawServer(head: Buffer): Promise<{ url: string; server: Server }> {
    const server = createServer((socket) => socket.once('data', () => socket.end(head)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }
  }
  const bytes = (...parts: Array<string | number[]>): Buffer =>
    Buffer.concat(
      parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))),
    )
  const net = createUtilityNet({
    proxyConfig: () => ({}),
    record: () => undefined,
    login: async () => undefined,
    isOnline: () => true,
  })

  it('decodes header values and status text as UTF-8, bytes that are not UTF-8 as U+FFFD', async () => {
    const { url, server } = await rawServer(
      bytes('HTTP/1.1 200 Grüße €\r\nx-office: 日本\r\nx-name: caf', [0xe9], '\r\ncontent-length: 0\r\n\r\n'),
    )
    try {
      const request = net.request({ url })
      const response = await new Promise<StandInIncomingMessage>((resolve, reject) => {
        request.on('response', resolve)
        request.on('error', reject)
        request.end()
      })
      response.resume()
      expect(response.statusMessage).toBe('Grüße €')
      expect(response.headers['x-office']).toBe('日本')
      expect(response.headers['x-name']).toBe('caf\uFFFD')
    } finally {
      server.close()
    }
  })

  it('decodes a redirect’s header values as UTF-8 too', async () => {
    const { url, server } = await rawServer(
      bytes('HTTP/1.1 302 Found\r\nlocation: /next\r\nx-office: Zürich\r\ncontent-length: 0\r\n\r\n'),
    )
    try {
      const request = net.request({ url, redirect: 'manual' })
      const headers = await new Promise<Record<string, string[]>>((resolve) => {
        request.on(
          'redirect',
          (_status: number, _method: string, _url: string, listed: Record<string, string[]>) => {
            resolve(listed)
            request.abort()
          },
        )
        request.end()
      })
      expect(headers['x-office']).toEqual(['Zürich'])
    } finally {
      server.close()
    }
  })
})

/**
 * The stand-in's autoUpdater as Squirrel.Mac behind Electron's (issue 31, point 11), held to
 * shell/browser/auto_updater_mac.mm (CheckForUpdates, QuitAndInstall) and
 * shell/browser/api/electron_api_auto_updater.cc (QuitAndInstall: 'before-quit-for-update', every window closed,
 * then Squirrel's relaunch): what electron-updater's MacUpdater feeds it and waits for.
 */
describe('the stand-in’s autoUpdater on macOS, as Electron’s Squirrel.Mac', () => {
  function freshStandIn() {
    const { createElectronStandIn } = Module.createRequire(standInBoot())('./electron-stand-in.js') as {
      createElectronStandIn: typeof CreateStandIn
    }
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-squirrel-'))
    tempDirs.push(dir)
    const standIn = createElectronStandIn({ userData: dir, isPackaged: true, appPath: dir, version: '1.3.0' })
    const updater = standIn.module['autoUpdater'] as EventEmitter & {
      setFeedURL(options: { url: string; headers?: Record<string, string> }): void
      checkForUpdates(): void
      quitAndInstall(): void
    }
    return { standIn, updater, events: () => standIn.record.appEvents }
  }

  /** MacUpdater's local server: the JSON naming the zip for the right Basic authorization, then the zip. */
  async function squirrelFeed(answer: 'update' | 'none') {
    const asked: Array<string | undefined> = []
    const server = (await import('node:http')).createServer((request, response) => {
      asked.push(request.headers.authorization)
      if (request.url === '/') {
        if (answer === 'none') return void response.writeHead(204).end()
        const { port } = server.address() as AddressInfo
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ url: `http://127.0.0.1:${port}/update.zip` }))
      } else response.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.alloc(1024))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return { url, asked, close: () => server.close() }
  }

  it('cannot quit and install before Squirrel downloaded an update: an error, no quit', () => {
    const { updater, events } = freshStandIn()
    const errors: string[] = []
    updater.on('error', (error: Error) => errors.push(error.message))
    updater.quitAndInstall()
    expect(events()).toEqual(['autoUpdater before-quit-for-update', 'autoUpdater error'])
    expect(errors).toEqual(["No update available, can't quit and install"])
  })

  it('checks the feed with its headers, downloads, and says update-downloaded only then', async () => {
    const { updater, events } = freshStandIn()
    const feed = await squirrelFeed('update')
    try {
      updater.setFeedURL({ url: feed.url, headers: { Authorization: 'Basic YXV0b3VwZGF0ZXI6cw==' } })
      const downloaded = new Promise<unknown[]>((resolve) =>
        updater.once('update-downloaded', (...a) => resolve(a)),
      )
      updater.checkForUpdates()
      const [event, notes, name, date, url] = await downloaded
      expect(event).toHaveProperty('preventDefault')
      expect([notes, name, date instanceof Date, url]).toEqual(['', '', true, `${feed.url}/update.zip`])
      expect(feed.asked[0]).toBe('Basic YXV0b3VwZGF0ZXI6cw==')
      expect(events().filter((name) => name.startsWith('autoUpdater '))).toEqual([
        'autoUpdater checking-for-update',
        'autoUpdater update-available',
        'autoUpdater update-downloaded',
      ])
    } finally {
      feed.close()
    }
  })

  it('answers update-not-available for a 204, and an error for a feed it cannot read', async () => {
    const { updater, events } = freshStandIn()
    const feed = await squirrelFeed('none')
    try {
      updater.setFeedURL({ url: feed.url })
      updater.checkForUpdates()
      await expect.poll(events).toContain('autoUpdater update-not-available')
      updater.setFeedURL({ url: 'http://127.0.0.1:1/' })
      const failed = new Promise<Error>((resolve) => updater.once('error', resolve))
      updater.checkForUpdates()
      expect(await failed).toBeInstanceOf(Error)
    } finally {
      feed.close()
    }
  })

  it('closes every window before the relaunch, which quits the app or fails with an error', async () => {
    const { standIn, updater, events } = freshStandIn()
    const feed = await squirrelFeed('update')
    try {
      updater.setFeedURL({ url: feed.url })
      const downloaded = new Promise((resolve) => updater.once('update-downloaded', resolve))
      updater.checkForUpdates()
      await downloaded
      const Window = standIn.module['BrowserWindow'] as new (options: object) => object
      new Window({})
      standIn.squirrel.relaunch = { error: 'The update’s code signature did not pass validation' }
      const failed = new Promise<Error>((resolve) => updater.once('error', resolve))
      updater.quitAndInstall()
      expect((await failed).message).toBe('The update’s code signature did not pass validation')
      expect(events().slice(-4)).toEqual([
        'autoUpdater before-quit-for-update',
        'window 1 closed',
        'window-all-closed',
        'autoUpdater error',
      ])
      standIn.squirrel.relaunch = 'quit'
      updater.quitAndInstall()
      await expect.poll(() => standIn.record.exitCode).toBe(0)
      expect(events().slice(-4)).toEqual([
        'autoUpdater before-quit-for-update',
        'before-quit',
        'will-quit',
        'quit',
      ])
    } finally {
      feed.close()
    }
  })
})

describe('the stand-in’s TLS asks the session’s verify proc, as Electron’s', () => {
  /**
   * Electron asks a session's verify proc after Chromium's own verification, with Chromium's verdict
   * (electron shell/browser/net/cert_verifier_client.cc, `CertVerifierClient::Verify`; the request's fields:
   * shell/common/gin_converters/net_converter.cc, `Converter<electron::VerifyRequestParams>::ToV8`), and its
   * answer decides: 0 accepts, -3 keeps Chromium's verdict, another code fails the request with that error
   * (patches/chromium/network_service_allow_remote_certificate_verification_logic.patch, `OnRemoteResponse`;
   * spec/api-session-spec.ts: -2 fails with ERR_FAILED).
   */
  let ca: TestCa
  let service: Server
  let url: string
  const asked: unknown[] = []
  let answer = -3
  const net = createUtilityNet({
    proxyConfig: () => ({}),
    record: () => undefined,
    login: async () => undefined,
    isOnline: () => true,
    verifyCertificate: async (request) => {
      asked.push(request)
      return answer
    },
  })
  beforeAll(async () => {
    ca = createTestCa()
    service = createHttpsServer({ cert: ca.server.cert, key: ca.server.key }, (_request, response) =>
      response.end('payroll'),
    ) as unknown as Server
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
    url = `https://127.0.0.1:${(service.address() as AddressInfo).port}/`
  })
  afterAll(() => {
    service.close()
    ca.cleanup()
  })
  const get = (): Promise<string> => statusAndBody(net, url)

  it('asks with Chromium’s verdict and the chain presented, and follows the answer', async () => {
    answer = 0
    expect(await get()).toBe('200 payroll')
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({
      hostname: '127.0.0.1',
      certificate: {
        data: ca.server.cert.replace(/\r\n/g, '\n'),
        subjectName: '127.0.0.1',
        issuerName: TEST_CA_COMMON_NAME,
        fingerprint: expect.stringMatching(/^sha256\//),
      },
      isIssuedByKnownRoot: false,
      verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID',
      errorCode: -202,
    })
    answer = -3
    await expect(get()).rejects.toThrow('net::ERR_CERT_AUTHORITY_INVALID')
    answer = -2
    await expect(get()).rejects.toThrow('net::ERR_FAILED')
    expect(asked).toHaveLength(3)
  })
})

describe('the stand-in’s HTTP authentication, as Electron’s', () => {
  /** A server that asks for Basic credentials (401) and counts what it was sent. */
  async function challengingServer(): Promise<{ url: string; server: Server; authorized: () => number }> {
    let authorized = 0
    const server = createHttpServer((request, response) => {
      if (request.headers.authorization === undefined) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="Foo"' }).end('unauthenticated')
        return
      }
      authorized += 1
      response.writeHead(200).end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      server,
      authorized: () => authorized,
    }
  }

  async function statusOf(request: ReturnType<ReturnType<typeof createUtilityNet>['request']>) {
    const response = await new Promise<StandInIncomingMessage>((resolve, reject) => {
      request.on('response', resolve)
      request.on('error', reject)
      request.end()
    })
    response.resume()
    return { status: response.statusCode, challenge: response.headers['www-authenticate'] }
  }

  it('emits no login for a server’s 401 when the request omits credentials, and sends none it has', async () => {
    // spec/api-net-spec.ts (electron/electron), "authentication when {"credentials":"omit"}": "should not emit the
    // login event when 401"; the 401 arrives with its WWW-Authenticate.
    const { url, server, authorized } = await challengingServer()
    const asked: string[] = []
    const net = createUtilityNet({
      proxyConfig: () => ({}),
      record: () => undefined,
      login: async (details) => {
        asked.push(details.url)
        return ['user', 'pass']
      },
      isOnline: () => true,
    })
    try {
      expect(await statusOf(net.request({ url, credentials: 'omit' }))).toEqual({
        status: 401,
        challenge: 'Basic realm="Foo"',
      })
      expect(asked).toEqual([])
      // The same request including credentials is asked, and its answer cached; an omitting one still sends none.
      expect((await statusOf(net.request({ url }))).status).toBe(200)
      expect(asked).toEqual([url])
      expect((await statusOf(net.request({ url, credentials: 'omit' }))).status).toBe(401)
      expect(authorized()).toBe(1)
    } finally {
      server.close()
    }
  })

  it('caches proxy credentials per session: every process of the session uses them, another session asks', async () => {
    const expected = `Basic ${Buffer.from('clerk:pw').toString('base64')}`
    const proxy = createHttpServer((request, response) => {
      if (request.headers['proxy-authorization'] !== expected) {
        response.writeHead(407, { 'proxy-authenticate': 'Basic realm="Proxy"' }).end()
        return
      }
      response.writeHead(200).end('through')
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const proxyRules = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    const fetchModule = join(dirname(moduleFile), 'fetch-module.js')
    writeFileSync(
      fetchModule,
      `const { net } = require('electron')
process.parentPort.on('message', ({ data }) => {
  const request = net.request({ url: data.url })
  request.on('response', (response) => { response.resume(); process.parentPort.postMessage(response.statusCode) })
  request.on('error', (error) => process.parentPort.postMessage(error.message))
  request.end()
})
`,
    )
    const sessions = standIn.module['session'] as {
      fromPartition(partition: string): { setProxy(config: unknown): Promise<void> }
    }
    const fetchIn = async (partition: string, asked: string[]) => {
      const ses = sessions.fromPartition(partition)
      await ses.setProxy({ mode: 'fixed_servers', proxyRules, proxyBypassRules: '<-loopback>' })
      const child = utilityProcess.fork(fetchModule, [], {
        session: ses,
        respondToAuthRequestsFromMainProcess: true,
      })
      child.on(
        'login',
        (
          event: { preventDefault(): void },
          _details: unknown,
          authInfo: { host: string },
          callback: (u?: string, p?: string) => void,
        ) => {
          asked.push(authInfo.host)
          event.preventDefault()
          callback('clerk', 'pw')
        },
      )
      const answer = new Promise<unknown>((resolve) => child.once('message', resolve))
      child.postMessage({ url: 'http://service.invalid/' })
      const status = await answer
      child.kill()
      return status
    }
    try {
      const first: string[] = []
      expect(await fetchIn('auth-cache-a', first)).toBe(200)
      expect(first).toEqual(['127.0.0.1'])
      // A second process of the same session (a restarted core) is not asked again: Chromium's cache is the session's.
      const second: string[] = []
      expect(await fetchIn('auth-cache-a', second)).toBe(200)
      expect(second).toEqual([])
      const other: string[] = []
      expect(await fetchIn('auth-cache-b', other)).toBe(200)
      expect(other).toEqual(['127.0.0.1'])
    } finally {
      proxy.closeAllConnections()
      proxy.close()
    }
  })
})

describe('the stand-in’s client-certificate selection, as Electron’s', () => {
  const certificate = (name: string) => ({
    data: `-----BEGIN CERTIFICATE-----\n${name}\n`,
    subjectName: name,
  })
  const app = () => standIn.module['app'] as EventEmitter

  it('goes on with the first certificate when select-client-certificate is not prevented', async () => {
    const seen: unknown[][] = []
    const listener = (...args: unknown[]) => seen.push(args)
    app().on('select-client-certificate', listener)
    try {
      expect(
        await standIn.selectClientCertificate('payroll.example.com:443', [
          certificate('A'),
          certificate('B'),
        ]),
      ).toBe('A')
      const [args] = seen
      // (event, webContents: null for net and utility processes, url: host:port, certificateList, callback)
      expect(args?.slice(1, 4)).toEqual([
        null,
        'payroll.example.com:443',
        [certificate('A'), certificate('B')],
      ])
      expect(typeof args?.[4]).toBe('function')
    } finally {
      app().off('select-client-certificate', listener)
    }
  })

  it('sends the certificate the callback names, or none, when prevented; asks nothing for an empty list', async () => {
    const choose =
      (pick: number | null) =>
      (
        event: { preventDefault(): void },
        _wc: unknown,
        _url: string,
        list: unknown[],
        callback: (c?: unknown) => void,
      ) => {
        event.preventDefault()
        callback(pick === null ? undefined : list[pick])
      }
    const second = choose(1)
    app().on('select-client-certificate', second)
    expect(await standIn.selectClientCertificate('h:443', [certificate('A'), certificate('B')])).toBe('B')
    app().off('select-client-certificate', second)
    const none = choose(null)
    app().on('select-client-certificate', none)
    expect(await standIn.selectClientCertificate('h:443', [certificate('A')])).toBeNull()
    app().off('select-client-certificate', none)
    let emitted = 0
    const count = () => (emitted += 1)
    app().on('select-client-certificate', count)
    expect(await standIn.selectClientCertificate('h:443', [])).toBeNull()
    app().off('select-client-certificate', count)
    expect(emitted).toBe(0)
  })
})

describe('dialog.showMessageBox as Electron’s lib/browser/api/dialog.ts has it', () => {
  /** A stand-in of its own, its dialog module as the shell sees it. */
  function standInDialog() {
    const boot = standInBoot()
    const { createElectronStandIn } = Module.createRequire(boot)('./electron-stand-in.js') as {
      createElectronStandIn: typeof CreateStandIn
    }
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-stand-in-dialog-'))
    tempDirs.push(dir)
    const standIn = createElectronStandIn({ userData: dir, isPackaged: true, appPath: dir, version: '0.0.0' })
    const dialog = standIn.module['dialog'] as {
      showMessageBox(...args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }>
    }
    return { standIn, dialog }
  }

  it('resolves { response, checkboxChecked }: the button pressed, or cancelId when dismissed', async () => {
    const { standIn, dialog } = standInDialog()
    standIn.answerMessageBoxes([0, 'dismiss'])
    const options = { type: 'warning', message: 'Sure?', buttons: ['Change', 'Cancel'], defaultId: 1 }
    expect(await dialog.showMessageBox(options)).toEqual({ response: 0, checkboxChecked: false })
    expect(await dialog.showMessageBox(options)).toEqual({ response: 1, checkboxChecked: false })
    // Unanswered: the default button, as Enter would press it.
    expect(await dialog.showMessageBox(options)).toEqual({ response: 1, checkboxChecked: false })
    expect(standIn.record.messageBoxes.map((box) => [box.response, box.cancelId, box.onWindow])).toEqual([
      [0, 1, false],
      [1, 1, false],
      [1, 1, false],
    ])
  })

  it('settles cancelId as Electron does when it is not given', async () => {
    const { standIn, dialog } = standInDialog()
    standIn.answerMessageBoxes(['dismiss', 'dismiss', 'dismiss'])
    // A button named Cancel or No (any case).
    expect((await dialog.showMessageBox({ message: 'a', buttons: ['Yes', 'NO'] })).response).toBe(1)
    // defaultId 0 with two buttons or more: 1.
    expect(
      (await dialog.showMessageBox({ message: 'b', buttons: ['OK', 'Later'], defaultId: 0 })).response,
    ).toBe(1)
    // Otherwise 0.
    expect((await dialog.showMessageBox({ message: 'c', buttons: ['OK', 'Later'] })).response).toBe(0)
    expect(standIn.record.messageBoxes.map((box) => box.defaultId)).toEqual([-1, 0, -1])
  })

  it('throws a TypeError for a type it does not know, or buttons that are no array', () => {
    const { dialog } = standInDialog()
    expect(() => dialog.showMessageBox({ type: 'danger', message: 'x' })).toThrow(
      new TypeError('Invalid message box type'),
    )
    expect(() => dialog.showMessageBox({ message: 'x', buttons: 'OK' })).toThrow(
      new TypeError('Buttons must be an array'),
    )
  })
})

describe('the stand-in’s https through a proxy, as Chromium’s CONNECT tunnel', () => {
  /**
   * Chromium asks the proxy for a tunnel to host:port, answers a 407 with the session's login (then tunnels again
   * with the credentials), handshakes with the service inside the tunnel (its verify proc asked as for a direct
   * request), and fails with ERR_TUNNEL_CONNECTION_FAILED for any other answer and for a cancelled 407, never
   * showing the proxy's answer as the service's (net/http/http_proxy_client_socket.cc, DoReadHeadersComplete;
   * net/http/http_network_transaction.cc, Read).
   */
  let ca: TestCa
  let service: Server
  let serviceUrl: string
  let proxy: ForwardProxy
  beforeAll(async () => {
    ca = createTestCa()
    service = createHttpsServer({ cert: ca.server.cert, key: ca.server.key }, (_request, response) =>
      response.end('payroll'),
    ) as unknown as Server
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
    serviceUrl = `https://127.0.0.1:${(service.address() as AddressInfo).port}/`
    proxy = await startForwardProxy({ credentials: { user: 'clerk', password: 'pa55-word' } })
  })
  afterAll(async () => {
    await proxy.close()
    service.close()
    ca.cleanup()
  })

  function throughProxy(answer: readonly [string, string] | undefined) {
    const asked: string[] = []
    const logins: boolean[] = []
    const net = createUtilityNet({
      proxyConfig: () => ({ mode: 'fixed_servers', proxyRules: proxy.url, proxyBypassRules: '<-loopback>' }),
      record: () => undefined,
      login: async (_details, authInfo) => {
        logins.push(authInfo.isProxy)
        return answer
      },
      isOnline: () => true,
      verifyCertificate: async (request) => {
        asked.push(request.hostname)
        return 0
      },
    })
    const get = (url: string): Promise<string> => statusAndBody(net, url)
    return { get, asked, logins }
  }

  it('tunnels with the proxy’s credentials asked for once, and verifies the service inside the tunnel', async () => {
    const before = proxy.requests.length
    const { get, asked, logins } = throughProxy(['clerk', 'pa55-word'])
    expect(await get(serviceUrl)).toBe('200 payroll')
    expect(await get(serviceUrl)).toBe('200 payroll')
    const target = new URL(serviceUrl).host
    expect(proxy.requests.slice(before).map((r) => [r.kind, r.target, r.credentials])).toEqual([
      ['connect', target, 'none'],
      ['connect', target, 'right'],
      // Sent up front the second time, from the auth cache.
      ['connect', target, 'right'],
    ])
    expect(logins).toEqual([true])
    expect(asked).toEqual(['127.0.0.1', '127.0.0.1'])
  })

  it('fails with ERR_TUNNEL_CONNECTION_FAILED when the sign-in is cancelled or the proxy refuses the tunnel', async () => {
    await expect(throughProxy(undefined).get(serviceUrl)).rejects.toThrow('net::ERR_TUNNEL_CONNECTION_FAILED')
    // A target the proxy cannot reach: its 502 is not shown as the service's answer.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await expect(throughProxy(['clerk', 'pa55-word']).get(`https://127.0.0.1:${port}/`)).rejects.toThrow(
      'net::ERR_TUNNEL_CONNECTION_FAILED',
    )
  })
})

/** A GET through a stand-in net: "<status> <body>", or the request's error. */
function statusAndBody(net: ReturnType<typeof createUtilityNet>, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = net.request({ url })
    request.on('response', (response: StandInIncomingMessage) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve(`${response.statusCode} ${body}`))
    })
    request.on('error', (error: Error) => reject(error))
    request.end()
  })
}
