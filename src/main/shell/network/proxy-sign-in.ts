import { randomUUID } from 'node:crypto'
import type { ProxySignInAnswer, ProxySignInRequest } from '../../../shared/connection-report'
import type { Logger } from '../../core/log/logger'
import type { SecretVault } from '../../core/secrets/secret-store'

/** A proxy's user name and password. Never logged, never sent to the core process. */
export interface ProxyCredentials {
  readonly username: string
  readonly password: string
}

/**
 * The `authInfo` of Electron's `login` event (electron 45.4.1: docs/api/utility-process.md, "Event: 'login'";
 * shell/browser/login_handler.cc passes Chromium's AuthChallengeInfo).
 */
export interface LoginAuthInfo {
  readonly isProxy: boolean
  readonly scheme: string
  readonly host: string
  readonly port: number
  readonly realm: string
}

/** The `authenticationResponseDetails` of that event, as far as this handler reads it. */
export interface LoginDetails {
  /** False when credentials were already given for this challenge and refused (login_handler.cc). */
  readonly firstAuthAttempt?: boolean
  /** The request's URL (docs/api/utility-process.md, Event: 'login'): which route the proxy was chosen for. */
  readonly url?: string
}

/** `callback(username, password)` answers; `callback()` with no arguments cancels (login_handler.cc CallbackFromJS). */
export type LoginCallback = (username?: string, password?: string) => void

/** How long a proxy's question waits for the clerk before the request ends with the 'proxy-auth' error. */
export const PROXY_SIGN_IN_WAIT_MS = 3 * 60_000

/** A remembered sign-in, and whether the clerk let it go to this proxy over plain HTTP (see ProxySignIn). */
interface StoredProxySignIn extends ProxyCredentials {
  readonly plainHttpConfirmed?: true
}

/** Proxy sign-ins remembered per proxy (host:port), encrypted by the OS's store: main's secret 'proxyCredentials'. */
export class RememberedProxyCredentials {
  constructor(private readonly vault: SecretVault) {}

  async get(proxy: string): Promise<ProxyCredentials | undefined> {
    const stored = (await this.read()).get(proxy)
    return stored === undefined ? undefined : { username: stored.username, password: stored.password }
  }

  async set(proxy: string, credentials: ProxyCredentials): Promise<void> {
    const all = await this.read()
    all.set(proxy, { username: credentials.username, password: credentials.password })
    await this.write(all)
  }

  /** Whether the clerk confirmed sending this proxy's remembered sign-in over plain HTTP. */
  async plainHttpConfirmed(proxy: string): Promise<boolean> {
    return (await this.read()).get(proxy)?.plainHttpConfirmed === true
  }

  /** Remembers that confirmation, with the sign-in (a sign-in typed again later starts unconfirmed). */
  async confirmPlainHttp(proxy: string): Promise<void> {
    const all = await this.read()
    const stored = all.get(proxy)
    if (stored === undefined) return
    all.set(proxy, { ...stored, plainHttpConfirmed: true })
    await this.write(all)
  }

  async delete(proxy: string): Promise<void> {
    const all = await this.read()
    if (!all.delete(proxy)) return
    await this.write(all)
  }

  /** The proxies (host:port) with a remembered sign-in, sorted: what Settings lists. */
  async list(): Promise<string[]> {
    return [...(await this.read()).keys()].sort()
  }

  private async read(): Promise<Map<string, StoredProxySignIn>> {
    const stored = await this.vault.get('proxyCredentials')
    const all = new Map<string, StoredProxySignIn>()
    if (stored === undefined) return all
    let parsed: unknown
    try {
      parsed = JSON.parse(stored)
    } catch {
      return all
    }
    if (!Array.isArray(parsed)) return all
    for (const entry of parsed as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 2) continue
      const [proxy, value] = entry as [unknown, unknown]
      const { username, password, plainHttpConfirmed } = (value ?? {}) as Record<string, unknown>
      if (typeof proxy === 'string' && typeof username === 'string' && typeof password === 'string')
        all.set(proxy, { username, password, ...(plainHttpConfirmed === true ? { plainHttpConfirmed } : {}) })
    }
    return all
  }

  private async write(all: Map<string, StoredProxySignIn>): Promise<void> {
    if (all.size === 0) await this.vault.delete('proxyCredentials')
    else await this.vault.set('proxyCredentials', JSON.stringify([...all]))
  }
}

function credentialsOf(answer: ProxySignInAnswer): ProxyCredentials | undefined {
  return answer === null ? undefined : { username: answer.username, password: answer.password }
}

export interface ProxySignInDeps {
  readonly remembered: RememberedProxyCredentials
  /** Shows the question in the window (`network:proxy-sign-in`); false when there is no window to ask in. */
  readonly ask: (request: ProxySignInRequest) => boolean
  readonly logger: Logger
  readonly waitMs?: number
  /**
   * Whether `proxy`, met on the way to `url`, is one the network's automatic configuration chose (WPAD, a PAC
   * file) and is reached over plain HTTP, where a Basic sign-in travels readable. Absent: never.
   */
  readonly discoveredPlainProxy?: (proxy: string, url: string | undefined) => Promise<boolean>
  /** Main's own dialog: whether the clerk lets the remembered sign-in go to `proxy`. Absent: never. */
  readonly confirmPlainProxy?: (proxy: string) => Promise<boolean>
}

interface Question {
  readonly id: string
  readonly proxy: string
  readonly answered: Promise<ProxySignInAnswer>
  readonly answer: (answer: ProxySignInAnswer) => void
}

/**
 * Main's answer to the core process's `login` events (its UtilityProcess, forked with a session and
 * `respondToAuthRequestsFromMainProcess`). Only a proxy's challenge is answered: with the credentials remembered
 * for that proxy on its first challenge, otherwise (or when those were just refused) with what the clerk types in
 * the window's sign-in dialog, asked once for every request waiting on the same proxy. A server's own challenge
 * (HTTP 401) is cancelled: the service signs in with OAuth, and nothing else may be sent credentials. No window,
 * Cancel or no answer within the wait ends the request, which the core reports as 'proxy-auth'. A remembered
 * Basic sign-in goes to a plain-HTTP proxy that WPAD or a PAC file chose (anyone on the network can answer as
 * that proxy) only once the clerk confirmed it in main's dialog, remembered with the sign-in; declined, the
 * window asks instead for the rest of this run (issue 31, point 7).
 */
export class ProxySignIn {
  readonly #questions = new Map<string, Question>()
  /**
   * Credentials the clerk gave in this run, per proxy, for challenges that arrive before Chromium's own auth
   * cache holds them; dropped when the proxy refuses them.
   */
  readonly #given = new Map<string, ProxyCredentials>()
  readonly #waitMs: number
  /** Confirmations being asked, per proxy (one dialog for concurrent challenges), and proxies declined this run. */
  readonly #confirming = new Map<string, Promise<boolean>>()
  readonly #declined = new Set<string>()

  constructor(private readonly deps: ProxySignInDeps) {
    this.#waitMs = deps.waitMs ?? PROXY_SIGN_IN_WAIT_MS
  }

  /** The `login` listener, with Electron's arguments (event, details, authInfo, callback). */
  readonly onLogin = (
    event: { preventDefault(): void },
    details: LoginDetails,
    authInfo: LoginAuthInfo,
    callback: LoginCallback,
  ): void => {
    if (authInfo.isProxy !== true) {
      // Cancelled at once (no preventDefault: Electron cancels too). Nothing of the request is logged.
      callback()
      this.deps.logger.warn('A server asked for a sign-in (HTTP 401); cancelled, as only a proxy is answered')
      return
    }
    // Answered later: Electron cancels a challenge whose event was not prevented (login_handler.cc EmitEvent).
    event.preventDefault()
    const proxy = `${authInfo.host}:${authInfo.port}`
    void this.credentialsFor(proxy, details.firstAuthAttempt !== false, authInfo, details.url).then(
      (credentials) =>
        credentials === undefined ? callback() : callback(credentials.username, credentials.password),
      (error: unknown) => {
        this.deps.logger.warn(`Proxy sign-in for ${proxy} failed`, error)
        callback()
      },
    )
  }

  /** The window's answer to a question (`network:answer-proxy-sign-in`); false when it is no longer waiting. */
  answer(id: string, answer: ProxySignInAnswer): boolean {
    const question = this.#questions.get(id)
    if (question === undefined) return false
    question.answer(answer)
    return true
  }

  private async credentialsFor(
    proxy: string,
    first: boolean,
    authInfo: LoginAuthInfo,
    url: string | undefined,
  ): Promise<ProxyCredentials | undefined> {
    // A question already waiting for this proxy answers this challenge too.
    const waiting = [...this.#questions.values()].find((question) => question.proxy === proxy)
    if (waiting !== undefined) return credentialsOf(await waiting.answered)
    if (!first) this.#given.delete(proxy)
    else {
      const given = this.#given.get(proxy)
      if (given !== undefined) return given
      const known = await this.deps.remembered.get(proxy)
      if (known !== undefined && (await this.maySend(proxy, authInfo, url))) return known
    }
    const question = this.question(proxy, !first, authInfo)
    if (question === undefined) return undefined
    const answer = await question.answered
    const credentials = credentialsOf(answer)
    if (credentials === undefined) return undefined
    this.#given.set(proxy, credentials)
    if (answer?.remember === true) {
      await this.deps.remembered.set(proxy, credentials)
      this.deps.logger.info(`Proxy sign-in for ${proxy} remembered`)
    }
    return credentials
  }

  /** Whether the remembered sign-in may go to `proxy` (see the class's comment). */
  private async maySend(proxy: string, authInfo: LoginAuthInfo, url: string | undefined): Promise<boolean> {
    const { discoveredPlainProxy, confirmPlainProxy, remembered, logger } = this.deps
    if (authInfo.scheme.toLowerCase() !== 'basic' || !discoveredPlainProxy || !confirmPlainProxy) return true
    if (this.#declined.has(proxy)) return false
    if (!(await discoveredPlainProxy(proxy, url)) || (await remembered.plainHttpConfirmed(proxy))) return true
    let confirming = this.#confirming.get(proxy)
    if (confirming === undefined) {
      logger.info(
        `The proxy ${proxy} (found automatically, plain HTTP) asks for the remembered sign-in; asking first`,
      )
      confirming = confirmPlainProxy(proxy).finally(() => this.#confirming.delete(proxy))
      this.#confirming.set(proxy, confirming)
      const confirmed = await confirming
      if (confirmed) await remembered.confirmPlainHttp(proxy)
      else this.#declined.add(proxy)
      logger.info(`Remembered sign-in for ${proxy} over plain HTTP: ${confirmed ? 'confirmed' : 'declined'}`)
      return confirmed
    }
    return confirming
  }

  private question(proxy: string, retry: boolean, authInfo: LoginAuthInfo): Question | undefined {
    const id = randomUUID()
    let answer: (value: ProxySignInAnswer) => void = () => undefined
    const answered = new Promise<ProxySignInAnswer>((resolve) => {
      const timer = setTimeout(() => resolve(null), this.#waitMs)
      answer = (value) => {
        clearTimeout(timer)
        resolve(value)
      }
    }).finally(() => this.#questions.delete(id))
    const question: Question = { id, proxy, answered, answer: (value) => answer(value) }
    this.#questions.set(id, question)
    const asked = this.deps.ask({
      id,
      proxy,
      realm: authInfo.realm,
      scheme: authInfo.scheme.toLowerCase(),
      retry,
    })
    if (!asked) {
      this.deps.logger.warn(
        `The proxy ${proxy} asks for a sign-in, and there is no window to ask in; cancelled`,
      )
      question.answer(null)
      return undefined
    }
    this.deps.logger.info(`The proxy ${proxy} asks for a sign-in (${authInfo.scheme}); asking in the window`)
    return question
  }
}
