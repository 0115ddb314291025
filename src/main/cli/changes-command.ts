import { resolve } from 'node:path'
import { openCacheDatabase } from '../core/cache/cache-database'
import type { CacheDatabase } from '../core/cache/cache-database'
import { toIpcError } from '../core/errors'
import { QueryEngine } from '../core/query/query-engine'
import type { ChangeKind } from '../core/query/snapshot-queries'
import { UsageError, integerOption, parseCommandArgs, requiredOption, writeLine } from './cache-command-args'
import type { CacheCommandIo } from './cache-command-args'

export const CHANGES_USAGE =
  'Usage: changes --db FILE --kind added|removed|changed [--offset N] [--limit N] [--json]'

const OPTIONS = {
  db: { type: 'string' },
  kind: { type: 'string' },
  offset: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
} as const

const KINDS: readonly ChangeKind[] = ['added', 'removed', 'changed']

/**
 * `changes`: the full list behind one count of the last complete sync's change report (`status` carries the
 * counts and the first names only). With --json, stdout is one object:
 * {"kind":"added","total":N,"items":[{"UUID":"…","name":"…","fields":["…"]}]} (`fields` for changed employees).
 * Exit codes: 0, 1 missing/damaged cache, 2 bad usage.
 */
export async function runChangesCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let db: string
  let kind: ChangeKind
  let offset: number
  let limit: number
  let json: boolean
  try {
    const values = parseCommandArgs(args, OPTIONS)
    db = resolve(requiredOption(values, 'db'))
    const kindText = requiredOption(values, 'kind')
    const known = KINDS.find((k) => k === kindText)
    if (known === undefined) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}.`)
    kind = known
    offset = integerOption(values, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
    limit = integerOption(values, 'limit', 1000, 0, 1000)
    json = values['json'] === true
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `${error.message} ${CHANGES_USAGE}`)
      return 2
    }
    throw error
  }
  let cache: CacheDatabase | null = null
  try {
    cache = openCacheDatabase(db, { mustExist: true })
    const page = new QueryEngine(cache).listChanges(kind, offset, limit)
    if (json) writeLine(io.stdout, JSON.stringify({ kind, total: page.total, items: page.items }))
    else {
      const lines = page.items.map(
        (item) => `${item.UUID}\t${item.name}${item.fields ? `\t${item.fields.join(', ')}` : ''}`,
      )
      io.stdout.write(
        `${[`${page.total} ${kind}`, ...lines].join('\n')}\n${offset + page.items.length < page.total ? `… use --offset ${offset + page.items.length} for more\n` : ''}`,
      )
    }
    return 0
  } catch (error) {
    writeLine(io.stderr, `Changes failed: ${toIpcError(error).message}`)
    return 1
  } finally {
    cache?.close()
  }
}
