import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HttpStatusError,
  ensureOk,
  parseRetryAfter,
  requestJson,
  requestJsonOk,
} from '../../../../../src/main/core/api/http-json'
import { RosterDeskError } from '../../../../../src/main/core/errors'

let server: Server
let base: string
const seen: { method: string; contentType: string | undefined; accept: string | undefined; body: string }[] =
  []

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        contentType: req.headers['content-type'],
        accept: req.headers.accept,
        body,
      })
      switch (req.url) {
        case '/json':
          res.writeHead(200, { 'content-type': 'application/json', 'x-extra': 'yes' }).end('{"rows":[1,2]}')
          return
        case '/empty':
          res.writeHead(204).end()
          return
        case '/html-200':
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>')
          return
        case '/truncated':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"rows":[{"UUID":"a"')
          return
        case '/html-502':
          res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>')
          return
        case '/429':
          res
            .writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' })
            .end('{"error":"slow down"}')
          return
        case '/400':
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}')
          return
        case '/401':
          res.writeHead(401).end()
          return
        case '/404':
          res.writeHead(404).end()
          return
        case '/hang':
          return // never answers
        default:
          res.writeHead(500).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

async function failure(promise: Promise<unknown>): Promise<RosterDeskError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof RosterDeskError) return error
    throw error
  }
  throw new Error('expected a RosterDeskError')
}

describe('requestJson', () => {
  it('sends JSON bodies and exposes status, headers and the parsed body', async () => {
    const response = await requestJson(fetch, { url: `${base}/json`, json: { clientId: 'c' } })
    expect(response).toMatchObject({ status: 200, ok: true, body: { rows: [1, 2] }, bodyIsJson: true })
    expect(response.headers.get('x-extra')).toBe('yes')
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      contentType: 'application/json',
      accept: 'application/json',
      body: '{"clientId":"c"}',
    })
  })

  it('treats an empty body as no body', async () => {
    expect(await requestJson(fetch, { url: `${base}/empty` })).toMatchObject({ status: 204, body: undefined })
  })

  it('calls a 2xx that is not JSON (truncated) a retryable service error', async () => {
    const error = await failure(requestJson(fetch, { url: `${base}/truncated` }))
    expect(error).toMatchObject({ code: 'service', retryable: true })
    expect(error.message).toBe(
      'The payroll service sent an answer RosterDesk could not read. Try again in a moment.',
    )
  })

  it('calls a 2xx web page what it is, and not worth a retry: a proxy or a login page is in the way', async () => {
    const error = await failure(requestJson(fetch, { url: `${base}/html-200` }))
    expect(error).toMatchObject({ code: 'web-page', retryable: false })
    expect(error.message).toMatch(/^The payroll service answered with a web page where data was expected/)
  })

  it('returns non-2xx answers, HTML ones too, for the caller to classify', async () => {
    const response = await requestJson(fetch, { url: `${base}/html-502` })
    expect(response).toMatchObject({ status: 502, ok: false, body: undefined, bodyIsJson: false })
    expect((await requestJson(fetch, { url: `${base}/400` })).body).toEqual({ error: 'invalid_grant' })
  })

  it('reports a refused connection as such, naming the address, and retryable', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await failure(
      requestJson(fetch, { url: `http://127.0.0.1:${port}/x`, what: 'the sandbox' }),
    )
    expect(error).toMatchObject({ code: 'connection-refused', retryable: true })
    expect(error.detail).toMatch(/^ECONNREFUSED/)
    expect(error.message).toMatch(new RegExp(`^The connection to 127\\.0\\.0\\.1:${port} was refused`))
  })

  it('gives up after the timeout with a retryable timeout error', async () => {
    const error = await failure(requestJson(fetch, { url: `${base}/hang`, timeoutMs: 150 }))
    expect(error).toMatchObject({ code: 'timeout', retryable: true, detail: 'timeout' })
    expect(error.message).toBe(
      'The payroll service did not answer within 1 second. Check the connection and try again.',
    )
  })

  it("stops when the caller's signal aborts, as cancelled and not retryable", async () => {
    const controller = new AbortController()
    const pending = requestJson(fetch, { url: `${base}/hang`, signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    expect(await failure(pending)).toMatchObject({ code: 'cancelled', retryable: false })
    const aborted = AbortSignal.abort()
    expect(await failure(requestJson(fetch, { url: `${base}/json`, signal: aborted }))).toMatchObject({
      code: 'cancelled',
    })
  })
})

describe('status classification', () => {
  it('classifies 401, 404, 429, 5xx and other 4xx', async () => {
    const classify = async (path: string) => failure(requestJsonOk(fetch, { url: `${base}${path}` }))
    expect(await classify('/401')).toMatchObject({ code: 'auth', retryable: false, status: 401 })
    expect(await classify('/404')).toMatchObject({ code: 'not-found', retryable: false })
    const limited = await classify('/429')
    expect(limited).toBeInstanceOf(HttpStatusError)
    expect(limited).toMatchObject({ code: 'service', retryable: true, status: 429, retryAfterMs: 2000 })
    expect(await classify('/html-502')).toMatchObject({ code: 'service', retryable: true, status: 502 })
    expect(await classify('/400')).toMatchObject({
      code: 'service',
      retryable: false,
      body: { error: 'invalid_grant' },
    })
  })

  it('passes 2xx through ensureOk', async () => {
    const response = await requestJson(fetch, { url: `${base}/json` })
    expect(ensureOk(response)).toBe(response)
  })

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.UTC(2026, 0, 1)
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000)
    expect(parseRetryAfter(new Date(now - 5000).toUTCString(), now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })
})
