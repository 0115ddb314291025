import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  startLoopbackReceiver,
  type LoopbackReceiver,
} from '../../../../../src/main/core/auth/loopback-receiver'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { createLogger } from '../../../../../src/main/core/log/logger'

const logger = createLogger(() => undefined)
const open: Array<{ close(): Promise<void> | void }> = []
afterEach(async () => {
  for (const item of open.splice(0)) await item.close()
})

async function receiver(redirectUri: string, seen: string[] = []): Promise<LoopbackReceiver> {
  const started = await startLoopbackReceiver(
    redirectUri,
    async (url) => {
      seen.push(url)
      return { status: 200, title: 'Signed in', message: 'Return to RosterDesk.' }
    },
    logger,
  )
  open.push(started)
  return started
}

/** A GET to `address`:`port` as a browser that resolved the redirect's host there sends it. */
function get(address: string, port: number, host: string, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: address, port, path, headers: { host: `${host}:${port}` } }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
    req.end()
  })
}

function listening(host: string, port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((_, response) => response.end('someone else'))
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
    open.push({ close: () => new Promise<void>((done) => server.close(() => done())) })
  })
}

/** Whether this computer has an IPv6 loopback to listen on (some containers have none). */
const HAS_IPV6_LOOPBACK = await new Promise<boolean>((resolve) => {
  const probe = createServer()
  probe.once('error', () => resolve(false))
  probe.listen(0, '::1', () => probe.close(() => resolve(true)))
})

describe('the loopback receiver', () => {
  it.skipIf(HAS_IPV6_LOOPBACK)(
    'answers a localhost redirect on 127.0.0.1 alone where there is no ::1',
    async () => {
      const started = await receiver('http://localhost/callback')
      const port = Number(new URL(started.redirectUri).port)
      expect(await get('127.0.0.1', port, 'localhost', '/callback?code=a&state=s')).toBe(200)
    },
  )

  it.runIf(HAS_IPV6_LOOPBACK)(
    'answers a localhost redirect on 127.0.0.1 and ::1 alike, on one port',
    async () => {
      const seen: string[] = []
      const started = await receiver('http://localhost/callback', seen)
      const port = Number(new URL(started.redirectUri).port)
      expect(port).toBeGreaterThan(0)
      expect(await get('127.0.0.1', port, 'localhost', '/callback?code=a&state=s')).toBe(200)
      // A browser that resolves localhost to ::1 reaches RosterDesk, not whoever else could listen there.
      expect(await get('::1', port, 'localhost', '/callback?code=b&state=s')).toBe(200)
      expect(seen).toEqual([
        `http://localhost:${port}/callback?code=a&state=s`,
        `http://localhost:${port}/callback?code=b&state=s`,
      ])
      await started.close()
      expect(await get('::1', port, 'localhost', '/callback')).toBe('ECONNREFUSED')
      expect(await get('127.0.0.1', port, 'localhost', '/callback')).toBe('ECONNREFUSED')
    },
  )

  it.runIf(HAS_IPV6_LOOPBACK)('listens on 127.0.0.1 only for a 127.0.0.1 redirect', async () => {
    const started = await receiver('http://127.0.0.1/callback')
    const port = Number(new URL(started.redirectUri).port)
    expect(await get('127.0.0.1', port, '127.0.0.1', '/callback?code=a&state=s')).toBe(200)
    expect(await get('::1', port, 'localhost', '/callback')).toBe('ECONNREFUSED')
  })

  it.runIf(HAS_IPV6_LOOPBACK)(
    'refuses a localhost port another program holds on ::1, saying so, and frees 127.0.0.1 again',
    async () => {
      const other = await listening('::1')
      const port = (other.address() as AddressInfo).port
      const failure = await startLoopbackReceiver(
        `http://localhost:${port}/callback`,
        async () => ({
          status: 200,
          title: '',
          message: '',
        }),
        logger,
      ).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(RosterDeskError)
      expect((failure as RosterDeskError).message).toBe(
        `Another program is using port ${port} on this computer's IPv6 address [::1], where a browser may look for "localhost". Close it or choose another port in the redirect URI.`,
      )
      // The IPv4 half it had bound is closed: the port can be taken again.
      const again = await listening('127.0.0.1', port)
      expect((again.address() as AddressInfo).port).toBe(port)
    },
  )
})
