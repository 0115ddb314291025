import type { JsonValue } from '../../../shared/domain/rows'

/** One record of a list page, every field as the service sent it (an employee row for /employees/list). */
export type ListRow = Record<string, JsonValue>

/** The paginated list envelope of spec section 2, checked; every list endpoint answers with it (§4.5). */
export interface ListEnvelope {
  readonly rows: ListRow[]
  readonly totalCount: number
  readonly totalPages: number
  readonly limit: number
  readonly currentPage: number
  /** Numbers of this page beyond a double's range, kept as their text (exact-json.ts); absent when none was. */
  readonly numbersAsText?: NumbersAsText
}

/** Numbers beyond a double's range that a sync kept as their text, by which end of the range they are past. */
export interface NumbersAsText {
  /** Past the largest double (1e400, -1e400). */
  readonly tooLarge: number
  /** Closer to 0 than the smallest double (1e-400). */
  readonly tooSmall: number
}

export const ENVELOPE_COUNT_FIELDS = ['totalCount', 'totalPages', 'limit', 'currentPage'] as const
export type EnvelopeCountField = (typeof ENVELOPE_COUNT_FIELDS)[number]

/**
 * What is wrong with an answer, where: `field` names the envelope field or the row's field, `row` is the 1-based
 * row of the page when the problem is in one row. `problem` is worded for the clerk's message and the log and
 * never echoes a value (it could be personal data).
 */
export interface EnvelopeProblem {
  readonly problem: string
  readonly field: string
  readonly row?: number
}

export type EnvelopeCheck = { ok: true; envelope: ListEnvelope } | ({ ok: false } & EnvelopeProblem)

/**
 * The one envelope reader. Checks a parsed body strictly: every envelope field present as a non-negative
 * integer (a JSON number, or digits in a string: `"totalCount": "3000"` is a plausible reading of a spec that
 * does not pin the JSON type down), `rows` an array of objects, each with a non-empty string `idField` when the
 * list has one (UUID for employees; other lists' fields are not shown), no id twice in one page, and no more rows
 * than the page size it claims. Anything else is a deterministic fault of the answer: the same request gets the
 * same answer, so the caller stops at once.
 */
export function checkListEnvelope(body: unknown, idField?: string): EnvelopeCheck {
  if (!isPlainObject(body)) return { ok: false, problem: 'the answer is not a JSON object', field: 'rows' }
  const counts: Record<EnvelopeCountField, number> = {
    totalCount: 0,
    totalPages: 0,
    limit: 0,
    currentPage: 0,
  }
  for (const field of ENVELOPE_COUNT_FIELDS) {
    const value = readCount(body[field])
    if (value === undefined) {
      return {
        ok: false,
        problem: `"${field}" is ${field in body ? 'not a whole number of 0 or more' : 'missing'}`,
        field,
      }
    }
    counts[field] = value
  }
  const rows = body['rows']
  if (!Array.isArray(rows)) return { ok: false, problem: '"rows" is missing or not a list', field: 'rows' }
  if (counts.totalCount > 0 && counts.limit < 1) {
    return { ok: false, problem: '"limit" is 0 while there are employees to list', field: 'limit' }
  }
  if (counts.limit > 0 && rows.length > counts.limit) {
    return {
      ok: false,
      problem: `the page holds ${rows.length} rows but "limit" says ${counts.limit}`,
      field: 'limit',
    }
  }
  const ids = new Map<string, number>()
  for (let i = 0; i < rows.length; i++) {
    const row: unknown = rows[i]
    if (!isPlainObject(row))
      return { ok: false, problem: 'the row is not an object', field: 'rows', row: i + 1 }
    if (idField === undefined) continue
    const id = row[idField]
    if (typeof id !== 'string' || id.trim() === '') {
      return { ok: false, problem: `the row has no ${idField}`, field: idField, row: i + 1 }
    }
    const earlier = ids.get(id)
    if (earlier !== undefined) {
      return {
        ok: false,
        problem: `the row carries the same ${idField} ${id} as row ${earlier}`,
        field: idField,
        row: i + 1,
      }
    }
    ids.set(id, i + 1)
  }
  return { ok: true, envelope: { rows: rows as ListRow[], ...counts } }
}

/** A count as the envelope may write it: a safe non-negative integer, as a number or as plain digits. */
function readCount(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : value
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
