import { describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../../../src/main/core/api/fetch-like'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { NetworkFailureError } from '../../../../../src/main/core/net/network-failure'
import type {
  ConnectionProbes,
  ConnectionTarget,
  ProxyRoute,
} from '../../../../../src/main/core/connection-check/check-inputs'
import {
  checkProfileConnection,
  runConnectionCheck,
  safeAddress,
} from '../../../../../src/main/core/connection-check/connection-check'
import { CHECK_CODE } from '../../../../../src/main/core/connection-check/service-steps'
import { DEFAULT_SETTINGS } from '../../../../../src/main/core/settings/settings-defaults'
import type { CertificateSummary, ConnectionReport } from '../../../../../src/shared/connection-report'
import { connectionReportText } from '../../../../../src/shared/connection-report'
import { FakeTokens, fakeClock } from '../../../../helpers/sync-fakes'

const BASE = 'https://payroll.example.com'
const ROW = { UUID: '0b7f0c1e-1111-4222-8333-444455556666', firstName: 'Ada', lastName: 'Quietname' }

const LEAF: CertificateSummary = {
  subject: 'CN=payroll.example.com',
  issuer: 'CN=Zscaler Root CA',
  validFrom: '2026-01-01T00:00:00Z',
  validTo: '2027-01-01T00:00:00Z',
  fingerprint256: 'AA:BB',
}

interface Sent {
  readonly url: URL
  readonly init: RequestInit | undefined
}

type Route = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>

/** A service answering by path, as a good one does unless a test replaces a route; each answer takes 10 ms. */
function fakeService(advance: (ms: number) => void, routes: Partial<Record<string, Route>> = {}) {
  const sent: Sent[] = []
  const defaults: Record<string, Route> = {
    '/openapi/oauthv1/authorize': () =>
      new Response('<html><title>Sign in</title></html>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      }),
    '/openapi/oauthv1/token': () =>
      Response.json({ error: 'invalid_grant', error_description: 'unknown code' }, { status: 400 }),
    '/employees/list': () =>
      Response.json({ rows: [ROW], totalCount: 1234, totalPages: 1234, limit: 1, currentPage: 1 }),
  }
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input)
    sent.push({ url, init })
    advance(10)
    const route = routes[url.pathname] ?? defaults[url.pathname]
    if (route === undefined) return new Response('no', { status: 404 })
    return route(url, init)
  }
  return { fetch, sent }
}

/** Probes that see everything and find it fine; each takes 5 ms. Tests replace one probe at a time. */
function fakeProbes(
  advance: (ms: number) => void,
  overrides: Partial<ConnectionProbes> = {},
): ConnectionProbes {
  return {
    runtime: 'cli',
    proxy: async () => {
      advance(5)
      return { kind: 'direct', source: 'no proxy in the environment' }
    },
    dns: async () => {
      advance(5)
      return { addresses: ['192.0.2.10'] }
    },
    tcp: async () => {
      advance(5)
      return { address: '192.0.2.10:443' }
    },
    tls: async () => {
      advance(5)
      return {
        certificates: [LEAF],
        trusted: true,
        trustSet: "Node's bundled list and the OS store",
        protocol: 'TLSv1.3',
      }
    },
    ...overrides,
  }
}

function target(extra: Partial<ConnectionTarget> = {}): ConnectionTarget {
  return {
    baseUrl: BASE,
    clientId: 'client-1',
    redirectUri: 'rosterdesk://callback',
    scopes: 'read',
    tenantId: 'acme',
    ...extra,
  }
}

async function check(
  options: {
    routes?: Partial<Record<string, Route>>
    probes?: Partial<ConnectionProbes>
    target?: Partial<ConnectionTarget>
  } = {},
) {
  const time = fakeClock()
  const service = fakeService(time.advance, options.routes)
  const report = await runConnectionCheck(
    { fetch: service.fetch, clock: time.clock, probes: fakeProbes(time.advance, options.probes) },
    target(options.target),
  )
  return { report, sent: service.sent }
}

function step(report: ConnectionReport, id: string) {
  const found = report.steps.find((candidate) => candidate.id === id)
  if (found === undefined) throw new Error(`no ${id} step`)
  return found
}

function states(report: ConnectionReport): string {
  return report.steps.map((s) => `${s.id}:${s.state}`).join(' ')
}

function nodeError(code: string): Error {
  return Object.assign(new Error(`getaddrinfo ${code}`), { code })
}

describe('runConnectionCheck', () => {
  it('runs every step in order, each timed on the clock, and passes a good service', async () => {
    const tokens = new FakeTokens()
    const { report, sent } = await check({ target: { tokens, profile: 'Payroll' } })
    expect(states(report)).toBe('proxy:ok dns:ok tcp:ok tls:ok authorize:ok token:ok list:ok')
    expect(report.ok).toBe(true)
    expect(report.runtime).toBe('cli')
    expect(report.profile).toBe('Payroll')
    expect(report.startedAt).toBe('2026-11-01T00:00:00.000Z')
    expect(report.steps.map((s) => s.ms)).toEqual([5, 5, 5, 5, 10, 10, 10])
    expect(step(report, 'proxy').message).toBe('none, connecting directly (no proxy in the environment)')
    expect(step(report, 'dns').message).toBe('resolves to 192.0.2.10')
    expect(step(report, 'tcp').message).toBe('connected to 192.0.2.10:443')
    expect(step(report, 'tls').message).toContain(
      "TLSv1.3, the certificate chain is trusted by Node's bundled list",
    )
    expect(step(report, 'tls').certificates).toEqual([LEAF])
    expect(step(report, 'authorize').message).toBe('HTTP 200 (a web page)')
    expect(step(report, 'token').message).toContain('HTTP 400, JSON error invalid_grant')
    // The list step counts; it never names an employee.
    expect(step(report, 'list').message).toBe('answered with 1 of 1,234 employees (tenant acme)')
    const text = JSON.stringify(report) + connectionReportText(report)
    for (const secret of ['token-1', ROW.lastName, ROW.firstName, ROW.UUID])
      expect(text).not.toContain(secret)
    expect(sent.map((s) => s.url.pathname)).toEqual([
      '/openapi/oauthv1/authorize',
      '/openapi/oauthv1/token',
      '/employees/list',
    ])
  })

  it('asks the authorize endpoint without following redirects and the token endpoint without a secret', async () => {
    const { sent } = await check({ target: { tokens: new FakeTokens() } })
    const [authorize, token, list] = sent
    expect(authorize?.init?.redirect).toBe('manual')
    expect(authorize?.url.searchParams.get('clientId')).toBe('client-1')
    expect(authorize?.url.searchParams.get('responseType')).toBe('code')
    const body = JSON.parse(String(token?.init?.body)) as Record<string, unknown>
    expect(body).toEqual({
      code: CHECK_CODE,
      clientId: 'client-1',
      redirectUri: 'rosterdesk://callback',
      grantType: 'authorization_code',
    })
    expect(list?.url.search).toBe('?page=1&limit=1')
    const headers = new Headers(list?.init?.headers)
    expect(headers.get('vnd.a1.tenant-id')).toBe('acme')
    expect(headers.get('authorization')).toBe('Bearer token-1')
  })

  describe('proxy step', () => {
    it('names the proxy in use without its credentials, and probes DNS and TCP of the proxy, TLS through it', async () => {
      const tlsRoutes: ProxyRoute[] = []
      const hosts: string[] = []
      const { report } = await check({
        probes: {
          proxy: async () => ({
            kind: 'proxy',
            url: 'http://alice:s3cret@proxy.corp:8080',
            source: 'HTTPS_PROXY',
          }),
          dns: async (host) => {
            hosts.push(host)
            return { addresses: ['10.0.0.8'] }
          },
          tcp: async (host, port) => ({ address: `${host}:${port}` }),
          tls: async (host, port, route) => {
            hosts.push(`${host}:${port}`)
            tlsRoutes.push(route)
            return { certificates: [LEAF], trusted: true, trustSet: 'the OS store' }
          },
        },
      })
      expect(step(report, 'proxy').message).toBe('http://proxy.corp:8080 (HTTPS_PROXY)')
      expect(step(report, 'dns').label).toBe('DNS: proxy proxy.corp')
      // Behind a proxy, DNS and TCP are the proxy's host's, and the messages say so.
      expect(step(report, 'dns').message).toBe(
        "the proxy's host resolves to 10.0.0.8 (the proxy looks up payroll.example.com itself)",
      )
      expect(step(report, 'tcp').message).toBe(
        'connected to the proxy at proxy.corp:8080 (the proxy connects to payroll.example.com:443 itself)',
      )
      expect(step(report, 'tls').label).toBe('TLS: payroll.example.com:443 through the proxy')
      expect(hosts).toEqual(['proxy.corp', 'payroll.example.com:443'])
      expect(tlsRoutes[0]?.kind).toBe('proxy')
      expect(JSON.stringify(report)).not.toContain('s3cret')
      expect(connectionReportText(report)).not.toContain('alice')
    })

    it('fails with the resolution error, skips DNS, TCP and TLS, and still asks the service', async () => {
      const { report } = await check({
        probes: {
          proxy: async () => {
            throw new RosterDeskError('config', 'The PAC file could not be read.')
          },
        },
      })
      expect(states(report)).toBe(
        'proxy:failed dns:skipped tcp:skipped tls:skipped authorize:ok token:ok list:skipped',
      )
      expect(step(report, 'proxy')).toMatchObject({
        code: 'config',
        message: 'The PAC file could not be read.',
      })
      expect(step(report, 'dns').message).toContain('proxy in use is not known')
      expect(report.ok).toBe(false)
    })
  })

  describe('DNS, TCP and TLS steps', () => {
    it('after a DNS failure skips TCP, TLS and, on a direct route, the service', async () => {
      const { report, sent } = await check({
        probes: {
          dns: async () => {
            throw nodeError('ENOTFOUND')
          },
        },
      })
      expect(states(report)).toBe(
        'proxy:ok dns:failed tcp:skipped tls:skipped authorize:skipped token:skipped list:skipped',
      )
      expect(step(report, 'dns').code).toBe('host-not-found')
      expect(step(report, 'tcp').message).toBe('The name payroll.example.com did not resolve.')
      expect(step(report, 'authorize').message).toContain('the DNS step failed')
      expect(sent).toEqual([])
    })

    it('behind a proxy, a DNS failure is the proxy’s, and the service steps still run', async () => {
      const { report } = await check({
        probes: {
          proxy: async () => ({ kind: 'proxy', url: 'http://proxy.corp.invalid:8080', source: '--proxy' }),
          dns: async () => {
            throw nodeError('ENOTFOUND')
          },
        },
      })
      expect(states(report)).toBe(
        'proxy:ok dns:failed tcp:skipped tls:skipped authorize:ok token:ok list:skipped',
      )
      expect(step(report, 'dns').code).toBe('host-not-found')
      expect(step(report, 'dns').message).toContain('proxy setting')
    })

    it('behind a proxy, a probe’s timeout is the proxy’s too', async () => {
      const { report } = await check({
        probes: {
          proxy: async () => ({ kind: 'proxy', url: 'http://proxy.corp:8080', source: '--proxy' }),
          tcp: async () => {
            throw new NetworkFailureError('ETIMEDOUT', {})
          },
        },
      })
      expect(step(report, 'tcp')).toMatchObject({ state: 'failed', code: 'timeout' })
      expect(step(report, 'tcp').message).toContain('through the proxy proxy.corp:8080')
    })

    it('after a refused connection skips TLS and the service', async () => {
      const { report } = await check({
        probes: {
          tcp: async () => {
            throw nodeError('ECONNREFUSED')
          },
        },
      })
      expect(states(report)).toBe(
        'proxy:ok dns:ok tcp:failed tls:skipped authorize:skipped token:skipped list:skipped',
      )
      expect(step(report, 'tcp').code).toBe('connection-refused')
      expect(step(report, 'tls').message).toBe('No connection to payroll.example.com:443.')
    })

    it('a TCP timeout is its own code', async () => {
      const { report } = await check({
        probes: {
          tcp: async () => {
            throw nodeError('ETIMEDOUT')
          },
        },
      })
      expect(step(report, 'tcp').code).toBe('timeout')
    })

    it('an untrusted chain fails TLS with the probe’s message and the chain, and skips the service', async () => {
      const problem = new RosterDeskError(
        'certificate',
        'The service’s certificate is not trusted: it is issued by CN=Zscaler Root CA.',
      )
      const { report } = await check({
        probes: {
          tls: async () => ({ certificates: [LEAF], trusted: false, trustSet: 'the OS store', problem }),
        },
      })
      expect(step(report, 'tls')).toMatchObject({
        state: 'failed',
        code: 'certificate',
        message: problem.message,
        certificates: [LEAF],
      })
      expect(step(report, 'token').state).toBe('skipped')
      expect(connectionReportText(report)).toContain(
        '    CN=payroll.example.com, issued by CN=Zscaler Root CA',
      )
    })

    it('an untrusted chain without a named problem says which set refused it', async () => {
      const { report } = await check({
        probes: { tls: async () => ({ certificates: [], trusted: false, trustSet: 'the OS store' }) },
      })
      expect(step(report, 'tls')).toMatchObject({
        code: 'certificate',
        message: 'The certificate chain is not trusted by the OS store.',
      })
      expect(step(report, 'tls').certificates).toBeUndefined()
    })

    it('behind a proxy a failed TLS step still lets the service steps run', async () => {
      const { report } = await check({
        probes: {
          proxy: async () => ({ kind: 'proxy', url: 'http://proxy.corp:8080', source: '--proxy' }),
          tls: async () => {
            throw new RosterDeskError(
              'proxy-auth',
              'The proxy proxy.corp:8080 refused the credentials given.',
            )
          },
        },
      })
      expect(states(report)).toBe('proxy:ok dns:ok tcp:ok tls:failed authorize:ok token:ok list:skipped')
      expect(step(report, 'tls').code).toBe('proxy-auth')
    })

    it('skips TLS for an http:// service', async () => {
      const { report } = await check({ target: { baseUrl: 'http://127.0.0.1:8080' } })
      expect(step(report, 'tls')).toMatchObject({ state: 'skipped', ms: 0 })
      expect(step(report, 'tls').message).toContain('http://')
      expect(step(report, 'tcp').label).toBe('TCP: 127.0.0.1:8080')
    })

    it('skips what the runtime cannot see, saying why (the app)', async () => {
      const time = fakeClock()
      const service = fakeService(time.advance)
      const report = await runConnectionCheck(
        {
          fetch: service.fetch,
          clock: time.clock,
          probes: {
            runtime: 'app',
            proxy: async () => ({ kind: 'direct', source: 'Electron resolved DIRECT' }),
            unseen: 'Electron does this itself.',
            certificates: async () => [LEAF],
          },
        },
        target(),
      )
      expect(states(report)).toBe(
        'proxy:ok dns:skipped tcp:skipped tls:skipped authorize:ok token:ok list:skipped',
      )
      expect(step(report, 'dns').message).toBe('Electron does this itself.')
      expect(report.runtime).toBe('app')
      // The certificates the app's verify proc saw go with each request.
      expect(step(report, 'authorize').certificates).toEqual([LEAF])
      expect(report.ok).toBe(true)
    })
  })

  describe('authorize step', () => {
    it('names only the origin a redirect leads to', async () => {
      const { report } = await check({
        routes: {
          '/openapi/oauthv1/authorize': () =>
            new Response(null, {
              status: 302,
              headers: { location: 'https://login.example.net/u/login?state=abc&client=1' },
            }),
        },
      })
      expect(step(report, 'authorize').message).toBe('HTTP 302, redirecting to https://login.example.net')
    })

    it('counts a 400 sign-in error page as an answer', async () => {
      const { report } = await check({
        routes: {
          '/openapi/oauthv1/authorize': () =>
            new Response('<title>Unknown application</title>', {
              status: 400,
              headers: { 'content-type': 'text/html' },
            }),
        },
      })
      expect(step(report, 'authorize')).toMatchObject({ state: 'ok', message: 'HTTP 400 (a web page)' })
    })

    it.each([
      [404, 'not-found'],
      [407, 'proxy-auth'],
      [502, 'service'],
    ])('fails on HTTP %i as %s', async (status, code) => {
      const { report } = await check({
        routes: { '/openapi/oauthv1/authorize': () => new Response('x', { status }) },
      })
      expect(step(report, 'authorize')).toMatchObject({ state: 'failed', code })
      expect(step(report, 'authorize').message).toContain(`HTTP ${status}`)
    })

    it('fails with the request error when no answer came, with the certificates the runtime saw', async () => {
      const time = fakeClock()
      const report = await runConnectionCheck(
        {
          fetch: async () => {
            throw new RosterDeskError('certificate', 'Not trusted: issued by CN=Zscaler Root CA.')
          },
          clock: time.clock,
          probes: { ...fakeProbes(time.advance), certificates: async () => [LEAF] },
        },
        target(),
      )
      expect(step(report, 'authorize')).toMatchObject({
        state: 'failed',
        code: 'certificate',
        certificates: [LEAF],
      })
    })

    it('fails as a network error when fetch fails without an answer', async () => {
      const { report } = await check({
        routes: {
          '/openapi/oauthv1/authorize': () => {
            throw new TypeError('fetch failed', { cause: nodeError('ECONNRESET') })
          },
        },
      })
      expect(step(report, 'authorize')).toMatchObject({ state: 'failed', code: 'network' })
      expect(step(report, 'authorize').message).toContain('was cut')
    })
  })

  describe('token step', () => {
    it('counts an invalid_client refusal in JSON as the endpoint answering', async () => {
      const { report } = await check({
        routes: {
          '/openapi/oauthv1/token': () => Response.json({ error: 'invalid_client' }, { status: 401 }),
        },
      })
      expect(step(report, 'token')).toMatchObject({ state: 'ok' })
      expect(step(report, 'token').message).toContain('HTTP 401, JSON error invalid_client')
    })

    it('counts JSON without an OAuth code, and a 2xx JSON answer', async () => {
      const plain = await check({
        routes: { '/openapi/oauthv1/token': () => Response.json({ message: 'bad' }, { status: 400 }) },
      })
      expect(step(plain.report, 'token').message).toContain('HTTP 400, JSON (')
      const accepted = await check({
        routes: { '/openapi/oauthv1/token': () => Response.json({ note: 'odd' }) },
      })
      expect(step(accepted.report, 'token')).toMatchObject({ state: 'ok', message: 'HTTP 200, JSON' })
    })

    it('fails on a web page that is not a 2xx', async () => {
      const { report } = await check({
        routes: {
          '/openapi/oauthv1/token': () =>
            new Response('<html><title>Blocked</title></html>', {
              status: 403,
              headers: { 'content-type': 'text/html' },
            }),
        },
      })
      expect(step(report, 'token')).toMatchObject({ state: 'failed', code: 'web-page' })
      expect(step(report, 'token').message).toContain('HTTP 403 with a page that is not JSON')
    })

    it('fails on a 2xx web page, naming its title', async () => {
      const { report } = await check({
        routes: {
          '/openapi/oauthv1/token': () =>
            new Response('<html><title>Guest Wi-Fi login</title></html>', {
              status: 200,
              headers: { 'content-type': 'text/html' },
            }),
        },
      })
      expect(step(report, 'token')).toMatchObject({ state: 'failed', code: 'web-page' })
      expect(step(report, 'token').message).toContain('Guest Wi-Fi login')
    })

    it('fails on an empty 4xx answer, a 404 and a 5xx', async () => {
      const empty = await check({
        routes: { '/openapi/oauthv1/token': () => new Response(null, { status: 400 }) },
      })
      expect(step(empty.report, 'token')).toMatchObject({ state: 'failed', code: 'web-page' })
      expect(step(empty.report, 'token').message).toContain('with nothing')
      const missing = await check({
        routes: { '/openapi/oauthv1/token': () => Response.json({ error: 'nope' }, { status: 404 }) },
      })
      expect(step(missing.report, 'token')).toMatchObject({ state: 'failed', code: 'not-found' })
      const broken = await check({
        routes: { '/openapi/oauthv1/token': () => Response.json({ error: 'x' }, { status: 503 }) },
      })
      expect(step(broken.report, 'token')).toMatchObject({ state: 'failed', code: 'service' })
    })
  })

  describe('list step', () => {
    it('is skipped until signed in', async () => {
      const { report, sent } = await check()
      expect(step(report, 'list')).toMatchObject({ state: 'skipped', ms: 0 })
      expect(step(report, 'list').message).toContain('Sign in first')
      expect(sent.some((s) => s.url.pathname === '/employees/list')).toBe(false)
      expect(report.ok).toBe(true)
    })

    it('fails with the list client’s message (a tenant refused), once, without retries', async () => {
      let asked = 0
      const { report } = await check({
        target: { tokens: new FakeTokens() },
        routes: {
          '/employees/list': () => {
            asked++
            return Response.json({ message: 'tenant unknown' }, { status: 403 })
          },
        },
      })
      expect(step(report, 'list')).toMatchObject({ state: 'failed', code: 'auth' })
      expect(step(report, 'list').message).toContain('tenant “acme”')
      expect(asked).toBe(1)
    })

    it('a failure a sync would retry is said as itself, not as a count of attempts', async () => {
      const { report } = await check({
        target: { tokens: new FakeTokens() },
        routes: { '/employees/list': () => new Response('oops', { status: 500 }) },
      })
      expect(step(report, 'list')).toMatchObject({ state: 'failed', code: 'service' })
      expect(step(report, 'list').message).toContain('HTTP 500')
      expect(step(report, 'list').message).not.toContain('tried')
    })

    it('says when there is no tenant header', async () => {
      const { report } = await check({ target: { tokens: new FakeTokens(), tenantId: '' } })
      expect(step(report, 'list').message).toBe('answered with 1 of 1,234 employees (no tenant header)')
    })
  })
})

describe('checkProfileConnection', () => {
  const demo = {
    baseUrl: 'http://127.0.0.1:4555/',
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    redirectUri: 'rosterdesk://callback',
    tenantId: 'demo-tenant',
  }

  it('checks the profile’s resolved environment, with its name and tokens', async () => {
    const time = fakeClock()
    const service = fakeService(time.advance)
    const report = await checkProfileConnection(DEFAULT_SETTINGS, {
      fetch: service.fetch,
      clock: time.clock,
      probes: fakeProbes(time.advance),
      demo,
      profileName: 'Demo',
      tokens: new FakeTokens(),
    })
    expect(report.baseUrl).toBe('http://127.0.0.1:4555')
    expect(report.profile).toBe('Demo')
    expect(states(report)).toBe('proxy:ok dns:ok tcp:ok tls:skipped authorize:ok token:ok list:ok')
    expect(service.sent[0]?.url.searchParams.get('clientId')).toBe('demo-client')
    expect(new Headers(service.sent[2]?.init?.headers).get('vnd.a1.tenant-id')).toBe('demo-tenant')
    expect(JSON.stringify(report)).not.toContain('demo-secret')
  })

  it('writes the employee count in the profile’s regional formats', async () => {
    const time = fakeClock()
    const german = { ...DEFAULT_SETTINGS, formatLocale: 'de-DE' as const }
    const report = await checkProfileConnection(german, {
      fetch: fakeService(time.advance).fetch,
      clock: time.clock,
      probes: fakeProbes(time.advance),
      demo,
      tokens: new FakeTokens(),
    })
    expect(step(report, 'list').message).toBe('answered with 1 of 1.234 employees (tenant demo-tenant)')
    // 'system': the computer's regional formats, as the rest of the app writes numbers.
    const system = await checkProfileConnection(DEFAULT_SETTINGS, {
      fetch: fakeService(time.advance).fetch,
      clock: time.clock,
      probes: fakeProbes(time.advance),
      demo,
      tokens: new FakeTokens(),
      systemLocale: 'de_CH.UTF-8',
    })
    expect(step(system, 'list').message).toBe("answered with 1 of 1'234 employees (tenant demo-tenant)")
  })

  it('refuses a profile without a service address', async () => {
    const time = fakeClock()
    const settings = { ...DEFAULT_SETTINGS, environment: 'production' as const }
    await expect(
      checkProfileConnection(settings, {
        fetch: fakeService(time.advance).fetch,
        clock: time.clock,
        probes: fakeProbes(time.advance),
        demo,
      }),
    ).rejects.toMatchObject({ code: 'config' })
  })
})

describe('safeAddress', () => {
  it('drops credentials, query and fragment, and never echoes what it cannot read', () => {
    expect(safeAddress('https://u:p@payroll.example.com/api/?token=x#y')).toBe(
      'https://payroll.example.com/api',
    )
    expect(safeAddress('not a url with secret')).toBe('(an address RosterDesk cannot read)')
  })
})
