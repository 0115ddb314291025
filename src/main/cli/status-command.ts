import { resolve } from 'node:path'
import type { SyncRunSummary } from '../../shared/domain'
import { openCacheDatabase } from '../core/cache/cache-database'
import type { CacheDatabase } from '../core/cache/cache-database'
import { toIpcError } from '../core/errors'
import { UsageError, parseCommandArgs, requiredOption, writeLine } from './cache-command-args'
import type { CacheCommandIo } from './cache-command-args'

export const STATUS_USAGE = 'Usage: status --db FILE [--json]'

const OPTIONS = {
  db: { type: 'string' },
  json: { type: 'boolean' },
} as const

/**
 * `status`: what an existing cache holds. With --json, stdout is one object:
 * {"employeeCount":N,"lastRun":SyncRunSummary|null,"lastComplete":SyncRunSummary|null,"changes":ChangeReport|null}
 * where `changes` is the change report of the snapshot the cache holds. Exit codes: 0, 1 missing/damaged cache,
 * 2 bad usage.
 */
export async function runStatusCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let db: string
  let json: boolean
  try {
    const values = parseCommandArgs(args, OPTIONS)
    db = resolve(requiredOption(values, 'db'))
    json = values['json'] === true
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `${error.message} ${STATUS_USAGE}`)
      return 2
    }
    throw error
  }
  let cache: CacheDatabase | null = null
  try {
    cache = openCacheDatabase(db, { mustExist: true })
    const lastRun = cache.lastRun() ?? null
    const lastComplete = cache.lastCompleteRun() ?? null
    const status = {
      employeeCount: cache.employeeCount(),
      lastRun,
      lastComplete,
      changes: lastComplete?.changes ?? null,
    }
    if (json) writeLine(io.stdout, JSON.stringify(status))
    else io.stdout.write(describe(status.employeeCount, lastRun, lastComplete))
    return 0
  } catch (error) {
    writeLine(io.stderr, `Status failed: ${toIpcError(error).message}`)
    return 1
  } finally {
    cache?.close()
  }
}

function describe(
  count: number,
  lastRun: SyncRunSummary | null,
  lastComplete: SyncRunSummary | null,
): string {
  const lines = [`Employees in the cache: ${count}`]
  if (lastRun === null) lines.push('No sync has run yet.')
  else {
    lines.push(
      `Last sync: ${lastRun.status} at ${lastRun.endedAt}${lastRun.error ? ` (${lastRun.error})` : ''}`,
    )
  }
  if (lastComplete !== null && lastComplete.id !== lastRun?.id) {
    lines.push(`Last complete sync: ${lastComplete.endedAt}`)
  }
  const changes = lastComplete?.changes
  if (changes !== undefined) {
    lines.push(
      `Changes in that sync: ${changes.added} added, ${changes.removed} removed, ${changes.changed} changed`,
    )
  }
  return `${lines.join('\n')}\n`
}
