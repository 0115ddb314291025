import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionReport } from '../../src/shared/connection-report'
import type { UpdateState } from '../../src/shared/update-state'
import { DEFAULT_REDIRECT_URI } from '../../src/main/core/settings/settings-defaults'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { ensureBuiltBundles } from '../helpers/built-bundles'
import { startHttpsTestSandbox } from '../helpers/sandbox'
import { createTestCa, type TestCa } from '../helpers/test-ca'
import { killAndWait, startMainProcess, type MainProcess } from './main-process'

/**
 * Whom the extra certificates file vouches for, end to end in the shipped bundles on the Electron stand-in,
 * whose own TLS asks each session's verify proc after Chromium's verdict as Electron does (stand-in/tls-verify.ts):
 * the profile's service, served over https with a certificate only the file's CA vouches for, is reached by the
 * core; the update feed, served by the same host with a certificate of the same CA, is refused to the updater.
 */

const CORE_PARTITION = 'rosterdesk-core-network'
const UPDATER_PARTITION = 'electron-updater'

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }
function value<T>(result: unknown): T {
  const r = result as Result<T>
  if (!r.ok) throw new Error(`IPC failed: ${r.error.code}: ${r.error.message}`)
  return r.value
}

const tempDirs: string[] = []
let ca: TestCa
let sandbox: SandboxHandle
let feed: Server
let feedUrl: string
const feedAsked: string[] = []
let main: MainProcess | undefined

function freshDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rosterdesk-shell-cert-scope-${prefix}-`))
  tempDirs.push(dir)
  return dir
}

beforeAll(async () => {
  await ensureBuiltBundles()
  ca = createTestCa()
  sandbox = await startHttpsTestSandbox(ca.server, { size: 5, redirectUris: [DEFAULT_REDIRECT_URI] })
  feed = createServer({ cert: ca.server.cert, key: ca.server.key }, (request, response) => {
    feedAsked.push(request.url ?? '')
    response.writeHead(200, { 'content-type': 'text/yaml' }).end('version: 1.2.0\nfiles: []\npath: x.exe\n')
  })
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve))
  feedUrl = `https://127.0.0.1:${(feed.address() as AddressInfo).port}/`
}, 180_000)

afterAll(async () => {
  if (main !== undefined) await killAndWait([main])
  await sandbox?.close()
  feed?.closeAllConnections()
  await new Promise((resolve) => feed?.close(resolve))
  ca?.cleanup()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

describe('the extra certificates file, by session', () => {
  it('vouches for the profile’s service to the core, never for the update feed to the updater', async () => {
    const resources = freshDir('resources')
    writeFileSync(
      join(resources, 'app-update.yml'),
      // A signed build's (publisherName): an unsigned Windows build checks for no updates at all.
      `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: rosterdesk-updater\n` +
        'publisherName:\n  - CN=RosterDesk Test Publisher\n',
    )
    main = startMainProcess({
      userData: freshDir('data'),
      platform: 'win32',
      version: '1.3.0',
      resourcesPath: resources,
      env: { LOCALAPPDATA: freshDir('local') },
    })
    const app = main
    await app.windowReady()
    await app.answerMessageBoxes(0) // the clerk confirms the new service address (issue 31, point 2)
    value(
      await app.invoke('settings:update', {
        environment: 'staging',
        baseUrls: { staging: sandbox.baseUrl, production: '' },
        clientId: sandbox.credentials.clientId,
        redirectUri: DEFAULT_REDIRECT_URI,
        tenantId: sandbox.credentials.tenantId,
      }),
    )
    await app.setOpenPath(ca.caFile)
    value(await app.invoke('network:choose-certificates'))

    // The core reaches the service: the stand-in's TLS asked the core session's verify proc, which accepted.
    const report = value<ConnectionReport>(await app.invoke('network:check'))
    expect(report.steps.find((step) => step.id === 'authorize')).toMatchObject({ state: 'ok' })

    // The updater's check meets the same host with a certificate of the same CA: refused, nothing asked of it.
    const state = value<UpdateState>(await app.invoke('updates:check'))
    expect(state.status).toBe('failed')
    expect(feedAsked).toEqual([])

    const checks = (await app.snapshot()).certificateChecks
    expect(checks).toContainEqual({
      partition: CORE_PARTITION,
      hostname: '127.0.0.1',
      errorCode: -202,
      answer: 0,
    })
    const updater = checks.filter((check) => check.partition === UPDATER_PARTITION)
    expect(updater.length).toBeGreaterThan(0)
    expect(updater.every((check) => check.answer === -3 && check.errorCode === -202)).toBe(true)
  })
})
