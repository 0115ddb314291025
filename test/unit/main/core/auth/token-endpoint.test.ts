import { describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../../../src/main/core/api/fetch-like'
import {
  exchangeAuthorizationCode,
  RefreshRejectedError,
  refreshTokens,
} from '../../../../../src/main/core/auth/token-endpoint'
import { RosterDeskError } from '../../../../../src/main/core/errors'

const CREDENTIALS = {
  baseUrl: 'https://payroll.example',
  clientId: 'client-1',
  clientSecret: 'secret-1',
  redirectUri: 'com.rosterdesk.app:/oauth/callback',
}

/** A token endpoint answering every request with `answer()`, counting the requests. */
function endpoint(answer: () => Response): { fetch: FetchLike; calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    fetch: (async (url: string) => {
      calls.push(url)
      return answer()
    }) as FetchLike,
  }
}

async function failure(promise: Promise<unknown>): Promise<RosterDeskError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (error instanceof RosterDeskError) return error
  throw new Error(`expected a RosterDeskError, got ${String(error)}`)
}

const page = (title: string): Response =>
  new Response(`<!doctype html><title>${title}</title><p>x</p>`, {
    headers: { 'content-type': 'text/html' },
  })

describe('token answers worded as a sign-in (issue 32, point 8)', () => {
  it('a refresh answered 200 with invalid_grant and no token is refused as a 400 is: sign in again', async () => {
    for (const body of [{ error: 'invalid_grant' }, { code: 1, data: { error: 'invalid_grant' } }]) {
      const service = endpoint(() => Response.json(body))
      const error = await failure(refreshTokens(service.fetch, CREDENTIALS, 'refresh-0'))
      expect(error, JSON.stringify(body)).toBeInstanceOf(RefreshRejectedError)
      expect(error).toMatchObject({
        code: 'not-signed-in',
        message: 'Your sign-in has expired. Sign in again to continue.',
        detail: 'refresh refused with HTTP 200',
      })
      expect(service.calls).toHaveLength(1)
    }
  })

  it('a refresh answered 200 with invalid_client keeps the sign-in, as a 401 does', async () => {
    const service = endpoint(() => Response.json({ error: 'invalid_client' }))
    expect(await failure(refreshTokens(service.fetch, CREDENTIALS, 'refresh-0'))).toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/client ID or client secret.*your sign-in is kept/),
    })
  })

  it('a 200 that holds tokens is tokens, an error field beside them notwithstanding', async () => {
    const service = endpoint(() => Response.json({ access_token: 'a', error: 'none' }))
    expect(await refreshTokens(service.fetch, CREDENTIALS, 'refresh-0')).toEqual({ accessToken: 'a' })
  })

  it('a code exchange answered 200 with invalid_grant says the sign-in was not accepted', async () => {
    const service = endpoint(() => Response.json({ error: 'invalid_grant' }))
    expect(await failure(exchangeAuthorizationCode(service.fetch, CREDENTIALS, 'code'))).toMatchObject({
      code: 'auth',
      message:
        'The payroll service did not accept the sign-in (the code expired or was already used). Sign in again.',
    })
  })

  it('a refresh redirected (303, another origin or the same) says the renewal failed and to sign in again, once', async () => {
    for (const location of ['https://sso.example/login?continue=x', '/sso/login']) {
      const service = endpoint(() => new Response(null, { status: 303, headers: { location } }))
      const error = await failure(refreshTokens(service.fetch, CREDENTIALS, 'refresh-0'))
      expect(error, location).toMatchObject({
        code: 'auth',
        retryable: false,
        message:
          'The payroll service sent RosterDesk’s renewal of your sign-in to another page (HTTP 303), a single sign-on page perhaps, instead of renewing it. Sign in again to continue.',
      })
      expect(error.detail, location).toMatch(/^refresh: HTTP 303 redirect/)
      expect(service.calls).toHaveLength(1)
    }
    // A 308 elsewhere is a moved service: the redirect rule's own message names where (redirects.ts).
    const moved = endpoint(
      () => new Response(null, { status: 308, headers: { location: 'https://new.example/t' } }),
    )
    expect((await failure(refreshTokens(moved.fetch, CREDENTIALS, 'refresh-0'))).message).toContain(
      'redirected to https://new.example,',
    )
  })

  it('a code exchange answered with a web page or other text says the sign-in failed and to sign in again', async () => {
    const paged = endpoint(() => page('Service unavailable'))
    expect(await failure(exchangeAuthorizationCode(paged.fetch, CREDENTIALS, 'code'))).toMatchObject({
      code: 'auth',
      retryable: false,
      message:
        'The payroll service answered the sign-in with a web page titled “Service unavailable” instead of tokens, so the sign-in failed. Sign in again; if it happens again, send this message to your IT team.',
    })
    const text = endpoint(() => new Response('access_token=a&expires_in=3600', { status: 200 }))
    expect(await failure(exchangeAuthorizationCode(text.fetch, CREDENTIALS, 'code'))).toMatchObject({
      code: 'auth',
      retryable: false,
      message:
        'The payroll service’s answer to the sign-in could not be read (it is not JSON), so the sign-in failed. Sign in again; if it happens again, send this message to your IT team.',
    })
  })
})

describe('a token endpoint in trouble (issue 32, point 8)', () => {
  it('shows the service’s own short reason for a 5xx, as the employee list does', async () => {
    const service = endpoint(() =>
      Response.json({ message: 'maintenance until 02:00 UTC, ticket PAY-4471' }, { status: 503 }),
    )
    const error = await failure(refreshTokens(service.fetch, CREDENTIALS, 'refresh-0'))
    expect(error.message).toBe(
      'The payroll service had a problem (HTTP 503): “maintenance until 02:00 UTC, ticket PAY-4471”. Try again in a few minutes.',
    )
    const long = endpoint(() => Response.json({ message: 'x'.repeat(201) }, { status: 500 }))
    expect((await failure(refreshTokens(long.fetch, CREDENTIALS, 'refresh-0'))).message).toBe(
      'The payroll service had a problem (HTTP 500). Try again in a few minutes.',
    )
  })
})
