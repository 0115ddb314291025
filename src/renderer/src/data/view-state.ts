import { VIEW_LIMITS, type ColumnLayout, type ViewState } from '../../../shared/view-schema'
import type { EmployeeFilters } from './employee-filters'

/**
 * The browse view as a ViewState (what main keeps per profile and under a name): the search box as typed, the
 * filters, the sort and the table's column layout. A layout with no columns yet (the data's columns are still
 * being read) is left out rather than kept empty.
 */
export function toViewState(
  text: string,
  choice: Omit<EmployeeFilters, 'text'>,
  layout: ColumnLayout | undefined,
): ViewState {
  return {
    text: text.slice(0, VIEW_LIMITS.text),
    ...(choice.searchColumn === undefined ? {} : { searchColumn: choice.searchColumn }),
    statuses: choice.statuses.slice(0, VIEW_LIMITS.values),
    payCycleIds: choice.payCycleIds.slice(0, VIEW_LIMITS.values),
    ...(choice.sort === undefined ? {} : { sort: { column: choice.sort.column, order: choice.sort.order } }),
    ...(layout === undefined || layout.keys.length === 0 ? {} : { columns: layout }),
  }
}

/** The filters a ViewState puts on screen (its text goes to the search box). */
export function filtersOf(state: ViewState): Omit<EmployeeFilters, 'text'> {
  return {
    searchColumn: state.searchColumn,
    statuses: [...state.statuses],
    payCycleIds: [...state.payCycleIds],
    sort: state.sort === undefined ? undefined : { ...state.sort },
  }
}
