import type { RowQuery } from '../../shared/domain/query'
import type { ViewState } from '../../shared/view-schema'
import { UsageError, listOption, stringOption } from './cache-command-args'
import type { OptionSpec, ParsedValues } from './cache-command-args'

/** The search command's filters, which `export` takes too: one parser, so both commands read them alike. */
export const FILTER_OPTIONS = {
  q: { type: 'string' },
  col: { type: 'string' },
  status: { type: 'string', multiple: true },
  'pay-cycle': { type: 'string', multiple: true },
  sort: { type: 'string' },
  order: { type: 'string' },
  view: { type: 'string' },
} as const satisfies Record<string, OptionSpec>

/** What a command's usage line says about `--view` (export also takes the view's columns). */
export function viewOptionHelp(columns: boolean): string {
  const parts = columns
    ? 'search, statuses, pay cycles, sort and columns'
    : 'search, statuses, pay cycles and sort'
  const flags = `--q/--col, --status, --pay-cycle, --sort/--order${columns ? ' and --columns' : ''}`
  return `--view NAME (with --profile) starts from a view saved in the app: its ${parts}; ${flags} given as well win over those parts.`
}

/**
 * The query the filter options describe (no window), starting from `view` when `--view` named one: each option
 * given replaces that part of the view (--q with --col the search, --status the statuses, --pay-cycle the pay
 * cycles, --sort with --order the sort). Throws UsageError for combinations that mean nothing.
 */
export function parseFilterOptions(values: ParsedValues, view?: ViewState): RowQuery {
  const order = stringOption(values, 'order')
  if (order !== undefined && order !== 'asc' && order !== 'desc') {
    throw new UsageError('--order must be asc or desc.')
  }
  const sort = stringOption(values, 'sort')
  if (order !== undefined && sort === undefined) throw new UsageError('--order needs --sort.')
  const text = stringOption(values, 'q')
  const column = stringOption(values, 'col')
  if (column !== undefined && text === undefined) throw new UsageError('--col needs --q.')
  const statuses = listOption(values, 'status')
  const payCycleIds = listOption(values, 'pay-cycle')
  const flags: RowQuery = {
    ...(text === undefined ? {} : { text }),
    ...(column === undefined ? {} : { column }),
    ...(statuses.length === 0 ? {} : { statuses }),
    ...(payCycleIds.length === 0 ? {} : { payCycleIds }),
    ...(sort === undefined ? {} : { sort: { column: sort, order: order ?? 'asc' } }),
  }
  if (view === undefined) return flags
  const saved = viewQuery(view)
  // --q replaces the view's search whole: its "Search in" column goes with its text.
  const search = flags.text === undefined ? saved : flags
  const chosen = {
    text: search.text,
    column: search.column,
    statuses: flags.statuses ?? saved.statuses,
    payCycleIds: flags.payCycleIds ?? saved.payCycleIds,
    sort: flags.sort ?? saved.sort,
  }
  return Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined)) as RowQuery
}

/** A saved view's query, as the app runs it for that view (blank text is no search). */
export function viewQuery(view: ViewState): RowQuery {
  const text = view.text.trim()
  return {
    ...(text === '' ? {} : { text }),
    ...(text === '' || view.searchColumn === undefined ? {} : { column: view.searchColumn }),
    ...(view.statuses.length === 0 ? {} : { statuses: [...view.statuses] }),
    ...(view.payCycleIds.length === 0 ? {} : { payCycleIds: [...view.payCycleIds] }),
    ...(view.sort === undefined ? {} : { sort: { ...view.sort } }),
  }
}
