import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { RosterDeskError } from '../errors'
import type { Logger } from '../log/logger'
import { parseCallbackUrl } from './callback-url'

/** The page the browser shows after it delivered the callback. */
export interface LoopbackPage {
  readonly status: number
  readonly title: string
  readonly message: string
}

export interface LoopbackReceiver {
  /** The redirect URI to send, with the port actually bound (differs from the configured one when it named none). */
  readonly redirectUri: string
  close(): Promise<void>
}

/**
 * Listens on 127.0.0.1 (and ::1 for a `localhost` redirect) for the browser's answer to a sign-in whose redirect URI is a loopback address (RFC 8252
 * §7.3). Every request to the redirect path goes to `onCallback`, whose answer becomes the page the browser
 * shows; other paths get 404. Requests whose Host header is not the loopback address are refused, so a web page
 * cannot reach the listener through DNS rebinding. The owner closes it when the sign-in ends.
 */
export async function startLoopbackReceiver(
  redirectUri: string,
  onCallback: (url: string) => Promise<LoopbackPage>,
  logger: Logger,
): Promise<LoopbackReceiver> {
  const configured = parseCallbackUrl(redirectUri)
  if (configured.kind !== 'loopback') {
    throw new RosterDeskError('config', 'The redirect URI is not an http://127.0.0.1 address.')
  }
  let boundPort = configured.port
  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${boundPort}`, `localhost:${boundPort}`])

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const host = (request.headers.host ?? '').toLowerCase()
    if (!allowedHosts().has(host) || request.method !== 'GET') {
      send(response, {
        status: 400,
        title: 'Not available',
        message: 'This address only accepts RosterDesk sign-ins.',
      })
      return
    }
    const path = (request.url ?? '/').split('?')[0]
    if (path !== configured.path) {
      send(response, { status: 404, title: 'Not found', message: 'Nothing here.' })
      return
    }
    try {
      send(response, await onCallback(`http://${configured.host}:${boundPort}${request.url ?? '/'}`))
    } catch (error) {
      logger.error('Sign-in: the browser came back but the callback could not be handled', error)
      send(response, {
        status: 500,
        title: 'Sign-in problem',
        message: 'RosterDesk could not finish the sign-in. Return to RosterDesk.',
      })
    }
  }

  const servers = await listenOnLoopback(configured.port, configured.host === 'localhost', () =>
    createServer((request, response) => void handle(request, response)),
  )
  boundPort = (servers[0]?.address() as AddressInfo).port
  logger.info(
    `Sign-in: listening for the browser on ${servers.length > 1 ? '127.0.0.1 and [::1]' : '127.0.0.1'}:${boundPort}`,
  )

  const url = new URL(redirectUri)
  url.port = String(boundPort)
  let closed: Promise<void> | undefined
  return {
    redirectUri: url.toString(),
    close: () => (closed ??= Promise.all(servers.map(closeServer)).then(() => undefined)),
  }
}

/** How many times a port chosen by the system is tried again when ::1 has it taken. */
const PORT_ATTEMPTS = 5

/**
 * Listens on 127.0.0.1, and for a `localhost` redirect on ::1 as well, on one port: a browser may resolve
 * `localhost` to either, and a listener on one family only would leave the other to whoever binds it first
 * (RFC 8252 §8.3). A computer without an IPv6 loopback has nothing listening there, so 127.0.0.1 is enough. When
 * ::1 has the port taken, a port the system chose is tried again; a port the redirect URI names fails, saying so.
 */
async function listenOnLoopback(
  port: number,
  bothFamilies: boolean,
  create: () => Server,
): Promise<Server[]> {
  for (let attempt = 1; ; attempt++) {
    const v4 = create()
    await listen(v4, port, '127.0.0.1', port)
    if (!bothFamilies) return [v4]
    const bound = (v4.address() as AddressInfo).port
    const v6 = create()
    try {
      await listen(v6, bound, '::1', port)
      return [v4, v6]
    } catch (error) {
      const code = error instanceof RosterDeskError ? error.detail : ''
      if (/EADDRNOTAVAIL|EAFNOSUPPORT/.test(code ?? '')) return [v4]
      await closeServer(v4)
      if (port === 0 && attempt < PORT_ATTEMPTS) continue
      throw error
    }
  }
}

function listen(server: Server, port: number, host: string, configuredPort: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const taken =
        host === '::1'
          ? `Another program is using port ${port} on this computer's IPv6 address [::1], where a browser may look for "localhost". Close it or choose another port in the redirect URI.`
          : `Another program is using port ${port}, which the redirect URI names. Close it or choose another port.`
      reject(
        new RosterDeskError(
          'config',
          error.code === 'EADDRINUSE'
            ? taken
            : 'RosterDesk could not listen for the browser on this computer.',
          {
            detail: `loopback listen on ${host}:${configuredPort === 0 ? `${port} (chosen)` : port} failed: ${error.code ?? error.name}`,
          },
        ),
      )
    })
    server.listen(port, host, () => resolve())
  })
}

/**
 * Closes one listener: a response still being written (the page after the callback) is let finish; idle
 * keep-alive connections are dropped, and anything still open after a moment is cut.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve()
    const force = setTimeout(() => server.closeAllConnections(), 2_000)
    force.unref()
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    server.closeIdleConnections()
  })
}

function send(response: ServerResponse, page: LoopbackPage): void {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>RosterDesk – ${escapeHtml(page.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:4rem auto;max-width:32rem;color:#222}</style></head>
<body><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p></body></html>
`
  response.writeHead(page.status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    'Referrer-Policy': 'no-referrer',
    Connection: 'close',
  })
  response.end(body)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
