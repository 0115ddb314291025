import type { ServiceLookupRequest, ServiceLookupResult } from '../../../shared/domain/lookup'
import {
  firstNameMatches,
  SERVICE_LOOKUP_DEFAULT_SORT,
  SERVICE_LOOKUP_NAME_PAGE_SIZE,
  SERVICE_LOOKUP_PAGE_SIZE,
  serviceLookupColumns,
  serviceLookupNames,
} from '../../../shared/service-lookup'
import { checkValue, serviceAddressSchema } from '../../../shared/settings-schema'
import type { FetchLike } from '../api/fetch-like'
import { isHttpStatusError, serviceSaid } from '../api/http-json'
import { EMPLOYEE_LIST, ListClient } from '../api/list-client'
import type { ListEnvelope } from '../api/list-envelope'
import type { RetryPolicy } from '../api/retry-policy'
import type { AccessTokenSource } from '../api/access-token-source'
import { columnLabel } from '../columns/column-label'
import type { Clock } from '../clock'
import { RosterDeskError } from '../errors'

export interface ServiceLookupDeps {
  readonly fetch: FetchLike
  /** The app's TokenManager: the same token, refresh and sign-out rules as the sync. */
  readonly tokens: AccessTokenSource
  readonly clock: Clock
  readonly random: () => number
  /** The environment signed in to, read per search so a settings change applies at once. */
  readonly environment: () => { readonly baseUrl: string; readonly tenantId: string }
  /** Whether the cache's current snapshot holds this UUID. */
  readonly isSaved: (uuid: string) => boolean
}

/**
 * A clerk is waiting at the screen: one quick retry for a blip, a short Retry-After honoured, and no request
 * longer than the timeout; anything else is reported at once so they can decide what to do.
 */
export const SERVICE_LOOKUP_RETRY: Partial<RetryPolicy> = Object.freeze({
  maxAttempts: 2,
  baseDelayMs: 300,
  maxDelayMs: 1_000,
  maxRetryAfterMs: 10_000,
})
export const SERVICE_LOOKUP_TIMEOUT_MS = 15_000

/**
 * Looks employees up on the payroll service itself: for each column the rules pick, one page of the employee list
 * with `searchCol`/`searchVal` and `sortColumn`/`sortOrder`, all columns at once; for a full name, also each last
 * name it may hold (serviceLookupNames, both orders: the service searches one column), one larger page each, kept
 * where the first name matches too. Rows keep the order the service gave, column by column, then name by name,
 * each employee once, and say whether the cache holds them too. Nothing is stored.
 */
export async function lookupService(
  deps: ServiceLookupDeps,
  request: ServiceLookupRequest,
  signal?: AbortSignal,
): Promise<ServiceLookupResult> {
  const environment = deps.environment()
  const address = checkValue(serviceAddressSchema, environment.baseUrl)
  if (!address.ok) throw new RosterDeskError('config', `${address.problem} Check it in Settings.`)
  const client = new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl: address.value,
    ...(environment.tenantId === '' ? {} : { tenantId: environment.tenantId }),
    fetch: deps.fetch,
    tokens: deps.tokens,
    clock: deps.clock,
    random: deps.random,
    retry: SERVICE_LOOKUP_RETRY,
    timeoutMs: SERVICE_LOOKUP_TIMEOUT_MS,
  })
  const text = request.text.trim()
  const sort = request.sort ?? SERVICE_LOOKUP_DEFAULT_SORT
  const columns = serviceLookupColumns(text, request.column)
  const readings = serviceLookupNames(text, request.column)
  const ask = (column: string, value: string, limit: number): Promise<ListEnvelope> =>
    client
      .fetchPage(
        {
          page: 1,
          limit,
          sortColumn: sort.column,
          sortOrder: sort.order,
          searchCol: column,
          searchVal: value,
        },
        signal,
      )
      .catch((error: unknown) => {
        throw refusal(error, request.column === undefined ? undefined : column)
      })
  const [pages, namePages] = await Promise.all([
    Promise.all(columns.map((column) => ask(column, text, SERVICE_LOOKUP_PAGE_SIZE))),
    Promise.all(readings.map((reading) => ask('lastName', reading.lastName, SERVICE_LOOKUP_NAME_PAGE_SIZE))),
  ])
  const named = readings.map((reading, i) => {
    const page = namePages[i]
    const rows = (page?.rows ?? []).filter((row) => firstNameMatches(row['firstName'], reading.firstName))
    return { reading, page, rows }
  })
  return {
    rows: merge([...pages, ...named], deps.isSaved),
    searched: columns.map((column, i) => ({
      column,
      label: columnLabel(column),
      totalCount: pages[i]?.totalCount ?? 0,
      shown: pages[i]?.rows.length ?? 0,
    })),
    asNames: named.map(({ reading, page, rows }) => ({
      ...reading,
      totalCount: page?.totalCount ?? 0,
      shown: page?.rows.length ?? 0,
      matched: rows.length,
    })),
    fetchedAt: new Date(deps.clock.now()).toISOString(),
  }
}

/** Each employee once, in the order the pages list them, marked saved or not. */
function merge(
  pages: ReadonlyArray<Pick<ListEnvelope, 'rows'>>,
  isSaved: (uuid: string) => boolean,
): ServiceLookupResult['rows'] {
  const seen = new Set<string>()
  const rows: ServiceLookupResult['rows'] = []
  for (const page of pages) {
    for (const row of page.rows) {
      // The envelope reader checked every employee row has its UUID as text.
      const uuid = String(row['UUID'])
      if (seen.has(uuid)) continue
      seen.add(uuid)
      rows.push({ row, saved: isSaved(uuid) })
    }
  }
  return rows
}

/**
 * A 400 is the service refusing this search (the spec does not say which columns it searches): said in those
 * words, naming the column the clerk chose, instead of the sync's advice about page sizes.
 */
function refusal(error: unknown, chosenColumn: string | undefined): unknown {
  if (!isHttpStatusError(error) || error.status !== 400) return error
  const said = serviceSaid(error.body)
  const message =
    chosenColumn === undefined
      ? `The payroll service refused this search (HTTP 400)${said}. Try other words, or sync to look in your saved employees.`
      : `The payroll service refused to search in ${columnLabel(chosenColumn)} (HTTP 400)${said}. Choose “Names and IDs” in “Search in”, or another column.`
  return new RosterDeskError('service', message, { detail: 'HTTP 400 on a service search', cause: error })
}
