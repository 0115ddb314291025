import type { ServiceLookupResult } from '../../../src/shared/domain/lookup'
import type { EmployeeRow } from '../../../src/shared/domain/rows'
import {
  firstNameMatches,
  SERVICE_LOOKUP_DEFAULT_SORT,
  SERVICE_LOOKUP_NAME_PAGE_SIZE,
  SERVICE_LOOKUP_PAGE_SIZE,
  serviceLookupColumns,
  serviceLookupNames,
} from '../../../src/shared/service-lookup'
import { columnsOf } from './fake-query'

/** What the fake's `employees:lookup-service` handler receives, after the contract's validation. */
export interface FakeServiceLookupRequest {
  readonly text: string
  readonly column?: string | undefined
  readonly sort?: { readonly column: string; readonly order: 'asc' | 'desc' } | undefined
}

function compare(a: unknown, b: unknown): number {
  const x = a === undefined || a === null ? '' : String(a)
  const y = b === undefined || b === null ? '' : String(b)
  return x < y ? -1 : x > y ? 1 : 0
}

/**
 * `employees:lookup-service` over the fake's service employees: the app's own rules pick the columns, page size and
 * default order (shared/service-lookup.ts); each column matches as the sandbox service does (a case-insensitive
 * substring), one page each, then each reading of a full name (a last name asked, its first name checked), merged
 * in that order with each employee once and marked saved or not.
 */
export function fakeServiceLookup(
  service: readonly EmployeeRow[],
  isSaved: (uuid: string) => boolean,
  request: FakeServiceLookupRequest,
  now: number,
): ServiceLookupResult {
  const sort = request.sort ?? SERVICE_LOOKUP_DEFAULT_SORT
  const labels = columnsOf(service)
  const seen = new Set<string>()
  const rows: ServiceLookupResult['rows'] = []
  const matching = (column: string, text: string): EmployeeRow[] =>
    service
      .filter((row) => {
        const value = row[column]
        return (
          value !== undefined && value !== null && String(value).toLowerCase().includes(text.toLowerCase())
        )
      })
      .sort((a, b) => compare(a[sort.column], b[sort.column]) * (sort.order === 'asc' ? 1 : -1))
  const add = (page: readonly EmployeeRow[]): void => {
    for (const row of page) {
      const uuid = String(row.UUID)
      if (seen.has(uuid)) continue
      seen.add(uuid)
      rows.push({ row, saved: isSaved(uuid) })
    }
  }
  const searched = serviceLookupColumns(request.text, request.column).map((column) => {
    const matches = matching(column, request.text)
    const page = matches.slice(0, SERVICE_LOOKUP_PAGE_SIZE)
    add(page)
    const label = labels.find((info) => info.key === column)?.label ?? column
    return { column, label, totalCount: matches.length, shown: page.length }
  })
  const asNames = serviceLookupNames(request.text, request.column).map((reading) => {
    const matches = matching('lastName', reading.lastName)
    const page = matches.slice(0, SERVICE_LOOKUP_NAME_PAGE_SIZE)
    const kept = page.filter((row) => firstNameMatches(row['firstName'], reading.firstName))
    add(kept)
    return { ...reading, totalCount: matches.length, shown: page.length, matched: kept.length }
  })
  return { rows, searched, asNames, fetchedAt: new Date(now).toISOString() }
}
