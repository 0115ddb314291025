import type { ServiceLookupResult } from '../../../src/shared/domain/lookup'
import type { EmployeeRow } from '../../../src/shared/domain/rows'
import {
  SERVICE_LOOKUP_DEFAULT_SORT,
  SERVICE_LOOKUP_PAGE_SIZE,
  serviceLookupColumns,
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
 * substring), one page each, merged in column order with each employee once and marked saved or not.
 */
export function fakeServiceLookup(
  service: readonly EmployeeRow[],
  isSaved: (uuid: string) => boolean,
  request: FakeServiceLookupRequest,
  now: number,
): ServiceLookupResult {
  const sort = request.sort ?? SERVICE_LOOKUP_DEFAULT_SORT
  const needle = request.text.toLowerCase()
  const labels = columnsOf(service)
  const seen = new Set<string>()
  const rows: ServiceLookupResult['rows'] = []
  const searched = serviceLookupColumns(request.text, request.column).map((column) => {
    const matches = service
      .filter((row) => {
        const value = row[column]
        return value !== undefined && value !== null && String(value).toLowerCase().includes(needle)
      })
      .sort((a, b) => compare(a[sort.column], b[sort.column]) * (sort.order === 'asc' ? 1 : -1))
    const page = matches.slice(0, SERVICE_LOOKUP_PAGE_SIZE)
    for (const row of page) {
      const uuid = String(row.UUID)
      if (seen.has(uuid)) continue
      seen.add(uuid)
      rows.push({ row, saved: isSaved(uuid) })
    }
    const label = labels.find((info) => info.key === column)?.label ?? column
    return { column, label, totalCount: matches.length, shown: page.length }
  })
  return { rows, searched, fetchedAt: new Date(now).toISOString() }
}
