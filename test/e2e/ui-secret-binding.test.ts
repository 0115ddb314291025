import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import type { IpcResult } from '../../src/shared/ipc-contract'
import type { AppUnderTest } from '../helpers/harness'
import { useUiSession } from '../helpers/harness/ui-session'

/**
 * Issue 31, point 2, its acceptance line: the renderer cannot make the core send the client secret to a second
 * address. The built renderer in Chromium over the real app core (the harness runs the core's own settings
 * handler; main's confirmation is not there, so the change is accepted here and the binding alone must hold). A
 * page that calls the bridge as a compromised renderer would moves the service address to a second service that
 * records every request, then asks for a sign-in, a sync (a token refresh) and Test connection: the second service
 * must never see the client secret.
 */

interface Recorded {
  readonly method: string
  readonly url: string
  readonly headers: string
  readonly body: string
}

/**
 * The attacker's service: its authorize endpoint sends the browser straight back to the redirect URI with a code
 * (as if the clerk had approved), its token endpoints answer tokens; every request is recorded whole.
 */
async function startRecordingService(): Promise<{
  baseUrl: string
  seen: Recorded[]
  close(): Promise<void>
}> {
  const seen: Recorded[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: JSON.stringify(request.headers),
        body: Buffer.concat(chunks).toString('utf8'),
      })
      if (url.pathname === '/openapi/oauthv1/authorize') {
        const back = new URL(url.searchParams.get('redirectUri') ?? '')
        back.searchParams.set('code', 'code-from-the-second-service')
        back.searchParams.set('state', url.searchParams.get('state') ?? '')
        response.writeHead(302, { location: back.toString() }).end()
        return
      }
      if (url.pathname.endsWith('/token')) {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(
          JSON.stringify({ accessToken: 'stolen-access', refreshToken: 'stolen-refresh', expiresIn: 3600 }),
        )
        return
      }
      response.writeHead(404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const session = useUiSession({ sandbox: { size: 50, seed: 31 }, setupTimeoutMs: 120_000 })
let sandbox: SandboxHandle
let app: AppUnderTest
let page: Page
let second: Awaited<ReturnType<typeof startRecordingService>>

beforeAll(async () => {
  ;({ sandbox, app, page } = session())
  second = await startRecordingService()
})
afterAll(async () => {
  await second?.close()
})

/** What a compromised renderer can do: call the bridge with any channel and arguments. */
function invokeFromPage(channel: string, ...args: unknown[]): Promise<IpcResult<unknown>> {
  return page.evaluate(
    ([name, values]) =>
      (
        globalThis as unknown as {
          rosterdesk: { invoke(channel: string, ...args: unknown[]): Promise<IpcResult<unknown>> }
        }
      ).rosterdesk.invoke(name, ...values),
    [channel, args] as const,
  )
}

describe('the client secret goes only to the service it was entered for', () => {
  it('signs in to the first service with the stored secret', async () => {
    const { clientId, clientSecret, redirectUri } = sandbox.credentials
    expect(
      await invokeFromPage('settings:update', {
        environment: 'production',
        baseUrls: { production: sandbox.baseUrl },
        clientId,
        redirectUri,
      }),
    ).toMatchObject({ ok: true })
    expect(await invokeFromPage('settings:set-client-secret', clientSecret)).toMatchObject({
      ok: true,
      value: { hasClientSecret: true },
    })
    const signingIn = invokeFromPage('auth:sign-in')
    await app.approveSignIn()
    expect(await signingIn).toMatchObject({ ok: true, value: { status: 'signed-in' } })
  })

  it('sends nothing of it to a second address the renderer moves the profile to', async () => {
    const { clientSecret } = sandbox.credentials
    // Accepted here: the harness has no main, whose confirmation would ask the clerk first.
    const moved = await invokeFromPage('settings:update', { baseUrls: { production: second.baseUrl } })
    expect(moved).toMatchObject({ ok: true })

    const signIn = await invokeFromPage('auth:sign-in')
    // A sync and Test connection ask for a token (a refresh, were the tokens the second service's).
    await invokeFromPage('sync:start')
    await invokeFromPage('network:check')
    await expect.poll(() => app.core.sync.isRunning).toBe(false)

    expect(second.seen.filter((request) => JSON.stringify(request).includes(clientSecret))).toEqual([])
    // Test connection's made-up code goes there without any secret (service-steps.ts); no request names one.
    const tokenRequests = second.seen.filter((request) => request.url.includes('/token'))
    expect(tokenRequests.filter((request) => /clientSecret/i.test(request.body))).toEqual([])
    // The window is told there is no secret for this service, and sign-in asks for one.
    expect(moved).toMatchObject({ value: { hasClientSecret: false } })
    expect(signIn).toMatchObject({ ok: false, error: { code: 'config' } })
    expect(!signIn.ok && signIn.error.message).toBe('Enter the client secret in Settings before signing in.')
  })

  it('uses it again once the profile points back at its service', async () => {
    expect(
      await invokeFromPage('settings:update', { baseUrls: { production: sandbox.baseUrl } }),
    ).toMatchObject({ ok: true, value: { hasClientSecret: true } })
  })
})
