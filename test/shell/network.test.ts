import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { X509Certificate } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionReport, ProxySignInRequest } from '../../src/shared/connection-report'
import { ensureBuiltBundles } from '../helpers/built-bundles'
import { answerConsent } from '../helpers/consent'
import { testCertificates, type TestCertificates } from '../helpers/openssl-certificates'
import { startMainProcess, type MainProcess, killAndWait } from './main-process'

/**
 * The core process's network as the shipped bundles wire it, against the Electron stand-in (which behaves as
 * Electron 45's source says: test/shell/stand-in/utility-net.ts, proxy-rules.ts, electron-stand-in.ts): its
 * requests go through Electron's `net` in a session of its own, main answers its proxies' sign-in and nothing
 * else, the Settings' proxy reaches `setProxy`, and the verify proc trusts the profile's extra certificates.
 */

const CORE_PARTITION = 'rosterdesk-core-network'

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }
function value<T>(result: unknown): T {
  const r = result as Result<T>
  if (!r.ok) throw new Error(`IPC failed: ${r.error.code}: ${r.error.message}`)
  return r.value
}

const tempDirs: string[] = []
const running: MainProcess[] = []
const servers: Server[] = []
let certs: TestCertificates

function freshDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rosterdesk-shell-net-${prefix}-`))
  // Unpackaged, the shell keeps its data in `<folder>-development` beside it.
  tempDirs.push(dir, `${dir}-development`)
  return dir
}

function start(userData: string, args: readonly string[] = []): MainProcess {
  const main = startMainProcess({ userData, args })
  running.push(main)
  return main
}

/**
 * A forward proxy for plain HTTP on 127.0.0.1, recording what it was asked; with `credentials`, it asks for
 * them (Basic) before forwarding anything.
 */
async function startProxy(credentials?: { username: string; password: string }) {
  const seen: Array<{ method: string; url: string; authorized: boolean }> = []
  const expected =
    credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
  const server = createServer((request, response) => {
    const authorized = expected === undefined || request.headers['proxy-authorization'] === expected
    seen.push({ method: request.method ?? '', url: request.url ?? '', authorized })
    if (!authorized) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="RosterDesk test proxy"' }).end()
      return
    }
    const target = new URL(request.url ?? '')
    const headers = { ...request.headers }
    delete headers['proxy-authorization']
    const upstream = httpRequest(target, { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => response.writeHead(502).end())
    request.pipe(upstream)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { url: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}`, port, seen }
}

/**
 * Signs Demo in as the clerk's browser would (the consent page on its own connection). The browser's callback
 * page answers once the code exchange is over, which may first wait for the proxy's sign-in: `page` settles then.
 */
async function signIn(main: MainProcess): Promise<{ signingIn: Promise<unknown>; page: Promise<Response> }> {
  const signingIn = main.invoke('auth:sign-in')
  const authorizeUrl = await main.nextOpenExternal()
  const callback = await answerConsent(authorizeUrl, 'approve')
  return { signingIn, page: fetch(callback) }
}

async function syncToEnd(main: MainProcess): Promise<{ status: string; errorCode?: string; stored: number }> {
  const { runId } = value<{ runId: number }>(await main.invoke('sync:start'))
  return (await main.waitForEvent(
    'sync:finished',
    (payload) => (payload as { id?: unknown }).id === runId,
  )) as { status: string; errorCode?: string; stored: number }
}

beforeAll(async () => {
  await ensureBuiltBundles()
  certs = testCertificates()
  certs.ca('inspect', 'RosterDesk Test Inspection CA')
  certs.ca('other', 'Someone Else CA')
  certs.leaf('leaf', 'inspect', 'payroll.example.com')
  certs.leaf('stranger', 'other', 'payroll.example.com')
}, 180_000)

afterEach(async () => {
  await killAndWait(running.splice(0))
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    }),
  )
})

afterAll(() => {
  certs.remove()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

describe('the core process’s network', () => {
  it('sends every service request through Electron’s net, in an in-memory session of its own', async () => {
    const main = start(freshDir('net'))
    await main.windowReady()
    const forked = (await main.snapshot()).utilityProcesses
    expect(forked).toHaveLength(1)
    expect(forked[0]).toMatchObject({ session: CORE_PARTITION, respondToAuthRequestsFromMainProcess: true })

    const { signingIn, page } = await signIn(main)
    expect((await page).status).toBe(200)
    expect(value<{ status: string }>(await signingIn).status).toBe('signed-in')
    const summary = await syncToEnd(main)
    expect(summary.status).toBe('complete')

    const state = await main.snapshot()
    const session = state.sessions.find((s) => s.partition === CORE_PARTITION)
    // No `persist:` prefix: Electron keeps that session in memory (docs/api/utility-process.md, `partition`).
    expect(CORE_PARTITION.startsWith('persist:')).toBe(false)
    expect(session).toMatchObject({ verifyProc: true, proxyConfigs: [{ mode: 'system' }] })
    const paths = state.netRequests.map((r) => `${r.method} ${new URL(r.url).pathname}`)
    expect(paths).toContain('POST /openapi/oauthv1/token')
    expect(paths.filter((path) => path === 'GET /employees/list').length).toBeGreaterThan(0)
    expect(state.netRequests.every((r) => r.partition === CORE_PARTITION && r.route === 'DIRECT')).toBe(true)

    // The OS says offline: the sync fails at once with 'offline', sending nothing.
    const before = state.netRequests.length
    await main.setOnline(false)
    const offline = await syncToEnd(main)
    expect(offline).toMatchObject({ status: 'failed', errorCode: 'offline' })
    expect((await main.snapshot()).netRequests).toHaveLength(before)
  })

  it('applies the Settings’ proxy with setProxy and answers its sign-in, remembered or typed in the window', async () => {
    const proxy = await startProxy({ username: 'clerk', password: 'pa55-word' })
    const userData = freshDir('proxy')
    const main = start(userData)
    await main.windowReady()
    // The Demo sandbox is on loopback, which Chromium never proxies unless told `<-loopback>`.
    // The clerk confirms the new address in main's dialog (issue 31, point 2).
    await main.answerMessageBoxes(0)
    value(
      await main.invoke('settings:update', {
        proxyMode: 'fixed',
        proxyUrl: proxy.url,
        proxyBypass: '<-loopback>',
      }),
    )
    await expect
      .poll(async () =>
        (await main.snapshot()).sessions.find((s) => s.partition === CORE_PARTITION)?.proxyConfigs.at(-1),
      )
      .toEqual({ mode: 'fixed_servers', proxyRules: proxy.url, proxyBypassRules: '<-loopback>' })

    // The code exchange meets the proxy's 407: the window is asked, and the clerk's answer goes to the proxy.
    const { signingIn, page } = await signIn(main)
    const question = (await main.waitForEvent('network:proxy-sign-in')) as ProxySignInRequest
    expect(question).toMatchObject({
      proxy: proxy.hostPort,
      realm: 'RosterDesk test proxy',
      scheme: 'basic',
      retry: false,
    })
    expect(
      value<boolean>(
        await main.invoke('network:answer-proxy-sign-in', question.id, {
          username: 'clerk',
          password: 'pa55-word',
          remember: true,
        }),
      ),
    ).toBe(true)
    expect((await page).status).toBe(200)
    expect(value<{ status: string }>(await signingIn).status).toBe('signed-in')
    // Main's channel is sender-checked and validated like every other: a page elsewhere, or a malformed answer,
    // is refused before the sign-in sees it.
    const window = await main.windowReady()
    const answer = { username: 'mallory', password: 'x', remember: true }
    const foreign = { webContentsId: window.id, frameUrl: 'https://evil.example/' }
    expect(await main.invokeFrom(foreign, 'network:answer-proxy-sign-in', question.id, answer)).toMatchObject(
      {
        ok: false,
        error: { code: 'validation' },
      },
    )
    expect(await main.invoke('network:answer-proxy-sign-in', question.id, { username: '' })).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    })
    expect((await syncToEnd(main)).status).toBe('complete')
    const listed = proxy.seen.filter(
      (seen) => seen.authorized && new URL(seen.url).pathname === '/employees/list',
    )
    expect(listed.length).toBeGreaterThan(0)
    expect(
      value<{ rememberedProxies: string[] }>(await main.invoke('settings:get')).rememberedProxies,
    ).toEqual([proxy.hostPort])
    const report = value<ConnectionReport>(await main.invoke('network:check'))
    expect(report.steps.find((step) => step.id === 'proxy')).toMatchObject({ state: 'ok' })
    expect(report.steps.find((step) => step.id === 'proxy')?.message).toContain(proxy.hostPort)

    // A server's own challenge (not a proxy) is cancelled by main's handler.
    expect(
      await main.emitLogin({
        isProxy: false,
        scheme: 'basic',
        host: 'payroll.example.com',
        port: 443,
        realm: 'x',
      }),
    ).toBe('cancelled')
    const { logins } = await main.snapshot()
    expect(logins.map((login) => [login.authInfo.isProxy, login.answer, login.username])).toEqual([
      [true, 'credentials', 'clerk'],
      [false, 'cancelled', undefined],
    ])
    await main.quit()
    expect((await main.exited).code).toBe(0)

    // Started again (the Demo sandbox too, at a new address, so Demo signs in again): the remembered sign-in
    // answers the proxy's first challenge, and the window is not asked.
    const again = start(userData)
    await again.windowReady()
    const second = await signIn(again)
    expect((await second.page).status).toBe(200)
    expect(value<{ status: string }>(await second.signingIn).status).toBe('signed-in')
    expect((await syncToEnd(again)).status).toBe('complete')
    const state = await again.snapshot()
    expect(state.logins.map((login) => [login.answer, login.username])).toEqual([['credentials', 'clerk']])
    expect(state.sent.filter((sent) => sent.channel === 'network:proxy-sign-in')).toEqual([])
    expect(
      value<{ rememberedProxies: string[] }>(
        await again.invoke('network:forget-proxy-password', proxy.hostPort),
      ).rememberedProxies,
    ).toEqual([])
    // The core process never sees the password: it is nowhere in the log.
    const log = readFileSync(join(userData, 'logs', 'main.log'), 'utf8')
    expect(log).not.toContain('pa55-word')
  })

  it('lets Chromium’s proxy switches on the command line win over the profile’s choice', async () => {
    const proxy = await startProxy()
    const main = start(freshDir('switches'), [
      `--proxy-server=${proxy.url}`,
      '--proxy-bypass-list=<-loopback>',
    ])
    await main.windowReady()
    // The profile says "no proxy": the command line is stronger (network-settings.ts, effectiveProxyChoice).
    value(await main.invoke('settings:update', { proxyMode: 'none' }))
    const configs = async () =>
      (await main.snapshot()).sessions.find((s) => s.partition === CORE_PARTITION)?.proxyConfigs
    await expect
      .poll(configs)
      .toEqual([{ mode: 'fixed_servers', proxyRules: proxy.url, proxyBypassRules: '<-loopback>' }])
    // Test connection's requests to the Demo sandbox went through the proxy, which Electron says it resolved.
    const report = value<ConnectionReport>(await main.invoke('network:check'))
    expect(report.steps.find((step) => step.id === 'proxy')?.message).toContain(proxy.hostPort)
    expect(report.steps.filter((step) => step.id === 'authorize' || step.id === 'token')).toMatchObject([
      { state: 'ok' },
      { state: 'ok' },
    ])
    const paths = proxy.seen.map((seen) => `${seen.method} ${new URL(seen.url).pathname}`)
    expect(paths).toContain('POST /openapi/oauthv1/token')
  })

  it('puts the machine policy’s proxy over the command line’s switches and the profile (decision 042)', async () => {
    const switched = await startProxy()
    const policyProxy = await startProxy()
    const dir = freshDir('policy')
    const policyFile = join(dir, 'policy.json')
    writeFileSync(policyFile, JSON.stringify({ network: { proxyMode: 'fixed', proxyUrl: policyProxy.url } }))
    const main = startMainProcess({
      userData: dir,
      args: [`--proxy-server=${switched.url}`],
      // Run from source (not packaged): only then is ROSTERDESK_POLICY_FILE read.
      packaged: false,
      env: { ROSTERDESK_POLICY_FILE: policyFile },
    })
    running.push(main)
    await main.windowReady()
    const configs = async () =>
      (await main.snapshot()).sessions.find((s) => s.partition === CORE_PARTITION)?.proxyConfigs?.at(-1)
    await expect
      .poll(configs)
      .toEqual({ mode: 'fixed_servers', proxyRules: policyProxy.url, proxyBypassRules: '' })
    // The clerk cannot change it: the core refuses, naming the organisation.
    const refused = (await main.invoke('settings:update', { proxyMode: 'none' })) as Result<unknown>
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } })
    expect(JSON.stringify(refused)).toContain('Set by your organisation')
    main.kill()

    // A packaged app never reads ROSTERDESK_POLICY_FILE: the switch is in force again.
    const packaged = startMainProcess({
      userData: freshDir('policy-packaged'),
      args: [`--proxy-server=${switched.url}`],
      env: { ROSTERDESK_POLICY_FILE: policyFile },
    })
    running.push(packaged)
    await packaged.windowReady()
    await expect
      .poll(async () =>
        (await packaged.snapshot()).sessions
          .find((s) => s.partition === CORE_PARTITION)
          ?.proxyConfigs?.at(-1),
      )
      .toEqual({ mode: 'fixed_servers', proxyRules: switched.url, proxyBypassRules: '' })
  })

  it('ends a request whose proxy sign-in the clerk cancels with the proxy-auth error', async () => {
    const proxy = await startProxy({ username: 'clerk', password: 'pa55-word' })
    const main = start(freshDir('cancel'))
    await main.windowReady()
    // The clerk confirms the new address in main's dialog (issue 31, point 2).
    await main.answerMessageBoxes(0)
    value(
      await main.invoke('settings:update', {
        proxyMode: 'fixed',
        proxyUrl: proxy.url,
        proxyBypass: '<-loopback>',
      }),
    )
    const checking = main.invoke('network:check')
    // Each request of the check meets the proxy's 407 and the window asks; the clerk cancels every time.
    const answered = new Set<string>()
    let done = false
    void checking.finally(() => (done = true))
    while (!done) {
      const question = (await Promise.race([
        main.waitForEvent(
          'network:proxy-sign-in',
          (payload) => !answered.has((payload as ProxySignInRequest).id),
        ),
        checking.then(() => undefined),
      ])) as ProxySignInRequest | undefined
      if (question === undefined) break
      answered.add(question.id)
      expect(value<boolean>(await main.invoke('network:answer-proxy-sign-in', question.id, null))).toBe(true)
    }
    const report = value<ConnectionReport>(await checking)
    expect(report.steps.find((step) => step.id === 'authorize')).toMatchObject({
      state: 'failed',
      code: 'proxy-auth',
    })
    expect(answered.size).toBeGreaterThan(0)
    expect((await main.snapshot()).logins.every((login) => login.answer === 'cancelled')).toBe(true)
  })

  it('trusts a chain issued by the chosen extra certificates, refuses others, and checks the file chosen', async () => {
    const main = start(freshDir('certs'))
    await main.windowReady()
    const notPem = join(certs.dir, 'notes.txt')
    writeFileSync(notPem, 'not a certificate')
    await main.setOpenPath(notPem)
    const refused = (await main.invoke('network:choose-certificates')) as Result<unknown>
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } })
    expect(!refused.ok && refused.error.message).toMatch(/holds no certificate in PEM form/)

    // A share main would read over SMB is refused before anything opens it (issue 31, point 2).
    await main.setOpenPath('\\\\attacker\\share\\ca.pem')
    expect(await main.invoke('network:choose-certificates')).toMatchObject({
      ok: false,
      error: { code: 'validation', message: expect.stringMatching(/must be on this computer/) },
    })

    await main.setOpenPath(join(certs.dir, 'inspect.pem'))
    const view = value<{ settings: { extraCertificatesFile: string } }>(
      await main.invoke('network:choose-certificates'),
    )
    // The window is told the file's name, never a path it could send back.
    expect(view.settings.extraCertificatesFile).toBe('inspect.pem')

    const presented = (name: string, issuerName: string) => {
      const x509 = new X509Certificate(certs.pem(name))
      return {
        data: certs.pem(name),
        subjectName: 'payroll.example.com',
        issuerName,
        validStart: Date.parse(x509.validFrom) / 1000,
        validExpiry: Date.parse(x509.validTo) / 1000,
        fingerprint: `sha256/${x509.fingerprint256}`,
      }
    }
    const request = (name: string, issuerName: string) => ({
      hostname: 'payroll.example.com',
      certificate: presented(name, issuerName),
      validatedCertificate: presented(name, issuerName),
      isIssuedByKnownRoot: false,
      verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID',
      errorCode: -202,
    })
    // The file vouches for the profile's service host alone (and its proxy). The clerk confirms the new address.
    await main.answerMessageBoxes(0)
    value(
      await main.invoke('settings:update', {
        environment: 'staging',
        baseUrls: { staging: 'https://payroll.example.com', production: '' },
      }),
    )
    // The settings reach main through the core process: wait until the session trusts the file.
    await expect
      .poll(() => main.verifyCertificate(CORE_PARTITION, request('leaf', 'RosterDesk Test Inspection CA')))
      .toBe(0)
    expect(await main.verifyCertificate(CORE_PARTITION, request('stranger', 'Someone Else CA'))).toBe(-3)
  })
})
