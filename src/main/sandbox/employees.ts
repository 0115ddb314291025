import type { IncomingMessage } from 'node:http'
import type { SandboxContext } from './context'
import { delay, html, jsonError, rawJson, redirect } from './http'
import type { Reply } from './http'
import { hostileReply } from './hostile'
import type { PageData } from './hostile'
import { parseListQuery } from './list-query'
import { transportReply } from './transport-faults'

export const TENANT_HEADER = 'vnd.a1.tenant-id'

/** The employee list's path as a service that moved it serves it (behaviour `redirectList`); always served. */
export const MOVED_LIST_PATH = '/v2/employees/list'

type Fault = { kind: 'none' } | { kind: 'reply'; reply: Reply } | { kind: 'truncate'; fraction: number }

/** Section 4.4. Latency is added to every outcome, errors included, as a slow network would. */
export async function listEmployees(
  ctx: SandboxContext,
  req: IncomingMessage,
  params: URLSearchParams,
): Promise<Reply> {
  ctx.stats.listRequests++
  const page = params.get('page') ?? '1'
  ctx.stats.listPages[page] = (ctx.stats.listPages[page] ?? 0) + 1
  const limit = params.get('limit') ?? 'default'
  ctx.stats.listLimits[limit] = (ctx.stats.listLimits[limit] ?? 0) + 1
  const latencyMs = ctx.behaviours.latencyMs
  const reply = movedList(ctx, req) ?? answer(ctx, req, params)
  await delay(latencyMs)
  return reply
}

/**
 * The redirect of /employees/list (behaviour `redirectList`), before anything else is checked, as a server routes
 * a moved path: to `MOVED_LIST_PATH` here (a relative Location), or to another origin, the same path and query.
 */
function movedList(ctx: SandboxContext, req: IncomingMessage): Reply | null {
  const moved = ctx.behaviours.redirectList
  const raw = req.url ?? '/'
  const queryStart = raw.indexOf('?')
  const path = queryStart === -1 ? raw : raw.slice(0, queryStart)
  if (moved === null || path === MOVED_LIST_PATH) return null
  const query = queryStart === -1 ? '' : raw.slice(queryStart)
  const location = moved.to === 'moved' ? `${MOVED_LIST_PATH}${query}` : `${moved.to}${path}${query}`
  ctx.stats.faultsInjected++
  return { ...redirect(location), status: moved.status, note: `redirect ${moved.status}` }
}

function answer(ctx: SandboxContext, req: IncomingMessage, params: URLSearchParams): Reply {
  const authProblem = checkBearer(ctx, req.headers.authorization)
  if (authProblem !== null) return authProblem
  const tenantProblem = checkTenant(ctx, req.headers[TENANT_HEADER])
  if (tenantProblem !== null) return tenantProblem

  const fault = drawFault(ctx)
  if (fault.kind === 'reply') return fault.reply

  const parsed = parseListQuery(params)
  if (!parsed.ok) return jsonError(400, { error: 'invalid_request', message: parsed.message })
  const query = parsed.query
  // Refused before anything is read, like any other bad parameter (churn counts only requests that read data).
  const refuseAbove = ctx.behaviours.refuseLargeLimit
  if (refuseAbove !== null && query.limit !== null && query.limit > refuseAbove) {
    return jsonError(400, { error: 'invalid_request', message: `limit must be at most ${refuseAbove}` })
  }

  // Churn counts only requests that get as far as reading data, the ones a paging client relies on.
  const churn = ctx.behaviours.churn
  if (churn !== null && ctx.churnRemaining > 0) {
    ctx.churnRemaining--
    ctx.dataset.churn(churn.add, churn.remove, ctx.churnRandom)
  }
  const mutate = ctx.behaviours.mutate
  if (mutate !== null && ctx.mutateRemaining > 0) {
    ctx.mutateRemaining--
    ctx.dataset.mutate(mutate.rows, ctx.mutateRandom)
  }

  const b = ctx.behaviours
  const requested = query.limit ?? b.defaultPageSize
  const limit = b.maxPageSize === null ? requested : Math.min(requested, b.maxPageSize)
  // The rows a page holds: `limit`, but for a service that echoes a larger limit than it serves.
  const served = b.echoLimitAbove !== null && limit > b.echoLimitAbove ? b.echoLimitAbove : limit
  const build = (): PageData => {
    const selection = ctx.selections.select(query.filter, query.sortColumn, query.sortOrder)
    const totalCount = selection.count
    const totalPages = Math.ceil(totalCount / limit)
    const rows = []
    const start = (query.page - 1) * served
    const end = Math.min(start + served, totalCount)
    for (let position = start; position < end; position++) {
      rows.push(ctx.dataset.generator.row(selection.idAt(position)))
    }
    return { rows, totalCount, totalPages, limit, currentPage: query.page }
  }
  const transport = transportReply(ctx, query.page, build)
  if (transport !== null) return transport
  const hostile = hostileReply(ctx, query.page, build)
  if (hostile !== null) return hostile
  if (served !== limit) {
    // Not cached: the same `limit` is served whole once the behaviour is off.
    ctx.stats.faultsInjected++
    return { ...rawJson(200, JSON.stringify(build())), note: `fault: ${served} rows for limit ${limit}` }
  }
  const body = ctx.pages.body(ctx.dataset.version, query, limit, () => JSON.stringify(build()))
  const reply = rawJson(200, body)
  if (fault.kind === 'truncate') {
    ctx.stats.faultsInjected++
    const cut = Math.max(1, Math.floor(reply.body.length * fault.fraction))
    return { ...reply, body: reply.body.slice(0, cut), note: 'fault: truncated JSON' }
  }
  return reply
}

function unauthorized(description: string): Reply {
  return jsonError(
    401,
    { error: 'invalid_token', error_description: description },
    { 'www-authenticate': 'Bearer error="invalid_token"' },
  )
}

function checkBearer(ctx: SandboxContext, header: string | undefined): Reply | null {
  if (header === undefined) return unauthorized('An access token is required')
  const token = /^Bearer +([^\s]+)\s*$/i.exec(header)?.[1]
  if (token === undefined) return unauthorized('The Authorization header must be Bearer <token>')
  switch (ctx.grants.checkAccess(token)) {
    case 'valid':
      return null
    case 'expired':
      return unauthorized('The access token expired')
    case 'unknown':
      return unauthorized('The access token is not recognised')
  }
}

function checkTenant(ctx: SandboxContext, header: string | string[] | undefined): Reply | null {
  if (header === undefined) {
    if (!ctx.behaviours.tenantRequired) return null
    return jsonError(403, { error: 'tenant_forbidden', message: `The ${TENANT_HEADER} header is required` })
  }
  const value = Array.isArray(header) ? header.join(', ') : header
  if (value === ctx.tenantId) return null
  return jsonError(403, { error: 'tenant_forbidden', message: 'This token has no access to that tenant' })
}

/**
 * Two draws every time, whatever the probabilities, so the sequence for a seed does not shift when a
 * test changes one probability.
 */
function drawFault(ctx: SandboxContext): Fault {
  const f = ctx.behaviours.faults
  const which = ctx.faultRandom()
  const detail = ctx.faultRandom()
  if (which < f.rateLimit) {
    ctx.stats.faultsInjected++
    return {
      kind: 'reply',
      reply: {
        ...jsonError(
          429,
          { error: 'rate_limited', message: 'Too many requests; retry after the time in Retry-After' },
          { 'retry-after': String(f.rateLimitRetryAfterSeconds) },
        ),
        note: 'fault: rate limit',
      },
    }
  }
  if (which < f.rateLimit + f.serverErrorHtml) {
    ctx.stats.faultsInjected++
    const status = detail < 0.5 ? 502 : 503
    return { kind: 'reply', reply: { ...proxyErrorPage(status), note: `fault: HTML ${status}` } }
  }
  if (which < f.rateLimit + f.serverErrorHtml + f.truncatedJson) {
    return { kind: 'truncate', fraction: 0.2 + 0.6 * detail }
  }
  return { kind: 'none' }
}

function proxyErrorPage(status: 502 | 503): Reply {
  const title = status === 502 ? '502 Bad Gateway' : '503 Service Temporarily Unavailable'
  const reply = html(
    status,
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
      `<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  )
  // A proxy page carries none of the service's own headers.
  return { ...reply, headers: { 'content-type': 'text/html', server: 'nginx' } }
}
