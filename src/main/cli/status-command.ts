import type { SyncRunSummary } from '../../shared/domain/sync'
import { writeLine } from './cache-command-args'
import type { CacheCommandIo } from './cache-command-args'
import { runCacheReader } from './cache-reader-command'
import { terminalText } from './terminal-text'

export const STATUS_USAGE = 'Usage: status (--db FILE | --profile NAME [--data-dir DIR]) [--json]'

/**
 * `status`: what an existing cache holds. With --json, stdout is one object:
 * {"employeeCount":N,"lastRun":SyncRunSummary|null,"lastComplete":SyncRunSummary|null,"changes":ChangeReport|null}
 * where `changes` is the change report of the snapshot the cache holds. Exit codes: 0, 1 missing/damaged cache,
 * 2 bad usage.
 */
export function runStatusCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  return runCacheReader(
    {
      usage: STATUS_USAGE,
      failure: 'Status failed',
      options: { json: { type: 'boolean' } },
      parse: (values) => ({ json: values['json'] === true }),
      run: ({ cache }, { json }) => {
        const lastRun = cache.runs.lastRun() ?? null
        const lastComplete = cache.lastCompleteRun() ?? null
        const status = {
          employeeCount: cache.employeeCount(),
          lastRun,
          lastComplete,
          changes: lastComplete?.changes ?? null,
        }
        if (json) writeLine(io.stdout, JSON.stringify(status))
        else io.stdout.write(describe(status.employeeCount, lastRun, lastComplete))
      },
    },
    args,
    io,
  )
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
  return `${lines.map(terminalText).join('\n')}\n`
}
