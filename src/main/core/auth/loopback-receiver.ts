import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
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
 * Listens on 127.0.0.1 for the browser's answer to a sign-in whose redirect URI is a loopback address (RFC 8252
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

  const server = createServer((request, response) => {
    void handle(request, response)
  })
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

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new RosterDeskError(
          'config',
          error.code === 'EADDRINUSE'
            ? `Another program is using port ${configured.port}, which the redirect URI names. Close it or choose another port.`
            : 'RosterDesk could not listen for the browser on this computer.',
          { detail: `loopback listen failed: ${error.code ?? error.name}` },
        ),
      )
    })
    server.listen(configured.port, '127.0.0.1', () => resolve())
  })
  boundPort = (server.address() as AddressInfo).port
  logger.info(`Sign-in: listening for the browser on 127.0.0.1:${boundPort}`)

  const url = new URL(redirectUri)
  url.port = String(boundPort)
  let closed: Promise<void> | undefined
  return {
    redirectUri: url.toString(),
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        // A response still being written (the page after the callback) is let finish; idle keep-alive
        // connections are dropped, and anything still open after a moment is cut.
        const force = setTimeout(() => server.closeAllConnections(), 2_000)
        force.unref()
        server.close(() => {
          clearTimeout(force)
          resolve()
        })
        server.closeIdleConnections()
      })),
  }
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
