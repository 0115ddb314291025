/**
 * Redirect URIs and the callback URLs the browser sends back, as values. RFC 8252 gives a desktop app two ways
 * to receive the answer: a private-use scheme (§7.1, `com.rosterdesk.app:/oauth/callback`, one slash, no host)
 * and a loopback http listener (§7.3, `http://127.0.0.1:PORT/path`).
 */
export type CallbackUrl =
  | {
      readonly kind: 'custom-scheme'
      /** Lower-case, without the colon. */
      readonly scheme: string
      readonly path: string
      readonly params: URLSearchParams
    }
  | {
      readonly kind: 'loopback'
      readonly host: string
      /** 0 when the address names no port (a redirect URI asking for any free port). */
      readonly port: number
      readonly path: string
      readonly params: URLSearchParams
    }
  | { readonly kind: 'unsupported'; readonly reason: string }

/** What a callback says, once it is known to be addressed to us. */
export type CallbackPayload =
  | { readonly type: 'code'; readonly code: string; readonly state: string }
  | { readonly type: 'error'; readonly error: string; readonly description?: string; readonly state?: string }
  | { readonly type: 'malformed' }

/** Parses a redirect URI or a callback URL. Never throws; anything else is 'unsupported' with a loggable reason. */
export function parseCallbackUrl(value: string): CallbackUrl {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { kind: 'unsupported', reason: 'not a URL' }
  }
  if (url.protocol === 'http:') {
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      return { kind: 'unsupported', reason: 'http address that is not this computer' }
    }
    return {
      kind: 'loopback',
      host: url.hostname,
      port: url.port === '' ? 0 : Number(url.port),
      path: url.pathname,
      params: url.searchParams,
    }
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase()
  if (scheme === 'https' || scheme === 'file' || scheme === 'javascript' || scheme === 'data') {
    return { kind: 'unsupported', reason: `${scheme} address` }
  }
  if (url.host !== '') return { kind: 'unsupported', reason: 'custom-scheme address with a host' }
  return { kind: 'custom-scheme', scheme, path: url.pathname, params: url.searchParams }
}

/** True when `redirectUri` is a loopback http address, i.e. RosterDesk must listen for the answer itself. */
export function isLoopbackRedirectUri(redirectUri: string): boolean {
  return parseCallbackUrl(redirectUri).kind === 'loopback'
}

/**
 * Whether a callback is addressed to the configured redirect URI: same kind, scheme, host, port and path. The
 * query is the callback's own and is not compared.
 */
export function matchesRedirectUri(callback: CallbackUrl, redirectUri: string): boolean {
  const expected = parseCallbackUrl(redirectUri)
  if (callback.kind === 'custom-scheme' && expected.kind === 'custom-scheme') {
    return callback.scheme === expected.scheme && callback.path === expected.path
  }
  if (callback.kind === 'loopback' && expected.kind === 'loopback') {
    return (
      callback.host === expected.host && callback.port === expected.port && callback.path === expected.path
    )
  }
  return false
}

/**
 * Reads the OAuth answer from a callback's query: a code and state, or an `error` with its description (RFC 6749
 * §4.1.2.1). Anything else, including a code and an error at once, is malformed.
 */
export function readCallbackPayload(params: URLSearchParams): CallbackPayload {
  const error = single(params, 'error')
  const code = single(params, 'code')
  const state = single(params, 'state')
  if (error !== undefined && code === undefined) {
    const description = single(params, 'error_description')
    return {
      type: 'error',
      error,
      ...(description === undefined ? {} : { description }),
      ...(state === undefined ? {} : { state }),
    }
  }
  if (
    error === undefined &&
    code !== undefined &&
    code !== '' &&
    code.length <= MAX_CALLBACK_VALUE &&
    state !== undefined &&
    state !== '' &&
    state.length <= MAX_CALLBACK_VALUE
  ) {
    return { type: 'code', code, state }
  }
  return { type: 'malformed' }
}

/**
 * Codes and states are short (the service's codes and RosterDesk's states are under 100 characters); a value
 * thousands long is a forgery or a broken link, and is never posted to the token endpoint.
 */
const MAX_CALLBACK_VALUE = 2048

/** A parameter that appears exactly once; a repeated one is treated as absent (parameter pollution). */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name)
  return values.length === 1 ? values[0] : undefined
}
