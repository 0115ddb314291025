import { MAX_QUERY_WINDOW } from '../../shared/domain'
import type { EmployeeQuery, EmployeeRow } from '../../shared/domain'
import { QueryEngine } from '../core/query/query-engine'
import { UsageError, integerOption, listOption, stringOption, writeLine } from './cache-command-args'
import type { CacheCommandIo, ParsedValues } from './cache-command-args'
import { runCacheReader } from './cache-reader-command'

export const SEARCH_USAGE =
  'Usage: search --db FILE [--q TEXT] [--col COLUMN] [--status TEXT]... [--pay-cycle ID]... [--sort COLUMN] ' +
  '[--order asc|desc] [--limit N] [--offset N] [--facets] [--json]'

const OPTIONS = {
  q: { type: 'string' },
  col: { type: 'string' },
  status: { type: 'string', multiple: true },
  'pay-cycle': { type: 'string', multiple: true },
  sort: { type: 'string' },
  order: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  facets: { type: 'boolean' },
  json: { type: 'boolean' },
} as const

/**
 * `search`: runs one query against an existing cache (never creates one). With --json, stdout is
 * {"total":N,"rows":[…]} (plus "facets" with --facets), each row every field as the service sent it.
 * Exit codes: 0 success, 1 cache missing/damaged or query refused, 2 bad usage.
 */
export function runSearchCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  return runCacheReader(
    {
      usage: SEARCH_USAGE,
      failure: 'Search failed',
      options: OPTIONS,
      parse: (values) => ({ query: buildQuery(values), json: values['json'] === true }),
      run: (cache, { query, json }) => {
        const result = new QueryEngine(cache).query(query)
        if (json) {
          writeLine(io.stdout, JSON.stringify(result))
          return
        }
        io.stdout.write(`${result.total} employee${result.total === 1 ? '' : 's'}\n`)
        for (const row of result.rows) io.stdout.write(`${describe(row)}\n`)
      },
    },
    args,
    io,
  )
}

function buildQuery(values: ParsedValues): EmployeeQuery {
  const order = stringOption(values, 'order')
  if (order !== undefined && order !== 'asc' && order !== 'desc')
    throw new UsageError('--order must be asc or desc.')
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
    offset: integerOption(values, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: integerOption(values, 'limit', 100, 0, MAX_QUERY_WINDOW),
    ...(values['facets'] === true ? { facets: true } : {}),
  }
}

function describe(row: EmployeeRow): string {
  const text = (key: string): string => (typeof row[key] === 'string' ? (row[key] as string) : '')
  return [`${text('lastName')}, ${text('firstName')}`, text('employeeStatus'), text('UUID')].join('  ')
}
