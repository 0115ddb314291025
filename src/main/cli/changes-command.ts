import { extname, resolve } from 'node:path'
import type { ChangeEntry, ChangeHistoryEntry, ChangeKind } from '../../shared/domain/changes'
import type { ChangeHistory } from '../core/changes/change-history'
import { RosterDeskError } from '../core/errors'
import type { ExportService } from '../core/export/export-service'
import { exportFormatProblem, exportRulesOf } from '../core/policy/export-rules'
import { NO_POLICY } from '../core/policy/policy-in-force'
import { UsageError, integerOption, requiredOption, stringOption, writeLine } from './cache-command-args'
import type { CacheCommandIo, ParsedValues } from './cache-command-args'
import { runCacheReader } from './cache-reader-command'
import { terminalText } from './terminal-text'

export const CHANGES_USAGE =
  'Usage: changes (--db FILE | --profile NAME [--data-dir DIR]) --kind added|removed|changed [--run ID] [--offset N] [--limit N] [--json] | ' +
  'changes --db FILE --out FILE.xlsx|FILE.csv [--run ID] [--environment E] | changes --db FILE --history [--json]'

const KINDS: readonly ChangeKind[] = ['added', 'removed', 'changed']

type ChangesArgs =
  | {
      readonly mode: 'list'
      readonly kind: ChangeKind
      readonly run?: number
      readonly offset: number
      readonly limit: number
      readonly json: boolean
    }
  | {
      readonly mode: 'export'
      readonly out: string
      readonly format: 'xlsx' | 'csv'
      readonly run?: number
      readonly environment?: string
    }
  | { readonly mode: 'history'; readonly json: boolean }

/**
 * `changes`: the change report a clerk reconciles with, from the cache's history of the last 20 complete syncs.
 * - `--kind K`: the employees one sync added, removed or changed (the latest, or `--run ID`). With --json, stdout
 *   is one object: {"kind":"added","runId":N,"total":N,"items":[ChangeEntry]}, each item {"UUID","name",
 *   "employeeNumber"?, "status"?, "payCycleId"?, "fields"? and "changes"? (changed: each field before → after),
 *   "row"? (removed: the last row)}.
 * - `--out FILE`: writes that sync's changes to .xlsx (sheets Added, Removed, Changed and About) or .csv (one file,
 *   a Change column first) and prints {"rows":N,"file":"…","runId":N}.
 * - `--history`: the syncs of the history, newest first (with --json, {"history":[ChangeHistoryEntry]}).
 * The machine policy's export rules hold as in `export` (a .csv it does not allow is refused as usage).
 * Exit codes: 0, 1 missing/damaged cache or unknown run, 2 bad usage, 130 export interrupted.
 */
export function runChangesCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let interrupted = false
  return runCacheReader<ChangesArgs>(
    {
      usage: CHANGES_USAGE,
      failure: 'Changes failed',
      options: {
        kind: { type: 'string' },
        run: { type: 'string' },
        offset: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
        out: { type: 'string' },
        environment: { type: 'string' },
        history: { type: 'boolean' },
      },
      parse: (values) => {
        const parsed = parseChangesArgs(values)
        // A format the machine policy does not allow is refused like a bad option, as `export` refuses it.
        const refused =
          parsed.mode === 'export'
            ? exportFormatProblem(exportRulesOf(io.policy ?? NO_POLICY), parsed.format)
            : undefined
        if (refused !== undefined) throw new UsageError(refused)
        return parsed
      },
      run: async (session, parsed) => {
        const history = session.changes
        if (parsed.mode === 'history') {
          const runs = history.list()
          if (parsed.json) writeLine(io.stdout, JSON.stringify({ history: runs }))
          else io.stdout.write(`${runs.map(describeRun).join('\n')}\n`)
          return
        }
        const runId = parsed.run ?? latestRun(history)
        if (parsed.mode === 'export') {
          interrupted = !(await exportChanges(session.exports, { ...parsed, runId }, io))
          return
        }
        const { kind, offset, limit, json } = parsed
        const page = history.page(runId, kind, offset, limit)
        if (json) {
          writeLine(io.stdout, JSON.stringify({ kind, runId, total: page.total, items: page.items }))
          return
        }
        const lines = page.items.map(describeEntry)
        const next = offset + page.items.length
        if (next < page.total) lines.push(`… use --offset ${next} for more`)
        io.stdout.write(`${[`${page.total} ${kind}`, ...lines].join('\n')}\n`)
      },
    },
    args,
    io,
  ).then((code) => (code === 0 && interrupted ? EXIT_INTERRUPTED : code))
}

/** Exit code of an export stopped by SIGINT/SIGTERM, as shells expect after an interrupt. */
const EXIT_INTERRUPTED = 130

function parseChangesArgs(values: ParsedValues): ChangesArgs {
  const runText = stringOption(values, 'run')
  const run = runText === undefined ? undefined : integerOption(values, 'run', 0, 1, Number.MAX_SAFE_INTEGER)
  const runPart = run === undefined ? {} : { run }
  if (values['history'] === true) {
    if (values['kind'] !== undefined || values['out'] !== undefined) {
      throw new UsageError('--history lists the syncs; it takes neither --kind nor --out.')
    }
    return { mode: 'history', json: values['json'] === true }
  }
  const outText = stringOption(values, 'out')
  if (outText !== undefined) {
    if (values['kind'] !== undefined) {
      throw new UsageError('--out writes all three lists (added, removed, changed); leave out --kind.')
    }
    const out = resolve(requiredOption(values, 'out'))
    const extension = extname(out).toLowerCase()
    if (extension !== '.xlsx' && extension !== '.csv') {
      throw new UsageError(`--out must end in .xlsx or .csv (got "${extname(out) || 'no extension'}").`)
    }
    const environment = stringOption(values, 'environment')
    return {
      mode: 'export',
      out,
      format: extension === '.xlsx' ? 'xlsx' : 'csv',
      ...runPart,
      ...(environment === undefined ? {} : { environment }),
    }
  }
  const kindText = requiredOption(values, 'kind')
  const kind = KINDS.find((k) => k === kindText)
  if (kind === undefined) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}.`)
  return {
    mode: 'list',
    kind,
    ...runPart,
    offset: integerOption(values, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: integerOption(values, 'limit', 1000, 1, 1000),
    json: values['json'] === true,
  }
}

function latestRun(history: ChangeHistory): number {
  const latest = history.list()[0]
  if (latest === undefined) throw new RosterDeskError('not-found', 'This cache has no complete sync yet.')
  return latest.runId
}

/** Writes the file; false when SIGINT/SIGTERM stopped it (no file is left behind). */
async function exportChanges(
  service: ExportService,
  args: {
    readonly out: string
    readonly format: 'xlsx' | 'csv'
    readonly runId: number
    readonly environment?: string
  },
  io: CacheCommandIo,
): Promise<boolean> {
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const result = await service.exportChanges({
      request: { runId: args.runId, format: args.format },
      filePath: args.out,
      signal: controller.signal,
      ...(args.environment === undefined ? {} : { environment: args.environment }),
    })
    if (result.status === 'cancelled') {
      writeLine(io.stderr, 'Export cancelled; no file was written.')
      return false
    }
    writeLine(io.stdout, JSON.stringify({ rows: result.rows, file: args.out, runId: args.runId }))
    return true
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

function describeRun(run: ChangeHistoryEntry): string {
  const what = run.firstSync
    ? `first sync: ${run.employeeCount} employees`
    : `${run.added} added, ${run.removed} removed, ${run.changed} changed`
  const kept = run.entriesKept || run.firstSync ? '' : ' (employees no longer listed)'
  return `${run.runId}\t${run.endedAt}\t${what}${kept}`
}

/** One line: UUID, name, then for a changed employee each field from what to what (or its name alone). */
function describeEntry(item: ChangeEntry): string {
  const changes =
    item.changes?.map(
      (change) => `${change.field}: ${valueText(change.before)} → ${valueText(change.after)}`,
    ) ?? item.fields
  const shown = changes && changes.length > 0 ? `\t${terminalText(changes.join(', '))}` : ''
  return `${terminalText(item.UUID)}\t${terminalText(item.name)}${shown}`
}

function valueText(value: unknown): string {
  if (value === undefined) return '(none)'
  return typeof value === 'string' ? value : JSON.stringify(value)
}
