import { extname, resolve } from 'node:path'
import type { ExportRequest } from '../../shared/domain/export'
import { toIpcError } from '../core/errors'
import { preloadExcelJs } from '../core/export/exceljs-loader'
import { checkExportRequest } from '../core/export/export-plan'
import { EXCEL_MAX_ROWS } from '../core/export/xlsx-writer'
import { logFailure } from '../core/log/log-failure'
import { NO_POLICY } from '../core/policy/policy-in-force'
import { exportFormatProblem, exportRulesOf } from '../core/policy/export-rules'
import type { SessionServices } from '../core/session/session-services'
import {
  UsageError,
  integerOption,
  parseCommandArgs,
  reportUsage,
  requiredOption,
  stringOption,
  writeLine,
} from './cache-command-args'
import type { CacheCommandIo } from './cache-command-args'
import { parseColumnList } from './column-list'
import { FILTER_OPTIONS, viewOptionHelp, parseFilterOptions } from './filter-options'
import { cliPolicyRules, refuseLockedFlags } from './policy-flags'
import { cliProfileSource, openCliSession } from './cli-session'
import { appFolders, findCliView, readCliProfile, refuseOtherSource, type CliProfile } from './profile-flag'

export const EXPORT_USAGE =
  'Usage: export (--db FILE | --profile NAME [--data-dir DIR]) --out FILE.xlsx|FILE.csv [--view NAME] [--q TEXT] [--col COLUMN] [--status TEXT]... ' +
  '[--pay-cycle ID]... [--sort COLUMN] [--order asc|desc] [--columns a,b,"c, d"] [--tenant T] [--environment E] ' +
  `[--rows-per-sheet N] [--sensitive-columns include|exclude]. ${viewOptionHelp(true)}`

/** Exit code of an export stopped by SIGINT/SIGTERM, as shells expect after an interrupt. */
export const EXPORT_EXIT_CANCELLED = 130

const OPTIONS = {
  db: { type: 'string' },
  profile: { type: 'string' },
  'data-dir': { type: 'string' },
  out: { type: 'string' },
  ...FILTER_OPTIONS,
  columns: { type: 'string' },
  tenant: { type: 'string' },
  environment: { type: 'string' },
  'rows-per-sheet': { type: 'string' },
  'sensitive-columns': { type: 'string' },
} as const

interface ExportArgs {
  readonly db: string
  /** Whether `db` is the cache the app fills for --profile (not an explicit --db). */
  readonly appCache: boolean
  /** The profile named by --profile: the About sheet's name and source. */
  readonly profile: CliProfile | undefined
  readonly out: string
  readonly format: 'xlsx' | 'csv'
  /** Null: every column the cache knows, known fields first. */
  readonly columns: string[] | null
  readonly build: (columns: string[]) => ExportRequest
  /** Undefined: the tenant of the sync that wrote the cache. */
  readonly tenant: string | undefined
  /** Undefined: the service address of the sync that wrote the cache. */
  readonly environment: string | undefined
  readonly rowsPerSheet: number
}

/**
 * `export`: writes the employees of an existing cache (never creates one) that match the filters to an .xlsx or
 * .csv file, exactly as the app's Export button does, and prints {"rows":N,"file":"…"}. With one --pay-cycle
 * and no other filter it is that pay cycle's roster. `--view NAME` starts from a view saved in the app. The
 * machine policy's export rules hold as in the app: a .csv the policy does not allow is refused as usage (2), an
 * export over its most rows fails (1) before any file is written. Exit codes: 0 written, 1 failed (no file left
 * behind), 2 bad usage, 130 interrupted.
 */
export async function runExportCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let parsed: ExportArgs
  const rules = exportRulesOf(io.policy ?? NO_POLICY)
  try {
    parsed = parseExportArgs(args, io)
    const refused = exportFormatProblem(rules, parsed.format)
    if (refused !== undefined) throw new UsageError(refused)
  } catch (error) {
    return reportUsage(error, io, EXPORT_USAGE)
  }
  // exceljs loads while the cache opens and the rows are counted, and probes its internals with the log at hand.
  if (parsed.format === 'xlsx') preloadExcelJs(io.logger)
  let session: SessionServices | null = null
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    // The session as the app composes it, so the file's About sheet says what the app's would.
    session = openCliSession(
      {
        db: parsed.db,
        mustExist: true,
        appCache: parsed.appCache,
        ...(parsed.profile === undefined
          ? {}
          : { profile: parsed.profile.name, source: cliProfileSource(parsed.profile) }),
        named: {
          ...(parsed.environment === undefined ? {} : { environment: parsed.environment }),
          ...(parsed.tenant === undefined ? {} : { tenantId: parsed.tenant }),
        },
      },
      io,
    )
    const { queries, exports: service } = session
    const columns = parsed.columns ?? queries.listColumns().map((column) => column.key)
    const result = await service.exportToFile({
      // Built from the options here: checked against the contract's schema, as the app's requests are.
      request: checkExportRequest(parsed.build(columns)),
      filePath: parsed.out,
      signal: controller.signal,
      maxRowsPerSheet: parsed.rowsPerSheet,
    })
    if (result.status === 'cancelled') {
      writeLine(io.stderr, 'Export cancelled; no file was written.')
      return EXPORT_EXIT_CANCELLED
    }
    writeLine(io.stdout, JSON.stringify({ rows: result.rows, file: parsed.out }))
    return 0
  } catch (error) {
    logFailure(io.logger, 'Export failed', error)
    writeLine(io.stderr, `Export failed: ${toIpcError(error).message}`)
    return 1
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await session?.close()
  }
}

function parseExportArgs(args: readonly string[], io: CacheCommandIo): ExportArgs {
  const values = parseCommandArgs(args, OPTIONS)
  // `--profile NAME` reads the cache the app fills for that profile; an explicit --db wins.
  const profileName = stringOption(values, 'profile')
  const profile =
    profileName === undefined
      ? undefined
      : readCliProfile(
          profileName,
          appFolders(stringOption(values, 'data-dir'), io.env, io.platform),
          io.policy,
        )
  if (profile !== undefined) {
    const rules = cliPolicyRules(io.policy)
    refuseLockedFlags(rules, rules.profileFor(profile.name), {
      tenantId: stringOption(values, 'tenant'),
      environment: stringOption(values, 'environment'),
    })
    refuseOtherSource(profile, {
      tenant: stringOption(values, 'tenant'),
      environment: stringOption(values, 'environment'),
    })
  }
  const db = resolve(stringOption(values, 'db') ?? profile?.db ?? requiredOption(values, 'db'))
  const out = resolve(requiredOption(values, 'out'))
  const extension = extname(out).toLowerCase()
  if (extension !== '.xlsx' && extension !== '.csv') {
    throw new UsageError(`--out must end in .xlsx or .csv (got "${extname(out) || 'no extension'}").`)
  }
  const format = extension === '.xlsx' ? 'xlsx' : 'csv'
  const viewName = stringOption(values, 'view')
  const view = viewName === undefined ? undefined : findCliView(viewName, profile).state
  const query = parseFilterOptions(values, view)
  const columnsText = stringOption(values, 'columns')
  const columns =
    columnsText === undefined ? (view?.columns?.keys.slice() ?? null) : parseColumnList(columnsText)
  if (columns !== null && columns.length === 0) throw new UsageError('--columns names no column.')
  // One --pay-cycle and nothing else is that pay cycle's roster (the app's "Export roster…").
  const rosterOf =
    query.payCycleIds?.length === 1 &&
    query.text === undefined &&
    query.statuses === undefined &&
    query.sort === undefined
      ? query.payCycleIds[0]
      : undefined
  // The answer the app's export asks for under the policy's `exports.sensitiveColumns: "ask"`; absent there: left out.
  const sensitive = stringOption(values, 'sensitive-columns')
  if (sensitive !== undefined && sensitive !== 'include' && sensitive !== 'exclude') {
    throw new UsageError(`--sensitive-columns is "include" or "exclude" (got "${sensitive}").`)
  }
  const answer: { sensitiveColumns?: 'include' | 'exclude' } =
    sensitive === undefined ? {} : { sensitiveColumns: sensitive }
  const build = (chosen: string[]): ExportRequest =>
    rosterOf !== undefined
      ? { kind: 'roster', payCycleId: rosterOf, columns: chosen, format, ...answer }
      : { kind: 'view', query, columns: chosen, format, ...answer }
  return {
    db,
    appCache: stringOption(values, 'db') === undefined && profile !== undefined,
    profile,
    out,
    format,
    columns,
    build,
    tenant: stringOption(values, 'tenant'),
    environment: stringOption(values, 'environment'),
    rowsPerSheet: integerOption(values, 'rows-per-sheet', EXCEL_MAX_ROWS, 2, EXCEL_MAX_ROWS),
  }
}
