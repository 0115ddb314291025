import { describe, expect, it } from 'vitest'
import { useTestSandbox } from '../../../helpers/sandbox'
import { authorizeUrl, consentRequestId, decide } from '../../../helpers/sandbox-requests'

const CUSTOM = 'com.rosterdesk.app:/oauth/callback'
const LOOPBACK = 'http://127.0.0.1/callback'
const LOCALHOST = 'http://localhost/cb'
const WITH_QUERY = 'https://app.example/return?from=sandbox'

describe('GET/POST /openapi/oauthv1/authorize (spec §4.1, §5)', () => {
  const sandbox = useTestSandbox({ redirectUris: [CUSTOM, LOOPBACK, LOCALHOST, WITH_QUERY] })
  const open = (overrides: Record<string, string | null>) =>
    fetch(authorizeUrl(sandbox(), overrides), { redirect: 'manual' })
  const redirectParams = (response: Response) => {
    expect(response.status).toBe(302)
    return new URL(response.headers.get('location') ?? 'missing:').searchParams
  }
  const expectErrorPage = async (response: Response) => {
    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await response.text()).toContain('<h1>')
  }

  it('shows an error page, never a redirect, for an unknown clientId', async () => {
    await expectErrorPage(await open({ clientId: 'someone-else' }))
  })

  it('shows an error page for a missing clientId', async () => {
    await expectErrorPage(await open({ clientId: null }))
  })

  it('shows an error page for an unregistered redirectUri', async () => {
    await expectErrorPage(await open({ redirectUri: 'https://evil.example/callback' }))
  })

  it('shows an error page for a missing redirectUri', async () => {
    await expectErrorPage(await open({ redirectUri: null }))
  })

  it('accepts a registered loopback redirect URI on any port (RFC 8252 §7.3)', async () => {
    expect((await open({ redirectUri: 'http://127.0.0.1:54321/callback' })).status).toBe(200)
    expect((await open({ redirectUri: 'http://localhost:8/cb' })).status).toBe(200)
  })

  it('matches loopback URIs on host, path and scheme exactly', async () => {
    for (const redirectUri of [
      'http://127.0.0.1:54321/other',
      'https://127.0.0.1:54321/callback',
      'http://localhost:54321/callback',
      'http://127.0.0.1.evil.example/callback',
      'http://127.0.0.1:54321/callback/../callback',
    ]) {
      await expectErrorPage(await open({ redirectUri }))
    }
  })

  it('matches other redirect URIs exactly', async () => {
    await expectErrorPage(await open({ redirectUri: `${CUSTOM}/` }))
    await expectErrorPage(await open({ redirectUri: 'com.rosterdesk.app:/oauth/CALLBACK' }))
  })

  it('redirects with error=unsupported_response_type when responseType is not code', async () => {
    const params = redirectParams(await open({ responseType: 'token' }))
    expect(params.get('error')).toBe('unsupported_response_type')
    expect(params.get('state')).toBe('state-123')
  })

  it('redirects with error=invalid_request when state is missing', async () => {
    const params = redirectParams(await open({ state: null }))
    expect(params.get('error')).toBe('invalid_request')
    expect(params.get('state')).toBeNull()
  })

  it('redirects with error=invalid_request when scope is missing', async () => {
    expect(redirectParams(await open({ scope: null })).get('error')).toBe('invalid_request')
  })

  it('redirects with error=invalid_scope for a scope other than read and write', async () => {
    const params = redirectParams(await open({ scope: 'read admin' }))
    expect(params.get('error')).toBe('invalid_scope')
    expect(params.get('state')).toBe('state-123')
  })

  it('accepts scopes separated by spaces or by commas', async () => {
    expect((await open({ scope: 'read write' })).status).toBe(200)
    expect((await open({ scope: 'read,write' })).status).toBe(200)
    expect((await open({ scope: 'write, read' })).status).toBe(200)
  })

  it('shows a consent page naming the app, client id and scopes but not the secret', async () => {
    const response = await open({ scope: 'read,write' })
    const html = await response.text()
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(html).toContain('RosterDesk Demo wants to read employee data')
    expect(html).toContain(sandbox().credentials.clientId)
    expect(html).toMatch(/<strong>read<\/strong>/)
    expect(html).toMatch(/<strong>write<\/strong>/)
    expect(html).not.toContain(sandbox().credentials.clientSecret)
  })

  it('has Approve and Deny buttons in a form posting only an opaque request id', async () => {
    const html = await (await open({ state: 'visible-state' })).text()
    expect(html).toMatch(/<form method="post" action="\/openapi\/oauthv1\/authorize">/)
    expect(html).toMatch(/<button[^>]*>Approve<\/button>/)
    expect(html).toMatch(/<button[^>]*>Deny<\/button>/)
    expect(html.match(/<input /g)).toHaveLength(1)
    expect(consentRequestId(html)).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(html).not.toContain('visible-state')
  })

  it('loads nothing from outside the page', async () => {
    const html = await (await open({})).text()
    expect(html).not.toMatch(/\b(src|href)=/)
  })

  it('redirects to redirectUri with code and the original state on Approve', async () => {
    const response = await decide(sandbox(), 'approve', { state: 'a b&c=d/é' })
    const location = response.headers.get('location') ?? ''
    expect(location.startsWith(`${CUSTOM}?code=`)).toBe(true)
    const params = redirectParams(response)
    expect(params.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(params.get('state')).toBe('a b&c=d/é')
  })

  it('redirects to the loopback URI with the port the app used', async () => {
    const response = await decide(sandbox(), 'approve', { redirectUri: 'http://127.0.0.1:61234/callback' })
    expect(response.headers.get('location')).toMatch(
      /^http:\/\/127\.0\.0\.1:61234\/callback\?code=[^&]+&state=state-123$/,
    )
  })

  it('appends code and state with & when the redirect URI already has a query', async () => {
    const response = await decide(sandbox(), 'approve', { redirectUri: WITH_QUERY })
    expect(response.headers.get('location')).toMatch(
      /^https:\/\/app\.example\/return\?from=sandbox&code=[^&]+&state=state-123$/,
    )
  })

  it('issues a different code each time', async () => {
    const first = redirectParams(await decide(sandbox(), 'approve')).get('code')
    const second = redirectParams(await decide(sandbox(), 'approve')).get('code')
    expect(first).not.toBe(second)
  })

  it('redirects with error=access_denied and the state on Deny', async () => {
    const response = await decide(sandbox(), 'deny')
    expect(response.headers.get('location')).toBe(
      `${CUSTOM}?error=access_denied&error_description=The+user+denied+access&state=state-123`,
    )
  })

  it('accepts each consent request only once', async () => {
    const requestId = consentRequestId(await (await open({})).text())
    const post = () =>
      fetch(`${sandbox().baseUrl}/openapi/oauthv1/authorize`, {
        method: 'POST',
        body: new URLSearchParams({ requestId, decision: 'approve' }),
        redirect: 'manual',
      })
    expect((await post()).status).toBe(302)
    await expectErrorPage(await post())
  })

  it('refuses a made-up consent request id', async () => {
    const response = await fetch(`${sandbox().baseUrl}/openapi/oauthv1/authorize`, {
      method: 'POST',
      body: new URLSearchParams({ requestId: 'forged', decision: 'approve' }),
      redirect: 'manual',
    })
    await expectErrorPage(response)
  })

  it('refuses a clientId given twice', async () => {
    await expectErrorPage(await fetch(`${authorizeUrl(sandbox())}&clientId=x`, { redirect: 'manual' }))
  })
})
