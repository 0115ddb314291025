import type { AuthState } from '../../../shared/domain/auth'
import type { FetchLike } from '../api/fetch-like'
import type { Clock } from '../clock'
import { RosterDeskError, isRosterDeskError } from '../errors'
import { logFailure } from '../log/log-failure'
import { silentLogger, type Logger } from '../log/logger'
import type { SecretStore } from '../secrets/secret-store'
import { missingConfiguration, type ResolvedEnvironment } from '../settings/resolve-environment'
import { DEMO_REDIRECT_URI } from '../settings/settings-defaults'
import type { AccessTokenSource } from '../api/access-token-source'
import { buildAuthorizeUrl } from './authorize-url'
import { isLoopbackRedirectUri } from './callback-url'
import { startLoopbackReceiver, type LoopbackPage, type LoopbackReceiver } from './loopback-receiver'
import { PendingSignInRegistry, SIGN_IN_TTL_MS, type SignInOutcome } from './pending-sign-in'
import { createOAuthState, cryptoRandomSource, type RandomSource } from './random-source'
import { exchangeAuthorizationCode } from './token-endpoint'
import { TokenManager } from './token-manager'

export interface AuthServiceDeps {
  fetch: FetchLike
  clock: Clock
  secrets: SecretStore
  /** The environment to sign in to, read at every use (normally `resolveEnvironment(settingsStore.get(), demo)`). */
  environment: () => ResolvedEnvironment
  /** Opens the system browser. Only ever given the authorize URL RosterDesk built itself. */
  openExternal: (url: string) => Promise<void>
  /**
   * Whether the OS hands this app callbacks of a private-use redirect scheme (false under `npm start`, which
   * registers none: the shell's policy/protocol-client.ts). When false, signing in with such a redirect is refused
   * as `config`, naming the loopback redirect. Absent: true.
   */
  receivesSchemeCallbacks?: boolean
  logger?: Logger
  random?: RandomSource
  /** How long a sign-in waits for the browser; 10 minutes unless told. */
  signInTimeoutMs?: number
  refreshSkewMs?: number
  /** The saved employees' key is this start's only (AppCoreDeps.cacheKeyKept 'memory'): the window says so. */
  savedEmployeesUntilQuit?: boolean
}

export type AuthStateListener = (state: AuthState) => void

/** Messages for the OAuth errors a clerk can cause or fix; others are reported by their code. */
const REFUSAL_MESSAGES: Record<string, string> = {
  access_denied: 'You declined access in the browser. Sign in again when ready.',
  invalid_scope: 'The payroll service does not offer the requested scopes. Check the scopes in Settings.',
  unauthorized_client:
    'The payroll service does not allow this client ID to sign in. Check the client ID in Settings.',
  invalid_request:
    'The payroll service did not accept the sign-in request. Check the client ID and redirect URI in Settings.',
  server_error: 'The payroll service had a problem during sign-in. Try again in a few minutes.',
  temporarily_unavailable: 'The payroll service is busy. Try signing in again in a few minutes.',
}

/**
 * Why a sign-in with a private-use redirect cannot finish in a RosterDesk that is not installed (`npm start`):
 * nothing hands the scheme's callback to it. Names the loopback redirect that works there, as Demo's does.
 */
export function unregisteredSchemeMessage(redirectUri: string): string {
  return (
    `This copy of RosterDesk is not installed (it runs from the project with npm start), so your browser cannot ` +
    `hand the sign-in back to it at ${redirectUri}. In Settings, set the redirect URI to a loopback address such ` +
    `as ${DEMO_REDIRECT_URI} (registered for this client with the payroll service), or sign in from the ` +
    `installed RosterDesk.`
  )
}

/**
 * Sign-in as the app sees it: opens the authorize URL in the system browser, waits for the callback (a deep link
 * handed in by the Electron shell, or the loopback listener it starts itself), exchanges the code, and keeps the
 * tokens in the SecretStore. `tokens` is what API clients use. State changes are pushed to `onChange` listeners.
 */
export class AuthService {
  readonly tokens: AccessTokenSource
  readonly #deps: AuthServiceDeps
  readonly #logger: Logger
  readonly #registry: PendingSignInRegistry
  readonly #manager: TokenManager
  readonly #listeners = new Set<AuthStateListener>()
  #signedIn = false
  /** True while a code the browser delivered is being exchanged for tokens. */
  #exchanging = false
  #error: string | undefined
  /** The running sign-in's completion, by attempt id, so a deep link can wait until its code was exchanged. */
  #starting: Promise<void> = Promise.resolve()
  #completion: { attemptId: number; done: Promise<AuthState>; finished: Promise<void> } | undefined

  private constructor(deps: AuthServiceDeps) {
    this.#deps = deps
    this.#logger = deps.logger ?? silentLogger
    this.#registry = new PendingSignInRegistry({
      clock: deps.clock,
      logger: this.#logger,
      ttlMs: deps.signInTimeoutMs ?? SIGN_IN_TTL_MS,
    })
    this.#manager = new TokenManager({
      fetch: deps.fetch,
      clock: deps.clock,
      secrets: deps.secrets,
      logger: this.#logger,
      environment: () => deps.environment(),
      clientSecret: () => this.#clientSecret(),
      onSignedOut: (message) => {
        this.#signedIn = false
        this.#error = message
        this.#emit()
      },
      ...(deps.refreshSkewMs === undefined ? {} : { refreshSkewMs: deps.refreshSkewMs }),
    })
    this.tokens = this.#manager
  }

  /** Creates the service with its state read from the SecretStore. */
  static async create(deps: AuthServiceDeps): Promise<AuthService> {
    const service = new AuthService(deps)
    service.#signedIn = await service.#manager.hasTokensForCurrentEnvironment()
    return service
  }

  getState(): AuthState {
    const environment = this.#deps.environment()
    return {
      status:
        this.#registry.pending || this.#exchanging
          ? 'signing-in'
          : this.#signedIn
            ? 'signed-in'
            : 'signed-out',
      environment: environment.environment,
      tenantId: environment.tenantId,
      ...(this.#error === undefined ? {} : { error: this.#error }),
      secretStorage: this.#deps.secrets.persistent ? 'os' : 'memory-only',
      ...(this.#deps.savedEmployeesUntilQuit === true ? { savedEmployeesUntilQuit: true as const } : {}),
    }
  }

  onChange(listener: AuthStateListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Re-reads whether the stored tokens fit the current environment; call after the settings changed. */
  async reload(): Promise<AuthState> {
    const signedIn = await this.#manager.hasTokensForCurrentEnvironment()
    if (signedIn !== this.#signedIn) {
      this.#signedIn = signedIn
      // Signed in again (back on an environment whose tokens are stored): an earlier sign-in problem is over.
      if (signedIn) this.#error = undefined
      this.#emit()
    }
    return this.getState()
  }

  /**
   * Opens the browser at the authorize URL and resolves when the sign-in ended: signed in, refused, cancelled,
   * timed out, or replaced by a newer sign-in. Throws RosterDeskError('config') when settings are missing.
   */
  async signIn(): Promise<AuthState> {
    const environment = this.#deps.environment()
    const missing = missingConfiguration(environment)
    if (missing) throw new RosterDeskError('config', missing)
    if (this.#deps.receivesSchemeCallbacks === false && !isLoopbackRedirectUri(environment.redirectUri))
      throw new RosterDeskError('config', unregisteredSchemeMessage(environment.redirectUri))
    const clientSecret = await this.#clientSecret()
    if (!clientSecret)
      throw new RosterDeskError('config', 'Enter the client secret in Settings before signing in.')

    const { attempt, done, finished, redirectUri, state } = await this.#serialStart(() =>
      this.#start(environment, clientSecret),
    )
    const authorizeUrl = buildAuthorizeUrl({
      baseUrl: environment.baseUrl,
      clientId: environment.clientId,
      redirectUri,
      scope: environment.scopes,
      state,
    })
    // Replaced by a newer sign-in while starting: do not open a browser tab for a sign-in that is already over.
    if (this.#registry.pending?.id !== attempt.id) return done
    try {
      await this.#deps.openExternal(authorizeUrl)
      this.#logger.info('Sign-in: opened the browser')
    } catch (error) {
      this.#logger.warn('Sign-in: could not open the browser', error)
      if (this.#registry.pending?.id === attempt.id) this.#registry.cancel()
      await finished
      this.#error =
        'RosterDesk could not open your web browser. Check that a default browser is set, then try again.'
      this.#emit()
      return this.getState()
    }
    const result = await done
    await finished
    return result
  }

  /**
   * Ends any earlier sign-in (its loopback listener must be gone before ours binds the same port) and begins a new
   * attempt. Returns once the attempt waits for the browser.
   */
  async #start(environment: ResolvedEnvironment, clientSecret: string) {
    this.#registry.cancel('superseded')
    await this.#completion?.finished

    let receiver: LoopbackReceiver | undefined
    if (isLoopbackRedirectUri(environment.redirectUri)) {
      receiver = await startLoopbackReceiver(
        environment.redirectUri,
        (url) => this.#handleLoopback(url),
        this.#logger,
      )
    }
    const redirectUri = receiver?.redirectUri ?? environment.redirectUri
    const state = createOAuthState(this.#deps.random ?? cryptoRandomSource)
    const attempt = this.#registry.begin({ state, redirectUri })
    const done = this.#run(attempt.outcome, { ...environment, redirectUri, clientSecret })
    // The listener closes after the sign-in ended, letting the page it is sending to the browser finish.
    const finished = done.then(
      () => receiver?.close(),
      () => receiver?.close(),
    )
    this.#completion = { attemptId: attempt.id, done, finished }
    this.#error = undefined
    this.#logger.info(`Sign-in: started for the ${environment.environment} environment`)
    this.#emit()
    return { attempt, done, finished, redirectUri, state }
  }

  /** Runs starts one at a time, so two quick clicks cannot both bind the loopback port or both be "current". */
  async #serialStart<T>(start: () => Promise<T>): Promise<T> {
    const previous = this.#starting
    let release = (): void => undefined
    this.#starting = new Promise<void>((resolve) => (release = resolve))
    await previous
    try {
      return await start()
    } finally {
      release()
    }
  }

  /** Stops waiting for the browser. */
  cancelSignIn(): AuthState {
    this.#registry.cancel()
    return this.getState()
  }

  /** Forgets the tokens (the client secret stays, it belongs to the settings). */
  async signOut(): Promise<AuthState> {
    this.#registry.cancel()
    await this.#manager.clear()
    this.#signedIn = false
    this.#error = undefined
    this.#logger.info('Sign-in: signed out')
    this.#emit()
    return this.getState()
  }

  /**
   * Offers a URL the OS handed to the app (a deep link). Returns true when it completed the pending sign-in
   * (including a refusal), after the code was exchanged; false when it was ignored (logged by reason only).
   */
  async handleCallbackUrl(url: string): Promise<boolean> {
    const verdict = this.#registry.handleCallback(url)
    if (!verdict.accepted) return false
    const completion = this.#completion
    if (completion?.attemptId === verdict.attemptId) await completion.done
    return true
  }

  async #handleLoopback(url: string): Promise<LoopbackPage> {
    const accepted = await this.handleCallbackUrl(url)
    if (!accepted) {
      return {
        status: 400,
        title: 'Sign-in link not valid',
        message:
          'This sign-in link is not the one RosterDesk is waiting for. Start the sign-in again from RosterDesk.',
      }
    }
    const state = this.getState()
    if (state.status === 'signed-in') {
      return {
        status: 200,
        title: 'Signed in',
        message: 'You are signed in to RosterDesk. You can close this tab.',
      }
    }
    return {
      status: 200,
      title: 'Not signed in',
      message: state.error ?? 'The sign-in did not finish. Return to RosterDesk.',
    }
  }

  async #run(
    outcome: Promise<SignInOutcome>,
    credentials: ResolvedEnvironment & { clientSecret: string },
  ): Promise<AuthState> {
    const result = await outcome
    switch (result.type) {
      case 'code':
        this.#exchanging = true
        try {
          const tokens = await exchangeAuthorizationCode(this.#deps.fetch, credentials, result.code)
          await this.#manager.store(tokens, credentials)
          this.#signedIn = true
          this.#error = undefined
          this.#logger.info('Sign-in: signed in')
        } catch (error) {
          logFailure(this.#logger, 'Sign-in: the code exchange failed', error)
          this.#error = isRosterDeskError(error)
            ? error.message
            : 'RosterDesk could not finish the sign-in. Try again; if it keeps happening, send the log to support.'
        } finally {
          this.#exchanging = false
        }
        break
      case 'refused':
        this.#logger.warn(`Sign-in: the service reported ${sanitizeCode(result.error)}`)
        this.#error = refusalMessage(result.error, result.description)
        break
      case 'timed-out':
        this.#error = `The browser did not come back within ${minutes(this.#deps.signInTimeoutMs ?? SIGN_IN_TTL_MS)}. Sign in again when ready.`
        break
      case 'cancelled':
        break
      case 'superseded':
        // The newer sign-in reports its own progress; this one only tells its caller that one is under way.
        return { ...this.getState(), status: 'signing-in' }
    }
    this.#emit()
    return this.getState()
  }

  async #clientSecret(): Promise<string | undefined> {
    return this.#deps.environment().clientSecret ?? (await this.#deps.secrets.get('clientSecret'))
  }

  #emit(): void {
    const state = this.getState()
    for (const listener of this.#listeners) listener(state)
  }
}

/** A clerk-readable refusal; the service's own description is shown only for codes we have no words for. */
export function refusalMessage(error: string, description: string | undefined): string {
  const known = REFUSAL_MESSAGES[error]
  if (known) return known
  const detail = description ? `: ${description.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '').slice(0, 200)}` : ''
  return `The payroll service refused the sign-in (${sanitizeCode(error)}${detail}). Sign in again, or ask your IT team.`
}

function minutes(ms: number): string {
  const value = Math.max(1, Math.round(ms / 60_000))
  return value === 1 ? '1 minute' : `${value} minutes`
}

function sanitizeCode(code: string): string {
  return code.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64) || 'unknown error'
}
