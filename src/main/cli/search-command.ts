import { resolve } from 'node:path'
import { MAX_QUERY_WINDOW } from '../../shared/domain'
import type { EmployeeQuery, EmployeeRow } from '../../shared/domain'
import { openCacheDatabase } from '../core/cache/cache-database'
import type { CacheDatabase } from '../core/cache/cache-database'
import { toIpcError } from '../core/errors'
import { QueryEngine } from '../core/query/query-engine'
import {
  UsageError,
  integerOption,
  listOption,
  parseCommandArgs,
  requiredOption,
  stringOption,
  writeLine,
} from './cache-command-args'
import type { CacheCommandIo } from './cache-command-args'

export const SEARCH_USAGE =
  'Usage: search --db FILE [--q TEXT] [--col COLUMN] [--status TEXT]... [--pay-cycle ID]... [--sort COLUMN] ' +
  '[--order asc|desc] [--limit N] [--offset N] [--facets] [--json]'

const OPTIONS = {
  db: { type: 'string' },
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
export async function runSearchCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let db: string
  let query: EmployeeQuery
  let json: boolean
  try {
    const values = parseCommandArgs(args, OPTIONS)
    db = resolve(requiredOption(values, 'db'))
    json = values['json'] === true
    query = buildQuery(values)
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `${error.message} ${SEARCH_USAGE}`)
      return 2
    }
    throw error
  }
  let cache: CacheDatabase | null = null
  try {
    cache = openCacheDatabase(db, { mustExist: true })
    const result = new QueryEngine(cache).query(query)
    if (json) {
      writeLine(io.stdout, JSON.stringify(result))
    } else {
      io.stdout.write(`${result.total} employee${result.total === 1 ? '' : 's'}\n`)
      for (const row of result.rows) io.stdout.write(`${describe(row)}\n`)
    }
    return 0
  } catch (error) {
    writeLine(io.stderr, `Search failed: ${toIpcError(error).message}`)
    return 1
  } finally {
    cache?.close()
  }
}

function buildQuery(values: ReturnType<typeof parseCommandArgs>): EmployeeQuery {
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
