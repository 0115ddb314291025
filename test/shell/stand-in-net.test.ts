import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy'
import { createElectronStandIn, type ElectronStandIn } from './stand-in/electron-stand-in'

/**
 * Main's `net.request` in the stand-in, held to what electron-updater relies on and Electron's source says
 * (electron 45.4.1: lib/browser/api/net.ts, lib/common/api/net-client-request.ts, docs/api/session.md): not before
 * ready; the URL from its parts; the session's proxy and HTTP auth cache; a challenge nobody answers cancelled,
 * its 407 read by the caller; `session.fromPartition` keeping the options a session was first made with.
 */

type LoginListener = (authInfo: unknown, callback: (user?: string, password?: string) => void) => void
interface Request {
  on(event: 'response', listener: (response: IncomingMessage) => void): Request
  on(event: 'login', listener: LoginListener): Request
  on(event: 'error', listener: (error: Error) => void): Request
  end(): void
}
interface Net {
  request(options: Record<string, unknown> | string): Request
}
interface Sessions {
  fromPartition(
    partition: string,
    options?: { cache?: boolean },
  ): {
    setProxy(config: Record<string, string>): Promise<void>
  }
}

const dirs: string[] = []
let standIn: ElectronStandIn
let net: Net
let sessions: Sessions
let server: Server
let origin: string
let proxy: ForwardProxy

/** Sends `options` and answers the status and body, or the error's message. */
function send(options: Record<string, unknown>, onLogin?: LoginListener): Promise<string> {
  return new Promise((resolve) => {
    const request = net.request(options)
    if (onLogin !== undefined) request.on('login', onLogin)
    request.on('response', (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve(`${response.statusCode} ${body}`))
    })
    request.on('error', (error) => resolve(error.message))
    request.end()
  })
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-stand-in-net-'))
  dirs.push(dir)
  standIn = createElectronStandIn({ userData: dir, isPackaged: true, appPath: dir, version: '1.0.0' })
  net = standIn.module['net'] as Net
  sessions = standIn.module['session'] as Sessions
  server = createServer((request, response) => response.end(`${request.method} ${request.url}`))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `127.0.0.1:${(server.address() as AddressInfo).port}`
  proxy = await startForwardProxy({ credentials: { user: 'clerk', password: 'pa55-word' } })
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await proxy.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('main’s net.request in the stand-in', () => {
  it('refuses before ready, then builds the URL from protocol, hostname, port and path', async () => {
    expect(() => net.request('http://127.0.0.1/')).toThrow('net module can only be used after app is ready')
    await (standIn.app as unknown as { whenReady(): Promise<void> }).whenReady()
    const [hostname, port] = origin.split(':')
    expect(
      await send({ protocol: 'http:', hostname, port: Number(port), path: '/latest.yml?noCache=1' }),
    ).toBe('200 GET /latest.yml?noCache=1')
    expect(() => net.request({ hostname, path: '/a b' })).toThrow(
      'Request path contains unescaped characters',
    )
  })

  it('goes through its session’s proxy, cancels a challenge nobody answers, and keeps credentials given', async () => {
    const session = sessions.fromPartition('updater-test', { cache: false })
    await session.setProxy({ mode: 'fixed_servers', proxyRules: proxy.url, proxyBypassRules: '<-loopback>' })
    const url = `http://${origin}/file`
    // No 'login' listener: Electron cancels, and the caller reads the proxy's 407.
    expect(await send({ url, session })).toMatch(/^407/)
    let asked = 0
    const answered = await send({ url, session }, (_authInfo, callback) => {
      asked += 1
      callback('clerk', 'pa55-word')
    })
    expect(answered).toBe('200 GET /file')
    // The session's auth cache sends them up front from now on: no second question.
    expect(await send({ url, session }, () => (asked += 1))).toBe('200 GET /file')
    expect(asked).toBe(1)
    expect(proxy.requests.map((request) => request.credentials)).toEqual(['none', 'none', 'right', 'right'])
    expect(standIn.record.netRequests.filter((request) => request.partition === 'updater-test')).toHaveLength(
      4,
    )
    // The same session for the same partition, with the options it was first made with.
    expect(sessions.fromPartition('updater-test')).toBe(session)
    expect(standIn.record.sessions.find((recorded) => recorded.partition === 'updater-test')?.cache).toBe(
      false,
    )
  })
})
