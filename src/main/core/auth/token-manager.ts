import { z } from 'zod'
import type { FetchLike } from '../api/fetch-like'
import type { Clock } from '../clock'
import { RosterDeskError, cancelledError } from '../errors'
import type { Logger } from '../log/logger'
import type { SecretStore } from '../secrets/secret-store'
import { normalizeBaseUrl } from '../../../shared/settings-rules'
import type { AccessTokenSource } from '../api/access-token-source'
import { RefreshRejectedError, refreshTokens } from './token-endpoint'
import { expiryAfter, isDateTime, MAX_TOKEN_LIFETIME_SECONDS, type TokenSet } from './token-response'

/** Refresh this long before a known expiry, so a request never leaves with a token about to die in flight. */
export const DEFAULT_REFRESH_SKEW_MS = 60_000

/** Which service and client issued the tokens; they are never sent anywhere else. */
export interface TokenContext {
  readonly baseUrl: string
  readonly clientId: string
}

/** What refreshing needs to know about the current environment. */
export interface TokenEnvironment extends TokenContext {
  readonly redirectUri: string
}

export interface StoredTokens {
  readonly accessToken: string
  readonly refreshToken?: string
  /** Milliseconds since the epoch; unknown when the service gave no lifetime. */
  readonly expiresAt?: number
  readonly context: TokenContext
}

export interface TokenManagerDeps {
  fetch: FetchLike
  clock: Clock
  secrets: SecretStore
  logger: Logger
  /** The environment RosterDesk talks to now; read at every use, so a settings change takes effect at once. */
  environment: () => TokenEnvironment
  clientSecret: () => Promise<string | undefined>
  /** Called after the service turned the refresh token down and the tokens were forgotten. */
  onSignedOut: (message: string) => void
  refreshSkewMs?: number
}

const tokenContextSchema = z.object({ baseUrl: z.string(), clientId: z.string() })

/**
 * Owns the tokens: persists them in the SecretStore, hands out the access token, and refreshes it before a known
 * expiry or after a 401. Every caller waiting at the same time shares one refresh request. A refresh the service
 * refuses signs the clerk out cleanly; a network failure during refresh is retryable and signs nobody out.
 */
export class TokenManager implements AccessTokenSource {
  readonly #deps: TokenManagerDeps
  readonly #skewMs: number
  /** undefined = not read yet; null = none stored. */
  #tokens: StoredTokens | null | undefined
  #refreshing: Promise<string> | undefined
  /** Bumped whenever tokens are replaced or forgotten, so a refresh that started earlier cannot overwrite them. */
  #generation = 0

  constructor(deps: TokenManagerDeps) {
    this.#deps = deps
    this.#skewMs = deps.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS
  }

  /** The stored tokens, read once from the SecretStore. */
  async load(): Promise<StoredTokens | undefined> {
    if (this.#tokens === undefined) this.#tokens = (await readStoredTokens(this.#deps.secrets)) ?? null
    return this.#tokens ?? undefined
  }

  /** True when tokens are stored for the service and client of the current environment. */
  async hasTokensForCurrentEnvironment(): Promise<boolean> {
    const tokens = await this.load()
    return tokens !== undefined && sameContext(tokens.context, this.#deps.environment())
  }

  /** Keeps the tokens of a fresh sign-in, replacing any earlier ones. */
  async store(tokens: TokenSet, context: TokenContext): Promise<void> {
    this.#generation++
    await this.#write({
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
      ...this.#expiry(tokens),
      context: { baseUrl: normalizeBaseUrl(context.baseUrl), clientId: context.clientId },
    })
  }

  /** Forgets every token (sign-out). */
  async clear(): Promise<void> {
    this.#generation++
    this.#tokens = null
    const { secrets } = this.#deps
    await Promise.all([
      secrets.delete('accessToken'),
      secrets.delete('refreshToken'),
      secrets.delete('accessTokenExpiresAt'),
      secrets.delete('tokenContext'),
    ])
  }

  async getAccessToken(signal?: AbortSignal): Promise<string> {
    const tokens = await this.#current()
    if (this.#refreshing) return waitFor(this.#refreshing, signal)
    const dueAt = tokens.expiresAt === undefined ? undefined : tokens.expiresAt - this.#skewMs
    if (dueAt !== undefined && this.#deps.clock.now() >= dueAt && tokens.refreshToken !== undefined) {
      return waitFor(this.#refresh(), signal)
    }
    return tokens.accessToken
  }

  async handleUnauthorized(rejectedToken: string, signal?: AbortSignal): Promise<string> {
    const tokens = await this.#current()
    if (this.#refreshing) return waitFor(this.#refreshing, signal)
    if (tokens.accessToken !== rejectedToken) return tokens.accessToken
    return waitFor(this.#refresh(), signal)
  }

  /** Tokens for the current environment, or RosterDeskError('not-signed-in'). */
  async #current(): Promise<StoredTokens> {
    const tokens = await this.load()
    if (!tokens) throw new RosterDeskError('not-signed-in', 'You are not signed in. Sign in to continue.')
    if (!sameContext(tokens.context, this.#deps.environment())) {
      throw new RosterDeskError(
        'not-signed-in',
        'Your sign-in belongs to a different service address or client ID. Sign in again.',
      )
    }
    return tokens
  }

  #refresh(): Promise<string> {
    this.#refreshing ??= this.#runRefresh().finally(() => {
      this.#refreshing = undefined
    })
    return this.#refreshing
  }

  async #runRefresh(): Promise<string> {
    const generation = this.#generation
    const tokens = await this.#current()
    if (tokens.refreshToken === undefined) {
      await this.#signOut('there is no refresh token to renew the expired access token')
      throw new RosterDeskError('not-signed-in', 'Your sign-in has expired. Sign in again to continue.')
    }
    const environment = this.#deps.environment()
    const clientSecret = await this.#deps.clientSecret()
    if (clientSecret === undefined || clientSecret === '') {
      throw new RosterDeskError(
        'config',
        'Enter the client secret in Settings so RosterDesk can renew your sign-in.',
      )
    }
    this.#deps.logger.info('Sign-in: renewing the access token')
    let renewed: TokenSet
    try {
      renewed = await refreshTokens(this.#deps.fetch, { ...environment, clientSecret }, tokens.refreshToken)
    } catch (error) {
      if (error instanceof RefreshRejectedError && generation === this.#generation) {
        await this.#signOut('the service refused to renew the sign-in', error)
      }
      throw error
    }
    if (generation !== this.#generation) {
      // Signed out or signed in again while the request was out: its result belongs to a session that is over.
      return (await this.#current()).accessToken
    }
    await this.#write({
      accessToken: renewed.accessToken,
      // Services that do not rotate refresh tokens leave them out of the answer; the old one stays good.
      refreshToken: renewed.refreshToken ?? tokens.refreshToken,
      ...this.#expiry(renewed),
      context: tokens.context,
    })
    this.#deps.logger.info('Sign-in: access token renewed')
    return renewed.accessToken
  }

  /** The expiry of tokens just issued (`expiryAfter`), logging a lifetime counted as a year. */
  #expiry(tokens: TokenSet): { expiresAt?: number } {
    const seconds = tokens.expiresInSeconds
    if (seconds === undefined) return {}
    const { expiresAt, bounded } = expiryAfter(this.#deps.clock.now(), seconds)
    if (bounded) {
      this.#deps.logger.warn(
        `Sign-in: the service gave the access token a lifetime of ${String(seconds).slice(0, 40)} seconds; RosterDesk counts it as ${MAX_TOKEN_LIFETIME_SECONDS / 86_400} days`,
      )
    }
    return { expiresAt }
  }

  async #signOut(reason: string, refusal?: RefreshRejectedError): Promise<void> {
    this.#deps.logger.warn(`Sign-in: signed out because ${reason}`, refusal)
    await this.clear()
    this.#deps.onSignedOut('Your sign-in has expired. Sign in again to continue.')
  }

  async #write(tokens: StoredTokens): Promise<void> {
    this.#tokens = tokens
    const { secrets } = this.#deps
    await secrets.set('accessToken', tokens.accessToken)
    if (tokens.refreshToken === undefined) await secrets.delete('refreshToken')
    else await secrets.set('refreshToken', tokens.refreshToken)
    if (tokens.expiresAt === undefined) await secrets.delete('accessTokenExpiresAt')
    else await secrets.set('accessTokenExpiresAt', String(tokens.expiresAt))
    await secrets.set('tokenContext', JSON.stringify(tokens.context))
  }
}

/**
 * Reads tokens from a SecretStore; undefined when there is no access token or its context is unreadable. An
 * expiry that is not a time a `Date` holds (written before lifetimes were bounded) counts as unknown.
 */
export async function readStoredTokens(secrets: SecretStore): Promise<StoredTokens | undefined> {
  const [accessToken, refreshToken, expiresAtText, contextText] = await Promise.all([
    secrets.get('accessToken'),
    secrets.get('refreshToken'),
    secrets.get('accessTokenExpiresAt'),
    secrets.get('tokenContext'),
  ])
  if (accessToken === undefined || contextText === undefined) return undefined
  let context: TokenContext
  try {
    context = tokenContextSchema.parse(JSON.parse(contextText))
  } catch {
    return undefined
  }
  const expiresAt = expiresAtText === undefined ? undefined : Number(expiresAtText)
  return {
    accessToken,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(expiresAt === undefined || !isDateTime(expiresAt) ? {} : { expiresAt }),
    context,
  }
}

function sameContext(a: TokenContext, b: TokenContext): boolean {
  return normalizeBaseUrl(a.baseUrl) === normalizeBaseUrl(b.baseUrl) && a.clientId === b.clientId
}

/** Waits for a shared promise, giving up (for this caller only) when its own signal aborts. */
function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(cancelledError('The request'))
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelledError('The request'))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
