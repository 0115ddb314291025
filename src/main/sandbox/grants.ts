import { opaqueToken } from './random'

const CODE_TTL_MS = 60_000
/** Long enough for a slow human on the consent page, short enough that stale pages stop working. */
const CONSENT_TTL_MS = 10 * 60_000
/** Sweep expired entries now and then so a long-running sandbox does not grow without bound. */
const SWEEP_EVERY = 500

export interface ConsentRequest {
  readonly clientId: string
  readonly redirectUri: string
  readonly scope: string
  readonly state: string
  readonly expiresAt: number
}

export interface AuthorizationCode {
  readonly clientId: string
  readonly redirectUri: string
  readonly scope: string
  readonly expiresAt: number
}

interface AccessGrant {
  readonly clientId: string
  expiresAt: number
}

interface RefreshGrant {
  readonly clientId: string
  readonly scope: string
}

export interface IssuedTokens {
  readonly accessToken: string
  readonly refreshToken: string | null
  readonly expiresIn: number
  readonly scope: string
}

export type AccessCheck = 'valid' | 'expired' | 'unknown'

/**
 * Every secret the sandbox hands out: consent requests, authorization codes, access and refresh tokens.
 * All are random, opaque and single-purpose; none is derived from the seed.
 */
export class GrantStore {
  private readonly consents = new Map<string, ConsentRequest>()
  private readonly codes = new Map<string, AuthorizationCode>()
  private readonly access = new Map<string, AccessGrant>()
  private readonly refresh = new Map<string, RefreshGrant>()
  private inserts = 0

  /** Reads the clock on every call (not a captured Date.now) so tests can move time with fake timers. */
  constructor(private readonly now: () => number = () => Date.now()) {}

  createConsent(request: Omit<ConsentRequest, 'expiresAt'>): string {
    const id = opaqueToken(24)
    this.consents.set(id, { ...request, expiresAt: this.now() + CONSENT_TTL_MS })
    this.inserted()
    return id
  }

  /** Single use: the request is gone after this call whatever the outcome. */
  takeConsent(id: string): ConsentRequest | null {
    const request = this.consents.get(id)
    this.consents.delete(id)
    if (request === undefined || request.expiresAt <= this.now()) return null
    return request
  }

  createCode(grant: Omit<AuthorizationCode, 'expiresAt'>): string {
    const code = opaqueToken(32)
    this.codes.set(code, { ...grant, expiresAt: this.now() + CODE_TTL_MS })
    this.inserted()
    return code
  }

  /** Looks a code up without using it, so a request with a wrong client does not burn the user's code. */
  peekCode(code: string): AuthorizationCode | null {
    const grant = this.codes.get(code)
    if (grant === undefined) return null
    if (grant.expiresAt <= this.now()) {
      this.codes.delete(code)
      return null
    }
    return grant
  }

  consumeCode(code: string): void {
    this.codes.delete(code)
  }

  issue(clientId: string, scope: string, ttlSeconds: number): IssuedTokens & { refreshToken: string } {
    const refreshToken = opaqueToken(32)
    this.refresh.set(refreshToken, { clientId, scope })
    return { ...this.issueAccess(clientId, scope, ttlSeconds), refreshToken }
  }

  /** Returns the refresh grant, or null when the token is unknown, rotated away or another client's. */
  findRefresh(refreshToken: string, clientId: string): RefreshGrant | null {
    const grant = this.refresh.get(refreshToken)
    return grant !== undefined && grant.clientId === clientId ? grant : null
  }

  /** Rotation retires the presented refresh token; without it the old one simply stays valid. */
  refreshTokens(
    refreshToken: string,
    grant: RefreshGrant,
    ttlSeconds: number,
    rotate: boolean,
  ): IssuedTokens {
    if (!rotate) return { ...this.issueAccess(grant.clientId, grant.scope, ttlSeconds), refreshToken: null }
    this.refresh.delete(refreshToken)
    return this.issue(grant.clientId, grant.scope, ttlSeconds)
  }

  checkAccess(token: string): AccessCheck {
    const grant = this.access.get(token)
    if (grant === undefined) return 'unknown'
    return grant.expiresAt <= this.now() ? 'expired' : 'valid'
  }

  expireAllAccess(): void {
    const now = this.now()
    for (const grant of this.access.values()) grant.expiresAt = Math.min(grant.expiresAt, now)
  }

  private issueAccess(
    clientId: string,
    scope: string,
    ttlSeconds: number,
  ): Omit<IssuedTokens, 'refreshToken'> {
    const accessToken = opaqueToken(32)
    this.access.set(accessToken, { clientId, expiresAt: this.now() + ttlSeconds * 1000 })
    this.inserted()
    return { accessToken, expiresIn: ttlSeconds, scope }
  }

  private inserted(): void {
    if (++this.inserts % SWEEP_EVERY !== 0) return
    const now = this.now()
    // Expired access tokens are kept for a day so clients still get "expired" rather than "unknown".
    for (const [token, grant] of this.access)
      if (grant.expiresAt + 86_400_000 <= now) this.access.delete(token)
    for (const [code, grant] of this.codes) if (grant.expiresAt <= now) this.codes.delete(code)
    for (const [id, request] of this.consents) if (request.expiresAt <= now) this.consents.delete(id)
  }
}
