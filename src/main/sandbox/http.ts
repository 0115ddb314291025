import type { IncomingMessage, ServerResponse } from 'node:http'

/** Handlers build a complete reply first, so latency and logging are applied in one place. */
export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** Short note for the request log (never a secret). */
  readonly note?: string
  /**
   * Writes the response itself instead of `body` (a streamed or stalled answer); it may never end it. Such a
   * reply is the hostile behaviours' alone.
   */
  readonly write?: (res: ServerResponse) => void
}

const MAX_BODY_BYTES = 64 * 1024

export type ErrorBody = { error: string; error_description?: string; message?: string }

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  }
}

/** A body that is already JSON text. */
export function rawJson(status: number, body: string): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body }
}

export function jsonError(status: number, body: ErrorBody, headers: Record<string, string> = {}): Reply {
  return json(status, body, headers)
}

export function html(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // The consent page must not be framed (clickjacking) and needs nothing from outside.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      ...headers,
    },
    body,
  }
}

export function redirect(location: string): Reply {
  return { status: 302, headers: { location, 'cache-control': 'no-store' }, body: '' }
}

export function notFound(path: string): Reply {
  return jsonError(404, { error: 'not_found', message: `No endpoint at ${path}` })
}

export function methodNotAllowed(allowed: readonly string[]): Reply {
  return jsonError(
    405,
    { error: 'method_not_allowed', message: `Use ${allowed.join(' or ')}` },
    { allow: allowed.join(', ') },
  )
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** Media type without parameters, lower-cased: `Application/JSON; charset=utf-8` -> `application/json`. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** Resolves to null when the body exceeds the limit; the request is drained either way. */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.writableEnded) return
  if (reply.write !== undefined) {
    reply.write(res)
    return
  }
  const body = Buffer.from(reply.body, 'utf8')
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) })
  res.end(body)
}

export function delay(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))
}
