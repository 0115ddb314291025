import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

/** One request the proxy saw: a CONNECT tunnel's target, or a forwarded plain-HTTP request's method and URL. */
export interface ProxiedRequest {
  readonly kind: 'connect' | 'http'
  /** CONNECT: host:port. */
  readonly target: string
  /** 'http' only: the method and the absolute URL asked for. */
  readonly method?: string
  readonly url?: string
  /** 'none' when no Proxy-Authorization came, 'right' or 'wrong' against the proxy's credentials. */
  readonly credentials: 'none' | 'right' | 'wrong'
  /** Whether the proxy let it through. */
  readonly allowed: boolean
}

export interface ForwardProxyOptions {
  /** Ask for Basic credentials (407 with Proxy-Authenticate) and allow only these. */
  readonly credentials?: { readonly user: string; readonly password: string }
  /** Names the proxy resolves itself (name → address), as a company proxy knows hosts its clients cannot resolve. */
  readonly hosts?: Readonly<Record<string, string>>
}

export interface ForwardProxy {
  /** http://127.0.0.1:PORT, without credentials. */
  readonly url: string
  readonly port: number
  /** Every request seen so far, in order. */
  readonly requests: readonly ProxiedRequest[]
  close(): Promise<void>
}

/**
 * A forward proxy for the tests, on 127.0.0.1: CONNECT tunnels (for https://) and plain-HTTP forwarding (absolute
 * URLs), optionally asking for Basic credentials, recording every request. A target it cannot reach gets a 502.
 */
export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = []
  const sockets = new Set<Socket>()
  const expected =
    options.credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}`
  const judge = (
    request: IncomingMessage,
  ): { credentials: ProxiedRequest['credentials']; allowed: boolean } => {
    const given = request.headers['proxy-authorization']
    const credentials = given === undefined ? 'none' : given === expected ? 'right' : 'wrong'
    return { credentials, allowed: expected === undefined || credentials === 'right' }
  }
  const resolveHost = (host: string): string => options.hosts?.[host.toLowerCase()] ?? host

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const verdict = judge(request)
    const url = request.url ?? ''
    let target: URL
    try {
      target = new URL(url)
    } catch {
      response.writeHead(400).end()
      return
    }
    requests.push({ kind: 'http', target: target.host, method: request.method ?? '', url, ...verdict })
    if (!verdict.allowed) {
      response
        .writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test proxy"', 'Content-Length': '0' })
        .end()
      return
    }
    const headers = { ...request.headers }
    delete headers['proxy-authorization']
    delete headers['proxy-connection']
    const upstream = httpRequest(
      {
        host: resolveHost(target.hostname),
        port: Number(target.port || 80),
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.once('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'Content-Length': '0' })
      response.end()
    })
    request.pipe(upstream)
  })

  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client)
    client.once('close', () => sockets.delete(client))
    client.on('error', () => client.destroy())
    const verdict = judge(request)
    const authority = request.url ?? ''
    requests.push({ kind: 'connect', target: authority, ...verdict })
    if (!verdict.allowed) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n',
      )
      return
    }
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority)
    if (match?.[1] === undefined || match[2] === undefined) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n')
      return
    }
    const upstream = connect({ host: resolveHost(match[1]), port: Number(match[2]) })
    sockets.add(upstream)
    upstream.once('close', () => sockets.delete(upstream))
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.once('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n')
      client.destroy()
    })
    client.once('close', () => upstream.destroy())
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
