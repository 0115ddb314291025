import { EventEmitter } from 'node:events'
import { Readable } from 'node:stream'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../../../src/main/core/api/fetch-like'
import { requestJson } from '../../../../../src/main/core/api/http-json'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import {
  electronNetFetch,
  type UtilityNet,
} from '../../../../../src/main/core-host/process/electron-net-fetch'
import { createUtilityNet, type AuthInfo } from '../../../../shell/stand-in/utility-net'
import type { StandInProxyConfig } from '../../../../shell/stand-in/proxy-rules'

/**
 * The core process's fetch over Electron's `net`, driven here through the shell stand-in's model of a utility
 * process's `net` (test/shell/stand-in/utility-net.ts, written from Electron 45's net-client-request.ts) against
 * real servers on 127.0.0.1.
 */

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

interface Harness {
  readonly net: UtilityNet
  readonly requests: Array<{ method: string; url: string; route: string }>
  readonly logins: AuthInfo[]
  online: boolean
  proxy: StandInProxyConfig
  answer: readonly [string, string] | undefined
}

function harness(): Harness {
  const state: Harness = {
    net: undefined as unknown as UtilityNet,
    requests: [],
    logins: [],
    online: true,
    proxy: {},
    answer: undefined,
  }
  const net = createUtilityNet({
    proxyConfig: () => state.proxy,
    record: (entry) => state.requests.push(entry),
    isOnline: () => state.online,
    login: async (_details, authInfo) => {
      state.logins.push(authInfo)
      return state.answer
    },
  })
  // The stand-in models the members of Electron's ClientRequest the adapter uses; it is not the whole class.
  return Object.assign(state, { net: net as unknown as UtilityNet })
}

/** A request through `fetch` as the core makes it (http-json.ts), which words a failure: its RosterDeskError. */
async function failure(fetch: FetchLike, url: string): Promise<RosterDeskError> {
  const error = await rejection(requestJson(fetch, { url }))
  expect(error).toBeInstanceOf(RosterDeskError)
  return error as RosterDeskError
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )
}

describe('electronNetFetch', () => {
  it('sends the method, headers and body, and streams the answer', async () => {
    const seen: Array<{ method?: string; auth?: string; type?: string; body: string }> = []
    const base = await serve((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        seen.push({
          method: request.method,
          auth: request.headers.authorization,
          type: request.headers['content-type'],
          body,
        })
        response.writeHead(200, { 'content-type': 'application/json' })
        response.write('{"items":[')
        setImmediate(() => response.end('1,2]}'))
      })
    })
    const { net, requests } = harness()
    const fetch = electronNetFetch(net)
    const response = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({ items: [1, 2] })
    expect(seen).toEqual([
      {
        method: 'POST',
        auth: 'Bearer t',
        type: 'application/x-www-form-urlencoded',
        body: 'grant_type=refresh_token',
      },
    ])
    expect(requests).toEqual([{ method: 'POST', url: `${base}/oauth/token`, route: 'DIRECT' }])
  })

  it("answers redirect: 'manual' with the 3xx and its Location instead of failing, and never follows it", async () => {
    const base = await serve((request, response) => {
      if (request.url === '/moved') response.writeHead(307, { location: '/v2/employees' }).end()
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    const { net, requests } = harness()
    const fetch = electronNetFetch(net)
    const response = await fetch(`${base}/moved`, { redirect: 'manual' })
    expect(response.status).toBe(307)
    expect(response.headers.get('location')).toBe(`${base}/v2/employees`)
    expect(requests.map((request) => request.url)).toEqual([`${base}/moved`])
    // 'follow' (fetch's default) follows, as Chromium does.
    const followed = await fetch(`${base}/moved`)
    expect(followed.status).toBe(200)
    expect(requests.map((request) => request.url).slice(1)).toEqual([`${base}/moved`, `${base}/v2/employees`])
  })

  it('fails at once with offline when the OS says so, sending nothing', async () => {
    const state = harness()
    state.online = false
    // Thrown as Chromium's own reason, which the caller's classification words.
    const raw = await rejection(electronNetFetch(state.net)('http://127.0.0.1:9/x'))
    expect(raw).toMatchObject({ name: 'NetworkFailureError', reason: 'net::ERR_INTERNET_DISCONNECTED' })
    const error = await failure(electronNetFetch(state.net), 'http://127.0.0.1:9/x')
    expect(error.code).toBe('offline')
    expect(error.retryable).toBe(false)
    expect(state.requests).toEqual([])
  })

  it('aborts the request when the signal aborts, mid-body too', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"items":[')
    })
    const { net } = harness()
    const controller = new AbortController()
    const response = await electronNetFetch(net)(base, { signal: controller.signal })
    const reading = response.text()
    controller.abort()
    const error = await rejection(reading)
    expect((error as Error).name).toBe('AbortError')
    const before = new AbortController()
    before.abort()
    expect(((await rejection(electronNetFetch(net)(base, { signal: before.signal }))) as Error).name).toBe(
      'AbortError',
    )
  })

  it('keeps http-json’s timeout and size limit above it', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/slow') return // never answers
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ items: 'x'.repeat(10_000) }))
    })
    const { net } = harness()
    const fetch = electronNetFetch(net)
    const slow = await rejection(requestJson(fetch, { url: `${base}/slow`, timeoutMs: 300 }))
    expect((slow as RosterDeskError).code).toBe('timeout')
    const large = await rejection(requestJson(fetch, { url: `${base}/big`, maxBodyBytes: 1000 }))
    expect((large as Error).name).toBe('BodyTooLargeError')
  })

  it('names a refused connection, and a proxy that refused the sign-in, by their codes', async () => {
    const closed = await serve(() => undefined)
    await new Promise((resolve) => servers.pop()?.close(resolve))
    const { net } = harness()
    const refused = await failure(electronNetFetch(net), `${closed}/x`)
    expect(refused.code).toBe('connection-refused')
    expect(refused.detail).toContain('net::ERR_CONNECTION_REFUSED')

    // A proxy asking for credentials main did not give: Chromium hands over the 407, which is 'proxy-auth'.
    const proxied: string[] = []
    const proxy = await serve((request, response) => {
      proxied.push(request.url ?? '')
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="Corp"' }).end('<html>sign in</html>')
    })
    const state = harness()
    state.proxy = { mode: 'fixed_servers', proxyRules: proxy, proxyBypassRules: '<-loopback>' }
    const error = await failure(electronNetFetch(state.net), 'http://127.0.0.1:9/employees')
    expect(error.code).toBe('proxy-auth')
    expect(state.logins).toEqual([
      { isProxy: true, scheme: 'basic', host: '127.0.0.1', port: Number(new URL(proxy).port), realm: 'Corp' },
    ])
    expect(proxied).toEqual(['http://127.0.0.1:9/employees'])
  })

  it('names the issuer main saw when Chromium refuses a certificate', async () => {
    const asked: Array<[string, string]> = []
    const fetch = electronNetFetch(failingNet('net::ERR_CERT_AUTHORITY_INVALID'), {
      failureFacts: async (url, concerns) => {
        asked.push([url, concerns])
        return { certificate: { subject: 'payroll.example.com', issuer: 'Zscaler Root CA' } }
      },
    })
    const error = await failure(fetch, 'https://payroll.example.com/oauth/token')
    expect(asked).toEqual([['https://payroll.example.com/oauth/token', 'certificate']])
    expect(error.code).toBe('certificate')
    expect(error.message).toContain('issued by Zscaler Root CA')
    expect(error.message).toContain('Settings → Network')
  })

  it.each([
    ['net::ERR_NAME_NOT_RESOLVED', 'host-not-found', false],
    ['net::ERR_CONNECTION_REFUSED', 'connection-refused', true],
    ['net::ERR_CONNECTION_TIMED_OUT', 'timeout', true],
    ['net::ERR_INTERNET_DISCONNECTED', 'offline', false],
    ['net::ERR_PROXY_AUTH_UNSUPPORTED', 'proxy-auth', false],
    ['net::ERR_CERT_DATE_INVALID', 'certificate', false],
    ['net::ERR_CERT_COMMON_NAME_INVALID', 'certificate', false],
  ])('classifies Chromium’s %s as %s (retryable: %s)', async (chromium, code, retryable) => {
    const error = await failure(
      electronNetFetch(failingNet(chromium)),
      'https://payroll.example.com/v1/employees?page=2',
    )
    expect(error.code).toBe(code)
    expect(error.retryable).toBe(retryable)
    expect(error.detail).toContain(chromium)
    expect(error.detail).not.toContain('page=2')
  })

  it('names the proxy Electron resolved when the failure is the proxy’s', async () => {
    const fetch = electronNetFetch(failingNet('net::ERR_PROXY_CONNECTION_FAILED'), {
      failureFacts: async () => ({ proxy: 'http://proxy.corp.example:8080' }),
    })
    const error = await failure(fetch, 'https://payroll.example.com/')
    expect(error.message).toContain('proxy.corp.example:8080')
  })
})

describe('electronNetFetch, given what Electron decoded as UTF-8', () => {
  it('hands over headers and status text as the service’s bytes read as Latin-1, and leaves out lost bytes', async () => {
    const fake = answeringNet({
      statusCode: 200,
      statusMessage: 'Grüße € 日本',
      headers: {
        'content-type': 'application/json',
        'x-team': 'Müller & Söhne',
        'x-price': '€ 12',
        'x-office': ['日本', 'Zürich'],
        'x-broken': 'caf\uFFFD',
      },
      body: '{"ok":true}',
    })
    const outcome = await settled(
      electronNetFetch(fake.net)('https://payroll.example.com/v1/employees'),
      fake,
    )
    expect(fake.thrown).toEqual([])
    const response = outcome as Response
    expect(response.status).toBe(200)
    const bytes = (text: string | null): string => Buffer.from(text ?? '', 'latin1').toString('utf8')
    expect(bytes(response.statusText)).toBe('Grüße € 日本')
    expect(bytes(response.headers.get('x-team'))).toBe('Müller & Söhne')
    expect(bytes(response.headers.get('x-price'))).toBe('€ 12')
    expect(bytes(response.headers.get('x-office'))).toBe('日本, Zürich')
    // U+FFFD is Chromium's stand-in for bytes that were not UTF-8: what the service sent is not known.
    expect(response.headers.has('x-broken')).toBe(false)
    expect(await response.json()).toEqual({ ok: true })
  })

  it('fails the request, never the process, on a header or status text it still cannot take, naming no value', async () => {
    for (const [head, message, detail] of [
      [
        { headers: { 'x-session': 'token-\u0000-secret' } },
        'The service sent a response header RosterDesk cannot read.',
        'response header "x-session"',
      ],
      [
        { statusMessage: 'OK\u0001' },
        'The service sent a status line RosterDesk cannot read.',
        'status text',
      ],
    ] as const) {
      const plain = { statusCode: 200, statusMessage: 'OK', headers: {}, body: '' }
      const fake = answeringNet({ ...plain, ...head })
      const error = await settled(
        electronNetFetch(fake.net)('https://payroll.example.com/v1/employees'),
        fake,
      )
      expect(fake.thrown).toEqual([])
      expect(error).toBeInstanceOf(RosterDeskError)
      expect(error).toMatchObject({ code: 'service', retryable: false })
      expect((error as RosterDeskError).message).toContain(message)
      expect((error as RosterDeskError).detail).toContain(detail)
      expect(
        JSON.stringify([(error as RosterDeskError).message, (error as RosterDeskError).detail]),
      ).not.toContain('secret')
      expect(fake.aborted).toBe(true)
    }
  })

  it('fails a manual redirect whose headers it cannot take as a request, never the process', async () => {
    const fake = answeringNet({
      statusCode: 200,
      statusMessage: 'OK',
      headers: {},
      body: '',
      redirect: { 'x-trace': ['a\u0000b'], 'x-office': ['日本'] },
    })
    const error = await settled(
      electronNetFetch(fake.net)('https://payroll.example.com/v1/employees', { redirect: 'manual' }),
      fake,
    )
    expect(fake.thrown).toEqual([])
    expect(error).toMatchObject({ code: 'service' })
    expect((error as RosterDeskError).detail).toContain('"x-trace"')
  })
})

interface AnsweringNet {
  readonly net: UtilityNet
  /** What a listener threw out of an emit: in Electron, the process's uncaught exception, which ends it. */
  readonly thrown: unknown[]
  /** Settled at the first throw. */
  readonly threw: Promise<void>
  aborted: boolean
}

/**
 * A `net` whose one request answers `head` as Electron hands an answer over (header values and status text already
 * decoded as UTF-8), emitted as Electron emits it: from a callback of its own, where nothing catches a throw.
 */
function answeringNet(head: {
  readonly statusCode: number
  readonly statusMessage: string
  readonly headers: Record<string, string | string[]>
  readonly body: string
  /** Emit a manual redirect with these headers instead. */
  readonly redirect?: Record<string, string[]>
}): AnsweringNet {
  let threw: () => void = () => undefined
  const fake: AnsweringNet = {
    net: undefined as unknown as UtilityNet,
    thrown: [],
    threw: new Promise<void>((resolve) => (threw = resolve)),
    aborted: false,
  }
  const emitting = (emitter: EventEmitter, ...args: [string, ...unknown[]]): void => {
    try {
      emitter.emit(...args)
    } catch (error) {
      fake.thrown.push(error)
      threw()
    }
  }
  const request = () =>
    Object.assign(new EventEmitter(), {
      setHeader: () => undefined,
      write: () => true,
      abort: () => void (fake.aborted = true),
      end(this: EventEmitter) {
        setImmediate(() => {
          if (head.redirect !== undefined) {
            emitting(this, 'redirect', 302, 'GET', 'https://payroll.example.com/v2/employees', head.redirect)
            return
          }
          const message = Object.assign(Readable.from([Buffer.from(head.body)]), {
            statusCode: head.statusCode,
            statusMessage: head.statusMessage,
            headers: head.headers,
          })
          emitting(this, 'response', message)
        })
      },
    })
  return Object.assign(fake, { net: { request, isOnline: () => true } as unknown as UtilityNet })
}

/** The fetch's outcome (its answer, or what it rejected with), or what a listener threw, whichever comes first. */
async function settled(fetching: Promise<Response>, fake: AnsweringNet): Promise<unknown> {
  return Promise.race([
    fetching.then(
      (response) => response,
      (error: unknown) => error,
    ),
    fake.threw.then(() => fake.thrown[0]),
  ])
}

/** A `net` whose every request fails with Chromium's `reason`, as Electron's ClientRequest does. */
function failingNet(reason: string): UtilityNet {
  const request = () =>
    Object.assign(new EventEmitter(), {
      setHeader: () => undefined,
      write: () => true,
      abort: () => undefined,
      end(this: EventEmitter) {
        setImmediate(() => this.emit('error', new Error(reason)))
      },
    })
  return { request, isOnline: () => true } as unknown as UtilityNet
}
