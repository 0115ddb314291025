import type { RowQuery, SortOrder } from '../../../shared/domain/query'

/** What the clerk chose in the browse view: everything of an employees query except the window. */
export interface EmployeeFilters {
  readonly text: string
  /** The one column the text is looked for in; undefined: names and identifiers (number, e-mail, UUID). */
  readonly searchColumn: string | undefined
  readonly statuses: readonly string[]
  readonly payCycleIds: readonly string[]
  readonly sort: { readonly column: string; readonly order: SortOrder } | undefined
}

export const EMPTY_FILTERS: EmployeeFilters = {
  text: '',
  searchColumn: undefined,
  statuses: [],
  payCycleIds: [],
  sort: undefined,
}

/** True when any filter narrows the list (sorting does not). */
export function hasFilters(filters: EmployeeFilters): boolean {
  return filters.text.trim() !== '' || filters.statuses.length > 0 || filters.payCycleIds.length > 0
}

/** The query main runs for these filters, without offset and limit; empty filters are left out. */
export function toQuery(filters: EmployeeFilters): RowQuery {
  const query: RowQuery = {}
  const text = filters.text.trim()
  if (text !== '') {
    query.text = text.slice(0, 200)
    if (filters.searchColumn !== undefined) query.column = filters.searchColumn
  }
  if (filters.statuses.length > 0) query.statuses = [...filters.statuses]
  if (filters.payCycleIds.length > 0) query.payCycleIds = [...filters.payCycleIds]
  if (filters.sort) query.sort = { column: filters.sort.column, order: filters.sort.order }
  return query
}

/** Adds `value` to the list, or removes it when present. */
export function toggleValue(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value]
}

/** The next sort after a click on `column`'s header: ascending first, then flipping. */
export function nextSort(
  current: EmployeeFilters['sort'],
  column: string,
): NonNullable<EmployeeFilters['sort']> {
  if (current?.column === column) return { column, order: current.order === 'asc' ? 'desc' : 'asc' }
  return { column, order: 'asc' }
}
