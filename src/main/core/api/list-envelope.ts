import type { JsonValue } from '../../../shared/domain'

/** One record of a list page, every field as the service sent it (an employee row for /employees/list). */
export type ListRow = Record<string, JsonValue>

/** The paginated list envelope of spec section 2, checked; every list endpoint answers with it (§4.5). */
export interface ListEnvelope {
  readonly rows: ListRow[]
  readonly totalCount: number
  readonly totalPages: number
  readonly limit: number
  readonly currentPage: number
}

export type EnvelopeCheck = { ok: true; envelope: ListEnvelope } | { ok: false; problem: string }

/**
 * The one envelope reader. Checks a parsed body strictly: every envelope field present as a non-negative
 * integer, `rows` an array of objects, each with a non-empty string `idField` when the list has one (UUID for
 * employees; other lists' fields are not shown), and no more rows than the page size it claims. Anything else is
 * a malformed response; `problem` says what (without echoing personal data) for logs and the error message.
 */
export function checkListEnvelope(body: unknown, idField?: string): EnvelopeCheck {
  if (!isPlainObject(body)) return { ok: false, problem: 'the answer is not a JSON object' }
  const counts: Record<'totalCount' | 'totalPages' | 'limit' | 'currentPage', number> = {
    totalCount: 0,
    totalPages: 0,
    limit: 0,
    currentPage: 0,
  }
  for (const field of ['totalCount', 'totalPages', 'limit', 'currentPage'] as const) {
    const value = body[field]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      return { ok: false, problem: `"${field}" is missing or not a whole number` }
    }
    counts[field] = value
  }
  const rows = body['rows']
  if (!Array.isArray(rows)) return { ok: false, problem: '"rows" is missing or not a list' }
  if (counts.totalCount > 0 && counts.limit < 1) {
    return { ok: false, problem: '"limit" is 0 while there are employees to list' }
  }
  if (counts.limit > 0 && rows.length > counts.limit) {
    return { ok: false, problem: `a page holds ${rows.length} rows but "limit" says ${counts.limit}` }
  }
  for (let i = 0; i < rows.length; i++) {
    const row: unknown = rows[i]
    if (!isPlainObject(row)) return { ok: false, problem: `row ${i + 1} of the page is not an object` }
    if (idField === undefined) continue
    const id = row[idField]
    if (typeof id !== 'string' || id.trim() === '') {
      return { ok: false, problem: `row ${i + 1} of the page has no ${idField}` }
    }
  }
  return { ok: true, envelope: { rows: rows as ListRow[], ...counts } }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
