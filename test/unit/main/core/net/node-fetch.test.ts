import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  classifyNetworkFailure,
  networkFailureReason,
} from '../../../../../src/main/core/net/network-failure'
import { createNodeFetch, type NodeFetch } from '../../../../../src/main/core/net/node-fetch'
import { resolveNodeNetwork, type NetworkLayer } from '../../../../../src/main/core/net/network-options'
import type { SandboxHandle } from '../../../../../src/main/sandbox/index'
import { startForwardProxy, type ForwardProxy } from '../../../../helpers/forward-proxy'
import { startHttpsTestSandbox, startTestSandbox } from '../../../../helpers/sandbox'
import { testCertificates } from '../../../../helpers/openssl-certificates'
import { createTestCa, EXTRA_SERVER_NAME, type TestCa } from '../../../../helpers/test-ca'

const LIST = '/employees/list?page=1&limit=1'

describe('createNodeFetch against real servers on 127.0.0.1', () => {
  let ca: TestCa
  let good: SandboxHandle
  const opened: Array<NodeFetch | SandboxHandle | ForwardProxy> = []

  beforeAll(async () => {
    ca = createTestCa()
    good = await startHttpsTestSandbox(ca.server, { size: 5 })
  })
  afterAll(async () => {
    await good.close()
    ca.cleanup()
  })
  afterEach(async () => {
    for (const item of opened.splice(0)) await item.close()
  })

  /** The fetch of a CLI command whose service is at `serviceHost` (the file vouches for that host alone). */
  const open = (flags: NetworkLayer, env: NodeJS.ProcessEnv = {}, serviceHost = '127.0.0.1'): NodeFetch => {
    const fetch = createNodeFetch(resolveNodeNetwork({ flags, env }), { serviceHost })
    opened.push(fetch)
    return fetch
  }
  const proxy = async (options: Parameters<typeof startForwardProxy>[0] = {}): Promise<ForwardProxy> => {
    const started = await startForwardProxy(options)
    opened.push(started)
    return started
  }
  const failure = async (
    fetch: NodeFetch,
    url: string,
  ): Promise<ReturnType<typeof classifyNetworkFailure>> => {
    try {
      await fetch.fetch(url)
    } catch (error) {
      return classifyNetworkFailure(error, { what: 'the payroll service', url })
    }
    throw new Error(`${url} answered`)
  }

  it('reads past 103 Early Hints and an unasked 100 Continue, and fails on 64 KB+ of headers', async () => {
    const plain = await startTestSandbox({ size: 5 })
    opened.push(plain)
    const fetch = open({})
    const url = `${plain.baseUrl}/employees/list?page=1&limit=5`
    const headers = { authorization: `Bearer ${plain.issueTokens().accessToken}` }
    for (const fault of ['early-hints-first', 'continue-first'] as const) {
      plain.setBehaviours({ pageAnswer: { page: 1, fault } })
      const response = await fetch.fetch(url, { headers, redirect: 'manual' })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(((await response.json()) as { currentPage: number }).currentPage).toBe(1)
    }
    // undici refused the 100 Continue, so the page was asked for again, past it: twice in all.
    plain.setBehaviours({ pageAnswer: { page: 1, fault: 'continue-first' } })
    const asked = plain.stats().listPages['1'] ?? 0
    await (await fetch.fetch(url, { headers })).arrayBuffer()
    expect((plain.stats().listPages['1'] ?? 0) - asked).toBe(2)

    plain.setBehaviours({ pageAnswer: { page: 1, fault: 'huge-headers' } })
    const huge = await fetch.fetch(url, { headers }).then(
      () => new Error('huge-headers answered'),
      (error: unknown) => error,
    )
    expect(networkFailureReason(huge)).toBe('UND_ERR_HEADERS_OVERFLOW')
    expect(classifyNetworkFailure(huge, { what: 'the payroll service', url }).message).toMatch(
      /headers larger than RosterDesk reads/,
    )
  })

  it('reads past an unasked 100 Continue through a proxy’s CONNECT tunnel, with the proxy’s credentials', async () => {
    const served = await startHttpsTestSandbox(ca.server, { size: 5 })
    opened.push(served)
    served.setBehaviours({ pageAnswer: { page: 1, fault: 'continue-first' } })
    const forward = await proxy({ credentials: { user: 'clerk', password: 'right' } })
    const env = { ROSTERDESK_PROXY_USER: 'clerk', ROSTERDESK_PROXY_PASSWORD: 'right' }
    const fetch = open({ proxy: forward.url, caFile: ca.caFile }, env)
    const response = await fetch.fetch(`${served.baseUrl}/employees/list?page=1&limit=5`, {
      headers: { authorization: `Bearer ${served.issueTokens().accessToken}` },
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { rows: unknown[] }).rows).toHaveLength(5)
    expect(forward.requests.map((request) => [request.kind, request.credentials])).toEqual([
      ['connect', 'right'],
      ['connect', 'right'],
    ])
  })

  it('refuses a certificate from an unknown CA, naming its issuer, and trusts it with --ca-file', async () => {
    const error = await failure(open({}), `${good.baseUrl}${LIST}`)
    expect(error).toMatchObject({ code: 'certificate', retryable: false })
    expect(error.message).toContain(`is not trusted (issued by ${ca.issuerName})`)
    expect(error.message).toContain('--ca-file')
    const response = await open({ caFile: ca.caFile }).fetch(`${good.baseUrl}${LIST}`)
    // No token: the service answers 401, which is an answer.
    expect(response.status).toBe(401)
  })

  it('trusts the --ca-file for the service’s host only, and OpenSSL refuses a non-CA issuer from it', async () => {
    // The same server, reached as the service and as another host (its certificate names both).
    const port = new URL(good.baseUrl).port
    expect(
      (await open({ caFile: ca.caFile }, {}, 'localhost').fetch(`https://localhost:${port}${LIST}`)).status,
    ).toBe(401)
    const other = await failure(open({ caFile: ca.caFile }, {}, 'localhost'), `${good.baseUrl}${LIST}`)
    expect(other).toMatchObject({ code: 'certificate' })
    expect(other.message).toContain(`is not trusted (issued by ${ca.issuerName})`)
    // A leaf issued by a certificate of the file that is no CA: OpenSSL's own path validation refuses it.
    const certs = testCertificates()
    try {
      certs.ca('root', 'Company Root CA')
      certs.issue('not-ca', 'root', 'Helpdesk laptop', 'basicConstraints=CA:FALSE')
      certs.issue('leaf', 'not-ca', '127.0.0.1', 'subjectAltName=IP:127.0.0.1')
      const file = join(certs.dir, 'file.pem')
      writeFileSync(file, `${certs.pem('root')}${certs.pem('not-ca')}`)
      const key = readFileSync(join(certs.dir, 'leaf.key'), 'utf8')
      const served = await startHttpsTestSandbox({ cert: certs.pem('leaf'), key }, { size: 1 })
      opened.push(served)
      const refused = await failure(open({ caFile: file }), `${served.baseUrl}${LIST}`)
      expect(refused).toMatchObject({
        code: 'certificate',
        detail: expect.stringMatching(/^INVALID_PURPOSE;/),
      })
    } finally {
      certs.remove()
    }
  })

  it('says an expired certificate and one for another host name as such', async () => {
    const expired = await startHttpsTestSandbox(ca.expired, { size: 1 })
    opened.push(expired)
    const old = await failure(open({ caFile: ca.caFile }), `${expired.baseUrl}${LIST}`)
    expect(old).toMatchObject({ code: 'certificate', detail: expect.stringMatching(/^CERT_HAS_EXPIRED/) })
    expect(old.message).toMatch(/has expired \(valid until .*\) or is not valid yet/)
    const elsewhere = await startHttpsTestSandbox(ca.wrongHost, { size: 1 })
    opened.push(elsewhere)
    const wrong = await failure(open({ caFile: ca.caFile }), `${elsewhere.baseUrl}${LIST}`)
    expect(wrong).toMatchObject({ code: 'certificate' })
    expect(wrong.message).toMatch(
      /^The certificate presented for 127\.0\.0\.1 is for another host name \(wrong-host\.example, issued by RosterDesk Test Root CA/,
    )
  })

  it('goes through an authenticating proxy with the environment URL’s credentials, to a host only it resolves', async () => {
    const forward = await proxy({
      credentials: { user: 'clerk', password: 'pa:ss@word' },
      hosts: { [EXTRA_SERVER_NAME]: '127.0.0.1' },
    })
    const url = `https://${EXTRA_SERVER_NAME}:${new URL(good.baseUrl).port}${LIST}`
    const proxyUrl = `http://clerk:${encodeURIComponent('pa:ss@word')}@127.0.0.1:${forward.port}`
    const response = await open({ caFile: ca.caFile }, { HTTPS_PROXY: proxyUrl }, EXTRA_SERVER_NAME).fetch(
      url,
    )
    expect(response.status).toBe(401)
    expect(forward.requests).toEqual([
      expect.objectContaining({
        kind: 'connect',
        target: `${EXTRA_SERVER_NAME}:${new URL(good.baseUrl).port}`,
        credentials: 'right',
      }),
    ])
  })

  it('tells a proxy that wants credentials from one that refused them, naming the proxy only', async () => {
    const forward = await proxy({ credentials: { user: 'clerk', password: 'right' } })
    const url = `${good.baseUrl}${LIST}`
    const none = await failure(open({ proxy: forward.url, caFile: ca.caFile }), url)
    expect(none).toMatchObject({ code: 'proxy-auth', retryable: false })
    expect(none.message).toMatch(
      new RegExp(`^The proxy 127\\.0\\.0\\.1:${forward.port} asks for a user name and password`),
    )
    const env = { ROSTERDESK_PROXY_USER: 'clerk', ROSTERDESK_PROXY_PASSWORD: 'wrong-secret' }
    const wrong = await failure(open({ proxy: forward.url, caFile: ca.caFile }, env), url)
    expect(wrong.message).toMatch(/refused the user name and password given/)
    expect(`${wrong.message} ${wrong.detail ?? ''}`).not.toContain('wrong-secret')
    expect(forward.requests.map((request) => request.credentials)).toEqual(['none', 'wrong'])
  })

  it('goes direct for a NO_PROXY host, and forwards plain HTTP through the proxy as requests it sees', async () => {
    const forward = await proxy()
    const env = { HTTPS_PROXY: forward.url, HTTP_PROXY: forward.url, NO_PROXY: '127.0.0.1' }
    const response = await open({ caFile: ca.caFile }, env).fetch(`${good.baseUrl}${LIST}`)
    expect(response.status).toBe(401)
    expect(forward.requests).toEqual([])
    const plain = await startTestSandbox({ size: 1 })
    opened.push(plain)
    const through = await open({}, { HTTP_PROXY: forward.url }).fetch(`${plain.baseUrl}${LIST}`)
    expect(through.status).toBe(401)
    expect(forward.requests).toEqual([
      expect.objectContaining({ kind: 'http', method: 'GET', url: `${plain.baseUrl}${LIST}` }),
    ])
  })

  it('puts a refused connection to the proxy on the proxy', async () => {
    const forward = await startForwardProxy()
    await forward.close()
    const error = await failure(open({ proxy: forward.url, caFile: ca.caFile }), `${good.baseUrl}${LIST}`)
    expect(error).toMatchObject({ code: 'connection-refused', retryable: true })
    expect(error.message).toMatch(
      new RegExp(`^The connection to the proxy 127\\.0\\.0\\.1:${forward.port} was refused`),
    )
  })
})
