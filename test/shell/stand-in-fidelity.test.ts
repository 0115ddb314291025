import type { EventEmitter } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import Module from 'node:module'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { constants, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuiltBundles } from '../helpers/built-bundles'
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
let utilityProcess: { fork(modulePath: string): UtilityChild }
let moduleFile: string

beforeAll(async () => {
  await ensureBuiltBundles()
  // The stand-in as the shell tests run it: transpiled to plain CommonJS next to its utility-boot.js.
  const boot = standInBoot()
  const { createElectronStandIn } = Module.createRequire(boot)('./electron-stand-in.js') as {
    createElectronStandIn: typeof CreateStandIn
  }
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-stand-in-'))
  tempDirs.push(dir)
  const standIn = createElectronStandIn({ userData: dir, isPackaged: true, appPath: dir, version: '0.0.0' })
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
