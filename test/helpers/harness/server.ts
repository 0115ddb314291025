import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { contentSecurityPolicy } from '../../../src/main/shell/window-and-startup/window-security'
import { dispatchInvoke, type InvokeHandlers } from '../../../src/main/core/ipc/dispatch'
import { bridgeInitScript } from './bridge'
import { ensureRendererBuilt } from './build-renderer'
import type { EventHub } from './event-hub'

export interface HarnessOptions {
  /** The IPC handlers the page talks to: the real core's in end-to-end tests, or fakes. */
  readonly handlers: InvokeHandlers
  /** Where the handlers' events are emitted; the harness streams them to the page. */
  readonly events: EventHub
  /** The built renderer to serve; by default the test build (.tmp/test-build/renderer), rebuilt first when missing or stale. */
  readonly rendererDir?: string
  /** The server closes itself after this long even if a test forgets to (default 10 minutes). */
  readonly lifetimeMs?: number
}

export interface Harness {
  /** The app's page, e.g. http://127.0.0.1:41234/index.html. */
  readonly url: string
  readonly origin: string
  /** For page.addInitScript / context.addInitScript: defines `window.rosterdesk` over the harness. */
  readonly initScript: string
  close(): Promise<void>
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}
const MAX_BODY_BYTES = 1_000_000

/**
 * Serves the built renderer on 127.0.0.1 with the production CSP, and the preload API over HTTP on the same origin:
 * `POST /__ipc/invoke` runs `dispatchInvoke(handlers, channel, args)` (the function Electron's ipcMain side calls)
 * and `GET /__ipc/events` streams the EventSink's emissions as Server-Sent Events.
 */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const rendererDir = options.rendererDir ?? (await ensureRendererBuilt())
  const streams = new Set<ServerResponse>()
  let origin = ''

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500)
      response.end()
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin)
    if (url.pathname === '/__ipc/invoke') return invoke(request, response)
    if (url.pathname === '/__ipc/events') return events(request, response)
    if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405).end()
    return serveFile(url.pathname, response)
  }

  async function invoke(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Same-origin only, like the production check that IPC comes from the app's own page.
    if (
      request.method !== 'POST' ||
      (request.headers.origin !== undefined && request.headers.origin !== origin)
    ) {
      return void response.writeHead(403).end()
    }
    const body = await readBody(request)
    let message: unknown
    try {
      message = JSON.parse(body)
    } catch {
      return void response.writeHead(400).end()
    }
    const { channel, args } = (typeof message === 'object' && message !== null ? message : {}) as {
      channel?: unknown
      args?: unknown
    }
    const result = await dispatchInvoke(options.handlers, channel, Array.isArray(args) ? args : [args])
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    })
    response.end(JSON.stringify(result))
  }

  function events(request: IncomingMessage, response: ServerResponse): void {
    if (request.method !== 'GET') return void response.writeHead(405).end()
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    })
    response.write(': connected\n\n')
    streams.add(response)
    const unsubscribe = options.events.subscribe((channel, payload) => {
      response.write(`data: ${JSON.stringify({ channel, payload })}\n\n`)
    })
    request.on('close', () => {
      unsubscribe()
      streams.delete(response)
    })
  }

  async function serveFile(pathname: string, response: ServerResponse): Promise<void> {
    const relative = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname)).replace(
      /^[/\\]+/,
      '',
    )
    const file = join(rendererDir, relative)
    if (!file.startsWith(rendererDir + sep)) return void response.writeHead(404).end()
    const info = await stat(file).catch(() => undefined)
    if (!info?.isFile()) return void response.writeHead(404).end()
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'cache-control': 'no-store',
      'content-security-policy': contentSecurityPolicy('production'),
      'x-content-type-options': 'nosniff',
    })
    createReadStream(file).pipe(response)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  origin = `http://127.0.0.1:${port}`

  let closed: Promise<void> | undefined
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      clearTimeout(timer)
      for (const stream of streams) stream.end()
      server.close(() => resolve())
      server.closeAllConnections()
    })
    return closed
  }
  const timer = setTimeout(() => void close(), options.lifetimeMs ?? 10 * 60_000)
  timer.unref()

  return { url: `${origin}/index.html`, origin, initScript: bridgeInitScript(), close }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new Error('IPC request too large'))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}
