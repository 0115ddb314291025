import type { IncomingMessage } from 'node:http'
import { isRegisteredRedirect, secretMatches, withQuery } from './clients'
import { consentPage, errorPage } from './consent-page'
import type { SandboxContext } from './context'
import type { IssuedTokens } from './grants'
import { SSO_PAGE_PATH } from './behaviours'
import { html, jsonError, mediaType, readBody, redirect } from './http'
import type { Reply } from './http'
import { tokenAnswerText } from './token-response'

const ALLOWED_SCOPES = new Set(['read', 'write'])
const DUPLICATE = Symbol('duplicate')
/** Token responses carry secrets and must never be cached (RFC 6749 §5.1). */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

function single(params: URLSearchParams, name: string): string | null | typeof DUPLICATE {
  const all = params.getAll(name)
  if (all.length > 1) return DUPLICATE
  return all[0] ?? null
}

function badAuthorizeRequest(title: string, detail: string): Reply {
  return html(400, errorPage(title, detail))
}

/** Section 4.1. Problems with the client or redirect URI are shown, never redirected (RFC 6749 §4.1.2.1). */
export function authorizeGet(ctx: SandboxContext, params: URLSearchParams): Reply {
  const clientId = single(params, 'clientId')
  if (typeof clientId !== 'string' || clientId === '') {
    return badAuthorizeRequest('Invalid request', 'clientId is missing or given more than once.')
  }
  if (clientId !== ctx.client.clientId) {
    return badAuthorizeRequest('Unknown application', 'No application is registered with this clientId.')
  }
  const redirectUri = single(params, 'redirectUri')
  if (typeof redirectUri !== 'string' || redirectUri === '') {
    return badAuthorizeRequest('Invalid request', 'redirectUri is missing or given more than once.')
  }
  if (!isRegisteredRedirect(ctx.client, redirectUri)) {
    return badAuthorizeRequest('Invalid redirect URI', 'redirectUri does not match a registered URI.')
  }

  const state = single(params, 'state')
  const fail = (error: string, description: string): Reply =>
    redirect(
      withQuery(redirectUri, {
        error,
        error_description: description,
        ...(typeof state === 'string' && state !== '' ? { state } : {}),
      }),
    )
  const responseType = single(params, 'responseType')
  if (typeof responseType !== 'string') {
    return fail('invalid_request', 'responseType is missing or given more than once')
  }
  if (responseType !== 'code') return fail('unsupported_response_type', 'responseType must be code')
  if (typeof state !== 'string' || state === '') {
    return fail('invalid_request', 'state is missing or given more than once')
  }
  const scope = single(params, 'scope')
  const scopes = typeof scope === 'string' ? scope.split(/[\s,]+/).filter((s) => s !== '') : []
  if (scopes.length === 0) return fail('invalid_request', 'scope is missing or given more than once')
  const unknown = scopes.find((s) => !ALLOWED_SCOPES.has(s))
  if (unknown !== undefined) return fail('invalid_scope', `Unknown scope: ${unknown}`)

  const granted = [...new Set(scopes)]
  const requestId = ctx.grants.createConsent({ clientId, redirectUri, scope: granted.join(' '), state })
  return html(200, consentPage({ requestId, clientId, redirectUri, scopes: granted }))
}

/** The consent form's Approve / Deny. */
export async function authorizePost(ctx: SandboxContext, req: IncomingMessage): Promise<Reply> {
  if (mediaType(req) !== 'application/x-www-form-urlencoded') {
    return badAuthorizeRequest('Invalid request', 'The consent form must be posted as a form.')
  }
  const text = await readBody(req)
  if (text === null) return badAuthorizeRequest('Invalid request', 'The form is too large.')
  const form = new URLSearchParams(text)
  const decision = form.get('decision')
  if (decision !== 'approve' && decision !== 'deny') {
    return badAuthorizeRequest('Invalid request', 'Choose Approve or Deny.')
  }
  const consent = ctx.grants.takeConsent(form.get('requestId') ?? '')
  if (consent === null) {
    return badAuthorizeRequest(
      'Request expired',
      'This authorization request has expired or was already answered. Start again from the application.',
    )
  }
  if (decision === 'deny') {
    return redirect(
      withQuery(consent.redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied access',
        state: consent.state,
      }),
    )
  }
  const code = ctx.grants.createCode({
    clientId: consent.clientId,
    redirectUri: consent.redirectUri,
    scope: consent.scope,
  })
  return redirect(withQuery(consent.redirectUri, { code, state: consent.state }))
}

type Fields<K extends string> = { ok: true; fields: Record<K, string> } | { ok: false; reply: Reply }

/** Reads a JSON object body and requires each named field to be a non-empty string. */
async function readJsonFields<K extends string>(
  req: IncomingMessage,
  names: readonly K[],
): Promise<Fields<K>> {
  const invalid = (description: string, status = 400): Fields<K> => ({
    ok: false,
    reply: jsonError(status, { error: 'invalid_request', error_description: description }, NO_STORE),
  })
  if (mediaType(req) !== 'application/json') return invalid('Content-Type must be application/json')
  const text = await readBody(req)
  if (text === null) return invalid('The request body is too large', 413)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return invalid('The request body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid('The request body must be a JSON object')
  }
  const record = body as Record<string, unknown>
  const fields: Partial<Record<K, string>> = {}
  for (const name of names) {
    const value = record[name]
    if (typeof value !== 'string' || value === '') return invalid(`${name} is required and must be a string`)
    fields[name] = value
  }
  return { ok: true, fields: fields as Record<K, string> }
}

function clientError(ctx: SandboxContext, clientId: string, clientSecret: string): Reply | null {
  if (clientId === ctx.client.clientId && secretMatches(ctx.client, clientSecret)) return null
  return jsonError(
    401,
    { error: 'invalid_client', error_description: 'Client authentication failed' },
    NO_STORE,
  )
}

function invalidGrant(description: string): Reply {
  return jsonError(400, { error: 'invalid_grant', error_description: description }, NO_STORE)
}

function unsupportedGrant(): Reply {
  return jsonError(
    400,
    { error: 'unsupported_grant_type', error_description: 'grantType must be authorization_code' },
    NO_STORE,
  )
}

/** Section 4.2: code for tokens. */
export async function exchangeCode(ctx: SandboxContext, req: IncomingMessage): Promise<Reply> {
  ctx.stats.codeExchanges++
  const read = await readJsonFields(req, ['code', 'clientId', 'clientSecret', 'redirectUri', 'grantType'])
  if (!read.ok) return read.reply
  const { code, clientId, clientSecret, redirectUri, grantType } = read.fields
  const clientProblem = clientError(ctx, clientId, clientSecret)
  if (clientProblem !== null) return clientProblem
  if (grantType !== 'authorization_code') return unsupportedGrant()
  const grant = ctx.grants.peekCode(code)
  if (grant === null || grant.clientId !== clientId) {
    return invalidGrant('The authorization code is unknown, expired or already used')
  }
  // Burn the code even when the redirect URI is wrong: whoever holds it is not following the flow.
  ctx.grants.consumeCode(code)
  if (grant.redirectUri !== redirectUri) {
    return invalidGrant('redirectUri does not match the one used in the authorization request')
  }
  const b = ctx.behaviours
  if (b.exchangeNotJson) return notJsonAnswer(ctx)
  const tokens = ctx.grants.issue(clientId, grant.scope, b.accessTokenTtlSeconds)
  return tokenAnswer(ctx, tokens, 'tokens issued')
}

/** Section 4.3: refresh, at `oauth` (not `oauthv1`), with grantType `authorization_code` as specified. */
export async function refreshTokens(ctx: SandboxContext, req: IncomingMessage): Promise<Reply> {
  ctx.stats.refreshes++
  const read = await readJsonFields(req, [
    'clientId',
    'clientSecret',
    'redirectUri',
    'grantType',
    'refreshToken',
  ])
  if (!read.ok) return read.reply
  const { clientId, clientSecret, redirectUri, grantType, refreshToken } = read.fields
  const clientProblem = clientError(ctx, clientId, clientSecret)
  if (clientProblem !== null) return clientProblem
  if (grantType !== 'authorization_code') return unsupportedGrant()
  if (!isRegisteredRedirect(ctx.client, redirectUri)) return invalidGrant('redirectUri is not registered')
  const b = ctx.behaviours
  if (b.rejectRefresh) return invalidGrant('The refresh token has been revoked')
  const odd = oddRefreshAnswer(ctx)
  if (odd !== null) return odd
  const grant = ctx.grants.findRefresh(refreshToken, clientId)
  if (grant === null) return invalidGrant('The refresh token is unknown, revoked or already rotated')
  const tokens = ctx.grants.refreshTokens(
    refreshToken,
    grant,
    b.accessTokenTtlSeconds,
    b.refreshTokenOnRefresh,
  )
  return tokenAnswer(ctx, tokens, 'tokens refreshed')
}

/** A token answer in the configured style, bent by the odd-answer behaviours (issue 32). */
function tokenAnswer(ctx: SandboxContext, tokens: IssuedTokens, note: string): Reply {
  const b = ctx.behaviours
  const bent = b.tokenExpiresInJson !== null || b.tokenCharacters !== null
  if (bent) ctx.stats.faultsInjected++
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE },
    body: tokenAnswerText(b.tokenStyle, tokens, b),
    note: bent ? `fault: odd token answer (${note})` : note,
  }
}

// ---- Odd sign-in answers (issue 32, point 8) ----

/** The code exchange answered with a web page (a gateway's error or sign-in page), not JSON. */
function notJsonAnswer(ctx: SandboxContext): Reply {
  ctx.stats.faultsInjected++
  return {
    ...html(200, '<!doctype html><title>Service unavailable</title><p>Please try again later.</p>'),
    note: 'fault: token answer is not JSON',
  }
}

/** A refresh answered 200 with an OAuth error and no tokens, or 303 to a single-sign-on page; else null. */
function oddRefreshAnswer(ctx: SandboxContext): Reply | null {
  const b = ctx.behaviours
  if (b.refreshErrorIn200) {
    ctx.stats.faultsInjected++
    return {
      ...jsonError(
        200,
        { error: 'invalid_grant', error_description: 'The refresh token has been revoked' },
        NO_STORE,
      ),
      note: 'fault: invalid_grant inside a 200',
    }
  }
  if (b.refreshRedirect) {
    ctx.stats.faultsInjected++
    return {
      status: 303,
      headers: { location: `${SSO_PAGE_PATH}?continue=%2Fopenapi%2Foauth%2Ftoken`, ...NO_STORE },
      body: '',
      note: 'fault: refresh redirected to single sign-on',
    }
  }
  return null
}

/** The single-sign-on page a redirected refresh leads to: a form for a person, never tokens. */
export function ssoPage(): Reply {
  return html(
    200,
    '<!doctype html><title>Company sign-in</title><form method="post"><input name="user"><button>Sign in</button></form>',
  )
}

// ---- end of odd sign-in answers ----
