import type { RowQuery } from '../core/query/query-engine'
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
} as const satisfies Record<string, OptionSpec>

/** The query the filter options describe (no window); throws UsageError for combinations that mean nothing. */
export function parseFilterOptions(values: ParsedValues): RowQuery {
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
  return {
    ...(text === undefined ? {} : { text }),
    ...(column === undefined ? {} : { column }),
    ...(statuses.length === 0 ? {} : { statuses }),
    ...(payCycleIds.length === 0 ? {} : { payCycleIds }),
    ...(sort === undefined ? {} : { sort: { column: sort, order: order ?? 'asc' } }),
  }
}
