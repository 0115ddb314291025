import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { copyBehaviours, DEFAULT_BEHAVIOURS, mergeBehaviours, SSO_PAGE_PATH } from './behaviours'
import type { SandboxBehaviours, SandboxBehavioursPatch } from './behaviours'
import type { RegisteredClient } from './clients'
import { AUTHORIZE_PATH } from './consent-page'
import type { SandboxContext, SandboxStats } from './context'
import type { FixtureEmployee } from './data'
import { Dataset } from './dataset'
import { listEmployees, MOVED_LIST_PATH } from './employees'
import { GrantStore } from './grants'
import { jsonError, methodNotAllowed, notFound, writeReply } from './http'
import type { Reply } from './http'
import { authorizeGet, authorizePost, exchangeCode, refreshTokens, ssoPage } from './oauth'
import { createRng, mix32 } from './random'
import { PageBodyCache } from './page-cache'
import { SelectionCache } from './selection'

export interface SandboxOptions {
  /** Default 0: an ephemeral port. The server only ever listens on 127.0.0.1. */
  port?: number
  /** Default 2500 employees. Rows are generated on demand, so a million costs no row objects. */
  size?: number
  /** Default 1. Same seed, same data and same fault sequence. */
  seed?: number
  clientId?: string
  clientSecret?: string
  /** A registered http://127.0.0.1/… or http://localhost/… URI matches any port (RFC 8252 §7.3). */
  redirectUris?: string[]
  tenantId?: string
  /** Any subset of the behaviours, `faults` included. */
  behaviours?: SandboxBehavioursPatch
  /** Every tenth employee gets hostile names and job titles: markup, bidi overrides, control characters, 100 KB. */
  hostileNames?: boolean
  /** Employees with some fields set (data.ts `FixtureEmployee`): a named person a test looks for. None by default. */
  fixtures?: readonly FixtureEmployee[]
  /** Close the server after this long; the timer does not keep the process alive. */
  lifetimeMs?: number
  /** One line per request: method, path, status, duration. Never queries, bodies, tokens or codes. */
  log?: (line: string) => void
  /**
   * Serve HTTPS with this certificate and key (PEM text) instead of HTTP: the tests of certificates, proxies
   * and TLS inspection. `baseUrl` then starts with https://, on `host` when given (default 127.0.0.1).
   */
  tls?: { readonly cert: string; readonly key: string; readonly host?: string }
}

export interface SandboxHandle {
  readonly baseUrl: string
  readonly credentials: { clientId: string; clientSecret: string; redirectUri: string; tenantId: string }
  /** A snapshot: mutate through setBehaviours. */
  readonly behaviours: SandboxBehaviours
  /** Throws RangeError on an invalid value and then changes nothing. */
  setBehaviours(patch: SandboxBehavioursPatch): void
  /** Test shortcut: mint a token pair (scope `read`) as if a code exchange had happened. */
  issueTokens(): { accessToken: string; refreshToken: string; expiresIn: number }
  /** Make every access token issued so far expire now (refresh tokens stay valid). */
  expireAccessTokens(): void
  employeeCount(): number
  /** Every current employee row in default order; materialises them all, so meant for test sizes. */
  allEmployees(): Array<Record<string, unknown>>
  stats(): SandboxStats
  close(): Promise<void>
}

export const DEFAULT_OPTIONS = {
  port: 0,
  size: 2500,
  seed: 1,
  clientId: 'rosterdesk-demo',
  clientSecret: 'rosterdesk-demo-secret',
  redirectUris: ['com.rosterdesk.app:/oauth/callback', 'http://127.0.0.1/callback'],
  tenantId: 'tenant-demo',
} as const

type Handler = (ctx: SandboxContext, req: IncomingMessage, params: URLSearchParams) => Reply | Promise<Reply>

const ROUTES: Readonly<Record<string, Readonly<Record<string, Handler>>>> = {
  [AUTHORIZE_PATH]: {
    GET: (ctx, _req, params) => authorizeGet(ctx, params),
    POST: (ctx, req) => authorizePost(ctx, req),
  },
  '/openapi/oauthv1/token': { POST: (ctx, req) => exchangeCode(ctx, req) },
  '/openapi/oauth/token': { POST: (ctx, req) => refreshTokens(ctx, req) },
  '/employees/list': { GET: listEmployees },
  [MOVED_LIST_PATH]: { GET: listEmployees },
  [SSO_PAGE_PATH]: { GET: () => ssoPage() },
}

function validateOptions(o: SandboxOptions): void {
  const integer = (name: string, value: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER) => {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= min && value <= max)) {
      throw new RangeError(`${name} must be a whole number between ${min} and ${max}`)
    }
  }
  integer('port', o.port, 0, 65535)
  integer('size', o.size, 0, 2 ** 26)
  integer('seed', o.seed, -(2 ** 31), 2 ** 32 - 1)
  if (o.lifetimeMs !== undefined && !(o.lifetimeMs > 0)) throw new RangeError('lifetimeMs must be > 0')
  if (o.redirectUris !== undefined && o.redirectUris.length === 0) {
    throw new RangeError('redirectUris needs at least one URI')
  }
}

async function dispatch(ctx: SandboxContext, req: IncomingMessage): Promise<Reply> {
  const raw = req.url ?? '/'
  const queryStart = raw.indexOf('?')
  const path = queryStart === -1 ? raw : raw.slice(0, queryStart)
  const params = new URLSearchParams(queryStart === -1 ? '' : raw.slice(queryStart + 1))
  const route = ROUTES[path]
  if (route === undefined) return notFound(path)
  const handler = route[req.method ?? '']
  if (handler === undefined) return methodNotAllowed(Object.keys(route))
  return handler(ctx, req, params)
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  validateOptions(options)
  const seed = options.seed ?? DEFAULT_OPTIONS.seed
  const size = options.size ?? DEFAULT_OPTIONS.size
  const client: RegisteredClient = {
    clientId: options.clientId ?? DEFAULT_OPTIONS.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_OPTIONS.clientSecret,
    redirectUris: [...(options.redirectUris ?? DEFAULT_OPTIONS.redirectUris)],
  }
  const behaviours = mergeBehaviours(DEFAULT_BEHAVIOURS, options.behaviours ?? {})
  const dataset = new Dataset(seed, size, options.hostileNames ?? false, options.fixtures ?? [])
  const ctx: SandboxContext = {
    client,
    tenantId: options.tenantId ?? DEFAULT_OPTIONS.tenantId,
    grants: new GrantStore(),
    dataset,
    selections: new SelectionCache(dataset),
    pages: new PageBodyCache(dataset.version),
    stats: {
      requests: 0,
      listRequests: 0,
      listPages: {},
      listLimits: {},
      codeExchanges: 0,
      refreshes: 0,
      faultsInjected: 0,
    },
    faultRandom: createRng(mix32(seed ^ 0x0fa17)),
    churnRandom: createRng(mix32(seed ^ 0xc4a2e)),
    mutateRandom: createRng(mix32(seed ^ 0x3a7e5)),
    behaviours,
    churnRemaining: behaviours.churn?.listRequests ?? 0,
    mutateRemaining: behaviours.mutate?.listRequests ?? 0,
    stallRemaining: behaviours.stall?.requests ?? 0,
  }
  const log = options.log

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now()
    ctx.stats.requests++
    dispatch(ctx, req)
      .catch((): Reply =>
        jsonError(500, { error: 'server_error', message: 'The sandbox failed unexpectedly' }),
      )
      .then((reply) => {
        writeReply(res, reply)
        if (log !== undefined) {
          const path = (req.url ?? '/').split('?')[0] ?? '/'
          const ms = Math.round(performance.now() - started)
          log(`${req.method ?? '?'} ${path} ${reply.status} ${ms}ms${reply.note ? ` (${reply.note})` : ''}`)
        }
      })
      .catch(() => res.destroy())
  }
  const server =
    options.tls === undefined
      ? createServer(handle)
      : createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handle)

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port: options.port ?? DEFAULT_OPTIONS.port, host: '127.0.0.1' }, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo

  let closing: Promise<void> | null = null
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      if (lifetime !== null) clearTimeout(lifetime)
      server.close(() => resolve())
      // In-flight and keep-alive connections would otherwise hold close() open for seconds.
      server.closeAllConnections()
    })
    return closing
  }
  const lifetime =
    options.lifetimeMs === undefined ? null : setTimeout(() => void close(), options.lifetimeMs)
  lifetime?.unref()

  return {
    baseUrl:
      options.tls === undefined
        ? `http://127.0.0.1:${port}`
        : `https://${options.tls.host ?? '127.0.0.1'}:${port}`,
    credentials: {
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri: client.redirectUris[0] ?? '',
      tenantId: ctx.tenantId,
    },
    get behaviours() {
      return copyBehaviours(ctx.behaviours)
    },
    setBehaviours(patch) {
      ctx.behaviours = mergeBehaviours(ctx.behaviours, patch)
      if (patch.churn !== undefined) ctx.churnRemaining = patch.churn?.listRequests ?? 0
      if (patch.mutate !== undefined) ctx.mutateRemaining = patch.mutate?.listRequests ?? 0
      if (patch.stall !== undefined) ctx.stallRemaining = patch.stall?.requests ?? 0
    },
    issueTokens() {
      const tokens = ctx.grants.issue(client.clientId, 'read', ctx.behaviours.accessTokenTtlSeconds)
      return {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresIn: tokens.expiresIn,
      }
    },
    expireAccessTokens: () => ctx.grants.expireAllAccess(),
    employeeCount: () => dataset.count,
    allEmployees() {
      const rows: Array<Record<string, unknown>> = []
      for (let position = 0; position < dataset.count; position++) rows.push({ ...dataset.row(position) })
      return rows
    },
    stats: () => ({
      ...ctx.stats,
      listPages: { ...ctx.stats.listPages },
      listLimits: { ...ctx.stats.listLimits },
    }),
    close,
  }
}
