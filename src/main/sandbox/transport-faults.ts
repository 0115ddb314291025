import type { ServerResponse } from 'node:http'
import type { SandboxContext } from './context'
import type { PageAnswerFault } from './behaviours'
import type { PageData } from './hostile'
import { json, jsonError } from './http'
import type { Reply } from './http'

/** The `pageAnswer` behaviour's answers (issue 32, points 3, 4 and 8). */

/** The headers 'huge-headers' sends: more than 64 KB, over undici's and Node's 16 KB limit (http.maxHeaderSize). */
export const HUGE_HEADER_BYTES = 72 * 1024

/** What the 'maintenance' 500 says, as a service's own short reason. */
export const MAINTENANCE_MESSAGE = 'maintenance until 02:00 UTC, ticket PAY-4471'

/**
 * The answer for a list page the `pageAnswer` behaviour names, or null for any other page. The interim answers
 * are written on the socket as Node writes them (`writeContinue`, `writeEarlyHints`: a status line and headers,
 * no body), then the page; each counts as an injected fault.
 */
export function transportReply(ctx: SandboxContext, page: number, build: () => PageData): Reply | null {
  const behaviour = ctx.behaviours.pageAnswer
  if (behaviour === null || behaviour.page !== page) return null
  ctx.stats.faultsInjected++
  const note = `fault: ${behaviour.fault}`
  return { ...answerFor(behaviour.fault, build), note }
}

function answerFor(fault: PageAnswerFault, build: () => PageData): Reply {
  switch (fault) {
    case 'continue-first':
      return afterInterim(json(200, build()), (res) => res.writeContinue())
    case 'early-hints-first':
      return afterInterim(json(200, build()), (res) =>
        res.writeEarlyHints({ link: '</employees/list>; rel=preload' }),
      )
    case 'huge-headers': {
      // Many ordinary-sized headers, as a misconfigured gateway's cookies or traces add up.
      const headers: Record<string, string> = {}
      const each = 'x'.repeat(1000)
      for (let index = 0, bytes = 0; bytes < HUGE_HEADER_BYTES; index++) {
        headers[`x-trace-${index}`] = each
        bytes += `x-trace-${index}`.length + each.length
      }
      const reply = json(200, build())
      return { ...reply, headers: { ...reply.headers, ...headers } }
    }
    case 'not-modified':
      return { status: 304, headers: { etag: '"roster"' }, body: '' }
    case 'no-content':
      return { status: 204, headers: {}, body: '' }
    case 'maintenance':
      return jsonError(500, { error: 'maintenance', message: MAINTENANCE_MESSAGE })
    case 'rate-limited-bare':
      return jsonError(429, { error: 'rate_limited' })
  }
}

/** `reply` written after the interim answer `interim` writes. */
function afterInterim(reply: Reply, interim: (res: ServerResponse) => void): Reply {
  return {
    ...reply,
    write: (res) => {
      interim(res)
      const body = Buffer.from(reply.body, 'utf8')
      res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) })
      res.end(body)
    },
  }
}
