import { isEmployeeField } from './data'
import type { EmployeeField } from './data'

export type SortOrder = 'asc' | 'desc'

export interface ListFilter {
  /** Numeric status code from `statusFilter`; codes the service does not know select nothing. */
  readonly statusCode: number | null
  readonly payCycleId: string | null
  readonly search: { readonly column: EmployeeField; readonly value: string } | null
}

export interface ListQuery {
  readonly page: number
  /** As requested; clamping to the maximum happens later because behaviours may change at runtime. */
  readonly limit: number | null
  readonly sortColumn: EmployeeField | null
  readonly sortOrder: SortOrder
  readonly filter: ListFilter
}

export type ParseResult = { ok: true; query: ListQuery } | { ok: false; message: string }

const POSITIVE_INTEGER = /^[1-9][0-9]*$/
const INTEGER = /^-?[0-9]+$/
const KNOWN = [
  'page',
  'limit',
  'sortColumn',
  'sortOrder',
  'statusFilter',
  'searchCol',
  'searchVal',
  'payCycleId',
] as const

function positiveInteger(name: string, text: string | null): number | null | string {
  if (text === null) return null
  const value = Number(text)
  if (!POSITIVE_INTEGER.test(text) || !Number.isSafeInteger(value)) {
    return `${name} must be a whole number of at least 1`
  }
  return value
}

/** Validates the query parameters of section 4.4; every rejection names the offending parameter. */
export function parseListQuery(params: URLSearchParams): ParseResult {
  for (const name of KNOWN) {
    if (params.getAll(name).length > 1) return { ok: false, message: `${name} was given more than once` }
  }
  const page = positiveInteger('page', params.get('page'))
  if (typeof page === 'string') return { ok: false, message: page }
  const limit = positiveInteger('limit', params.get('limit'))
  if (typeof limit === 'string') return { ok: false, message: limit }

  const sortColumnText = params.get('sortColumn')
  if (sortColumnText !== null && !isEmployeeField(sortColumnText)) {
    return { ok: false, message: `sortColumn '${sortColumnText}' is not a column of the employee list` }
  }
  const sortOrderText = params.get('sortOrder')
  if (sortOrderText !== null && sortOrderText !== 'asc' && sortOrderText !== 'desc') {
    return { ok: false, message: "sortOrder must be 'asc' or 'desc'" }
  }

  const statusText = params.get('statusFilter')
  if (statusText !== null && !INTEGER.test(statusText)) {
    return { ok: false, message: 'statusFilter must be a numeric status code' }
  }

  const searchCol = params.get('searchCol')
  const searchVal = params.get('searchVal')
  if ((searchCol === null) !== (searchVal === null)) {
    return { ok: false, message: 'searchCol and searchVal must be given together' }
  }
  if (searchCol !== null && !isEmployeeField(searchCol)) {
    return { ok: false, message: `searchCol '${searchCol}' is not a column of the employee list` }
  }

  return {
    ok: true,
    query: {
      page: page ?? 1,
      limit,
      sortColumn: sortColumnText,
      sortOrder: sortOrderText ?? 'asc',
      filter: {
        statusCode: statusText === null ? null : Number(statusText),
        payCycleId: params.get('payCycleId'),
        search: searchCol !== null && searchVal !== null ? { column: searchCol, value: searchVal } : null,
      },
    },
  }
}
