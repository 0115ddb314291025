import { MAX_QUERY_WINDOW } from '../../shared/domain/query'
import type { EmployeeQuery } from '../../shared/domain/query'
import type { EmployeeRow } from '../../shared/domain/rows'
import { integerOption, stringOption, writeLine } from './cache-command-args'
import type { CacheCommandIo, ParsedValues } from './cache-command-args'
import { runCacheReader } from './cache-reader-command'
import { FILTER_OPTIONS, viewOptionHelp, parseFilterOptions } from './filter-options'
import { findCliView, type CliProfile } from './profile-flag'
import { terminalText } from './terminal-text'

export const SEARCH_USAGE =
  'Usage: search (--db FILE | --profile NAME [--data-dir DIR]) [--view NAME] [--q TEXT] [--col COLUMN] [--status TEXT]... [--pay-cycle ID]... [--sort COLUMN] ' +
  `[--order asc|desc] [--limit N] [--offset N] [--facets] [--json]. ${viewOptionHelp(false)}`

const OPTIONS = {
  ...FILTER_OPTIONS,
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
      parse: (values, profile) => ({ query: buildQuery(values, profile), json: values['json'] === true }),
      run: (session, { query, json }) => {
        const result = session.queries.query(query)
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

function buildQuery(values: ParsedValues, profile: CliProfile | undefined): EmployeeQuery {
  const viewName = stringOption(values, 'view')
  const view = viewName === undefined ? undefined : findCliView(viewName, profile).state
  return {
    ...parseFilterOptions(values, view),
    offset: integerOption(values, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: integerOption(values, 'limit', 100, 0, MAX_QUERY_WINDOW),
    ...(values['facets'] === true ? { facets: true } : {}),
  }
}

function describe(row: EmployeeRow): string {
  const text = (key: string): string => (typeof row[key] === 'string' ? terminalText(row[key] as string) : '')
  return [`${text('lastName')}, ${text('firstName')}`, text('employeeStatus'), text('UUID')].join('  ')
}
