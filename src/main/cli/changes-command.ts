import { QueryEngine } from '../core/query/query-engine'
import type { ChangeKind } from '../core/query/snapshot-queries'
import { UsageError, integerOption, requiredOption, writeLine } from './cache-command-args'
import type { CacheCommandIo } from './cache-command-args'
import { runCacheReader } from './cache-reader-command'

export const CHANGES_USAGE =
  'Usage: changes --db FILE --kind added|removed|changed [--offset N] [--limit N] [--json]'

const KINDS: readonly ChangeKind[] = ['added', 'removed', 'changed']

/**
 * `changes`: the full list behind one count of the last complete sync's change report (`status` carries the
 * counts and the first names only). With --json, stdout is one object:
 * {"kind":"added","total":N,"items":[{"UUID":"…","name":"…","fields":["…"]}]} (`fields` for changed employees).
 * Exit codes: 0, 1 missing/damaged cache, 2 bad usage.
 */
export function runChangesCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  return runCacheReader(
    {
      usage: CHANGES_USAGE,
      failure: 'Changes failed',
      options: {
        kind: { type: 'string' },
        offset: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
      },
      parse: (values) => {
        const kindText = requiredOption(values, 'kind')
        const kind = KINDS.find((k) => k === kindText)
        if (kind === undefined) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}.`)
        return {
          kind,
          offset: integerOption(values, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
          limit: integerOption(values, 'limit', 1000, 0, 1000),
          json: values['json'] === true,
        }
      },
      run: (cache, { kind, offset, limit, json }) => {
        const page = new QueryEngine(cache).listChanges(kind, offset, limit)
        if (json) {
          writeLine(io.stdout, JSON.stringify({ kind, total: page.total, items: page.items }))
          return
        }
        const lines = page.items.map(
          (item) => `${item.UUID}\t${item.name}${item.fields ? `\t${item.fields.join(', ')}` : ''}`,
        )
        const next = offset + page.items.length
        if (next < page.total) lines.push(`… use --offset ${next} for more`)
        io.stdout.write(`${[`${page.total} ${kind}`, ...lines].join('\n')}\n`)
      },
    },
    args,
    io,
  )
}
