import type { ServerResponse } from 'node:http'
import type { SandboxContext } from './context'
import type { EmployeeRow } from './data'
import { addFields, addsFields } from './field-names'
import type { Reply } from './http'

/** One page as the sandbox would serve it, before any hostile behaviour bends it. */
export interface PageData {
  rows: EmployeeRow[]
  totalCount: number
  totalPages: number
  limit: number
  currentPage: number
}

/**
 * The hostile behaviours' answer for a list request that got as far as reading data, or null when none applies
 * to this page (the ordinary, cached body is then served). Each counts as an injected fault.
 */
export function hostileReply(ctx: SandboxContext, page: number, build: () => PageData): Reply | null {
  const b = ctx.behaviours
  if (b.stall !== null && b.stall.page === page && ctx.stallRemaining > 0) {
    ctx.stallRemaining--
    ctx.stats.faultsInjected++
    return stalled(b.stall.mode)
  }
  if (b.oversizedPage !== null && b.oversizedPage.page === page) {
    ctx.stats.faultsInjected++
    return oversized(build(), b.oversizedPage.megabytes)
  }
  const at = (position: { page: number } | null): boolean => position !== null && position.page === page
  const bends =
    b.lieTotalCount !== null ||
    b.numericStrings ||
    at(b.missingUuid) ||
    at(b.duplicateUuid) ||
    at(b.oversizedField) ||
    at(b.rawFields) ||
    // Issue 32, point 7: odd field names, or thousands of fields (field-names.ts).
    addsFields(b)
  if (!bends) return null
  ctx.stats.faultsInjected++
  const data = build()
  const rows: Array<Record<string, unknown>> = data.rows.map((row) => ({ ...row }))
  const row = (position: { row: number } | null): Record<string, unknown> | undefined =>
    position === null ? undefined : rows[position.row - 1]
  if (at(b.missingUuid)) delete row(b.missingUuid)?.['UUID']
  if (at(b.duplicateUuid)) {
    const target = row(b.duplicateUuid)
    if (target !== undefined) target['UUID'] = ctx.dataset.row(0).UUID
  }
  if (at(b.oversizedField)) {
    const target = row(b.oversizedField)
    if (target !== undefined) target['notes'] = 'n'.repeat(b.oversizedField?.characters ?? 0)
  }
  const raw = at(b.rawFields) ? rawFieldsOf(row(b.rawFields), b.rawFields?.fields ?? {}) : undefined
  addFields(rows, b)
  const totalCount = b.lieTotalCount ?? data.totalCount
  const totalPages = data.limit === 0 ? 0 : Math.ceil(totalCount / data.limit)
  const count = (value: number): number | string => (b.numericStrings ? String(value) : value)
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: withRawText(
      JSON.stringify({
        rows,
        totalCount: count(totalCount),
        totalPages: count(totalPages),
        limit: count(data.limit),
        currentPage: count(data.currentPage),
      }),
      raw,
    ),
    note: 'fault: hostile page',
  }
}

/** Headers and the start of a body, then nothing; or nothing at all. The connection stays open until closed. */
function stalled(mode: 'headers' | 'silent'): Reply {
  return {
    status: 200,
    headers: {},
    body: '',
    note: `fault: stalled (${mode})`,
    write: (res) => {
      if (mode === 'silent') return
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      res.write('{"rows":[')
    },
  }
}

/**
 * A page whose body runs to `megabytes` MB: the page's rows written again and again inside `rows`, streamed with
 * back-pressure, and stopped as soon as the client goes away (it is meant to be refused part-way).
 */
function oversized(data: PageData, megabytes: number): Reply {
  const unit = data.rows.map((row) => JSON.stringify(row)).join(',') || '{}'
  let chunk = unit
  while (chunk.length < 64 * 1024) chunk += `,${unit}`
  const total = megabytes * 1024 * 1024
  return {
    status: 200,
    headers: {},
    body: '',
    note: `fault: ${megabytes} MB page`,
    write: (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      let sent = 0
      let gone = false
      res.on('close', () => (gone = true))
      const pump = (): void => {
        if (sent === 0) sent += write(res, '{"rows":[')
        while (!gone && sent < total) {
          const more = write(res, sent > 9 ? `,${chunk}` : chunk)
          sent += more
          if (res.writableNeedDrain) {
            res.once('drain', pump)
            return
          }
        }
        if (!gone) {
          const { totalCount, totalPages, limit, currentPage } = data
          res.end(
            `],"totalCount":${totalCount},"totalPages":${totalPages},"limit":${limit},"currentPage":${currentPage}}`,
          )
        }
      }
      pump()
    },
  }
}

function write(res: ServerResponse, text: string): number {
  res.write(text)
  return Buffer.byteLength(text)
}

/**
 * Issue 32 (`rawFields`): each field set to a placeholder string, and the placeholder's JSON (quoted) paired with
 * the raw text that replaces it once the page is serialised.
 */
function rawFieldsOf(
  target: Record<string, unknown> | undefined,
  fields: Readonly<Record<string, string>>,
): Array<[string, string]> {
  if (target === undefined) return []
  return Object.entries(fields).map(([field, text], index) => {
    const placeholder = `\u0000raw-field-${index}`
    target[field] = placeholder
    return [JSON.stringify(placeholder), text]
  })
}

function withRawText(body: string, raw: ReadonlyArray<[string, string]> | undefined): string {
  let text = body
  for (const [placeholder, value] of raw ?? []) text = text.replace(placeholder, () => value)
  return text
}
