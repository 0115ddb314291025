/**
 * The query of every list endpoint (spec §4.4, and §4.5: "all list endpoints accept the same query parameters").
 * One typed request and one builder, so the sync, the live lookup and any later list speak the spec's names and
 * nothing else: a parameter is sent exactly as the spec spells it, and only when it is set.
 */

/** The spec's one status code: `statusFilter=1` selects active employees (§2, §4.4). */
export const ACTIVE_STATUS_FILTER = '1'

interface ListRequestBase {
  /** Page number, from 1. */
  readonly page?: number
  /** Records per page. */
  readonly limit?: number
  /** Column to sort by (for example lastName). */
  readonly sortColumn?: string
  readonly sortOrder?: 'asc' | 'desc'
  /** A numeric status code as text; only `1` (active) is known. */
  readonly statusFilter?: string
  /** Restrict the list to one pay cycle. */
  readonly payCycleId?: string
}

/** `searchCol` and `searchVal` are "used together" (§4.4), so the type allows both or neither. */
type ListSearch =
  | { readonly searchCol: string; readonly searchVal: string }
  | { readonly searchCol?: undefined; readonly searchVal?: undefined }

/** One request to a list endpoint: any of the eight parameters of §4.4, each optional. */
export type ListRequest = ListRequestBase & ListSearch

/** The parameters in the order §4.4 lists them, which is the order they are written in the URL. */
export const LIST_PARAMETERS = [
  'page',
  'limit',
  'sortColumn',
  'sortOrder',
  'statusFilter',
  'searchCol',
  'searchVal',
  'payCycleId',
] as const satisfies ReadonlyArray<keyof ListRequestBase | 'searchCol' | 'searchVal'>

/**
 * The query string of a list request. Throws RangeError for a request no caller should build (page 0, an empty
 * column name, half a search): those are bugs, and sending them would only earn a 400 from the service.
 */
export function listQueryParams(request: ListRequest): URLSearchParams {
  const params = new URLSearchParams()
  for (const name of LIST_PARAMETERS) {
    const value = request[name]
    if (value === undefined) continue
    if (name === 'page' || name === 'limit') {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a whole number of at least 1`)
      }
    } else if (name === 'sortOrder') {
      if (value !== 'asc' && value !== 'desc') throw new RangeError("sortOrder must be 'asc' or 'desc'")
    } else if (value === '') {
      // An empty column, filter or search would select nothing (or everything); leaving it out is what was meant.
      throw new RangeError(`${name} must not be empty`)
    }
    params.set(name, String(value))
  }
  if ((request.searchCol === undefined) !== (request.searchVal === undefined)) {
    throw new RangeError('searchCol and searchVal go together')
  }
  return params
}

/** The full URL of a list request: the base address (any trailing slash dropped), the path, the parameters. */
export function listRequestUrl(baseUrl: string, path: string, request: ListRequest): string {
  if (!path.startsWith('/')) throw new RangeError('a list path starts with /')
  const url = new URL(baseUrl.replace(/\/+$/, '') + path)
  url.search = listQueryParams(request).toString()
  return url.toString()
}
