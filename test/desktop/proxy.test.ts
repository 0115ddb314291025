import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchPackaged, signInToDemo, type LaunchedApp } from './desktop-app'

/**
 * The packaged app behind a proxy, on a real desktop: a small forward proxy on 127.0.0.1 records what it is
 * asked, and the app starts with Chromium's proxy switches. The Demo sandbox runs on loopback, which Chromium
 * never sends through a proxy unless the bypass list says `<-loopback>`; with it, the core process's requests
 * (Electron's `net` in the core's own session, which main sets from the command line first:
 * core/settings/network-settings.ts) must reach the sandbox through the proxy. Run by `npm run test:desktop` on the
 * hosted runners only (it needs a packaged app and a display; the development machine has neither).
 */

let workDir: string
let proxy: Server
let launched: LaunchedApp
const seen: string[] = []

/** A forward proxy for plain HTTP (absolute-URI requests) and CONNECT tunnels, listening on 127.0.0.1 only. */
function forwardProxy(): Server {
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`)
    const target = new URL(request.url ?? '')
    const upstream = httpRequest(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => response.writeHead(502).end())
    request.pipe(upstream)
  })
  server.on('connect', (request, socket, head) => {
    seen.push(`CONNECT ${request.url}`)
    const [host = '', port = '443'] = (request.url ?? '').split(':')
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(socket)
      socket.pipe(upstream)
    })
    upstream.on('error', () => socket.destroy())
    socket.on('error', () => upstream.destroy())
  })
  return server
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'rosterdesk-desktop-proxy-'))
  proxy = forwardProxy()
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  launched = await launchPackaged(workDir, [
    `--proxy-server=http://127.0.0.1:${port}`,
    '--proxy-bypass-list=<-loopback>',
  ])
})

afterAll(async () => {
  await launched?.app.close()
  proxy?.closeAllConnections()
  await new Promise((resolve) => proxy?.close(resolve))
  if (workDir) await rm(workDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 })
})

describe('the packaged RosterDesk behind a proxy given on its command line', () => {
  it('signs in and syncs the Demo through the proxy', async () => {
    const { page, pageErrors } = launched
    await page.getByRole('banner').getByText('Not signed in').waitFor()
    const { authorize } = await signInToDemo(launched)
    // The code exchange went through the proxy (the browser's consent page did not: the test plays the browser).
    expect(seen).toContain(`POST ${authorize.origin}/openapi/oauthv1/token`)

    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByText(/^([1-9][\d,]*) of \1 employees( from .+)?$/).waitFor({ timeout: 120_000 })
    const lists = seen.filter((line) => line.startsWith(`GET ${authorize.origin}/employees/list`))
    expect(lists.length).toBeGreaterThan(0)
    expect(pageErrors).toEqual([])
  })
})
