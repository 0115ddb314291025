import type { ColumnInfo } from '../../../shared/domain/rows'
import type { Logger } from '../log/logger'
import { changesExport } from './change-export'
import { writeExport } from './export-engine'
import { planExport, type ExportPlan } from './export-plan'
import {
  EXPORT_BATCH_SIZE,
  chosenRowSource,
  firstRowsSource,
  queryRowSource,
  type ExportQueries,
} from './export-query-source'
import type {
  ChangesExportJob,
  ExportContext,
  ExportRunner,
  PrintJob,
  ViewExportJob,
  WrittenExport,
} from './export-runner'
import type { ExportAbout, ExportFormat } from './export-types'
import { buildPrintView, type PrintView } from './print-view'

/** The query engine a view, a roster or a printed page reads: its rows and the columns it knows. */
export type RunnerQueries = ExportQueries & { listColumns(): ColumnInfo[] }

export interface InlineExportRunnerDeps {
  /** The query engine of the open cache (or, on the core worker, of the one snapshot a job reads). */
  readonly queries: RunnerQueries
  /** Hears what an export warns of (exceljs's moved internals, a stale partial file it could not remove). */
  readonly logger?: Pick<Logger, 'warn'>
}

/**
 * Does each export's work on the calling thread: the CLI, the tests and the benches use it as ExportService's
 * runner, and the core worker's jobs (core-host/worker/export-job.ts, changes-export-job.ts) call its functions.
 */
export function inlineExportRunner(deps: InlineExportRunnerDeps): ExportRunner {
  return {
    writeView: (job, signal) => writeViewExport(deps.queries, job, signal, deps.logger),
    writeChanges: (job, signal) => writeChangesExport(job, signal, deps.logger),
    printView: async (job) => printViewOf(deps.queries, job),
    // Nothing to ready ahead: the first XLSX export on this thread loads exceljs itself (the CLI preloads it).
    prepare: () => () => undefined,
  }
}

/** Plans a view or roster (export-plan.ts) and writes its rows, reading only the columns written. */
export async function writeViewExport(
  queries: RunnerQueries,
  job: ViewExportJob,
  signal: AbortSignal,
  logger?: Pick<Logger, 'warn'>,
): Promise<WrittenExport> {
  const plan = planExport(job.request, queries.listColumns())
  // The engine then reads only the columns written, from the stored columns when they are enough.
  const fields = plan.columns.map((column) => column.key)
  const appVersion = job.context.appVersion
  const rows =
    plan.uuids === undefined
      ? queryRowSource(queries, plan.query, EXPORT_BATCH_SIZE, { fields })
      : chosenRowSource(queries, plan.query, plan.uuids, EXPORT_BATCH_SIZE, { fields })
  return writeExport({
    source: plan.firstRows === undefined ? rows : firstRowsSource(rows, plan.firstRows),
    columns: plan.columns,
    about: {
      ...requestAbout(plan, job.context),
      createdAt: new Date(job.now),
      ...(appVersion === undefined ? {} : { appVersion }),
    },
    ...fileOptions(job, job.request.format, signal, logger),
  })
}

/** Writes one sync's added, removed and changed employees (change-export.ts lays out the sheets). */
export function writeChangesExport(
  job: ChangesExportJob,
  signal: AbortSignal,
  logger?: Pick<Logger, 'warn'>,
): Promise<WrittenExport> {
  return writeExport({
    ...changesExport(job.described, job.source, job.format, { ...job.about, createdAt: new Date(job.now) }),
    ...fileOptions(job, job.format, signal, logger),
  })
}

/**
 * The page "Print…" prints for a request: the rows and columns the export would write (at most PRINT_MAX_ROWS)
 * as a self-contained HTML table, headed like the About sheet (print-view.ts). Reads at once; writes nothing.
 */
export function printViewOf(queries: RunnerQueries, job: PrintJob): PrintView {
  const plan = planExport(job.request, queries.listColumns())
  return buildPrintView({
    plan,
    queries,
    about: { ...requestAbout(plan, job.context), createdAt: new Date(job.now) },
    ...(job.maxRows === undefined ? {} : { maxRows: job.maxRows }),
    ...(job.policyMaxRows === undefined ? {} : { policyMaxRows: job.policyMaxRows }),
    ...(job.locale === undefined ? {} : { locale: job.locale }),
    ...(job.currency === undefined ? {} : { currency: job.currency }),
  })
}

/**
 * The About facts of a view or roster request over this cache (the file's sheet and the printed page's heading
 * alike); the caller adds when it was made.
 */
function requestAbout(plan: ExportPlan, context: ExportContext): Omit<ExportAbout, 'createdAt'> {
  return {
    ...plan.about,
    ...(context.profile === undefined ? {} : { profile: context.profile }),
    environment: context.environment,
    tenantId: context.tenantId,
    syncedAt: context.syncedAt,
    ...(context.statusFilter === undefined ? {} : { statusFilter: context.statusFilter }),
  }
}

/** What every export tells the engine about its file and its run, whatever the rows are. */
function fileOptions(
  job: ViewExportJob | ChangesExportJob,
  format: ExportFormat,
  signal: AbortSignal,
  logger: Pick<Logger, 'warn'> | undefined,
) {
  return {
    filePath: job.filePath,
    format,
    signal,
    ...(logger === undefined ? {} : { logger }),
    ...(job.onProgress === undefined ? {} : { onProgress: job.onProgress }),
    ...(job.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: job.maxRowsPerSheet }),
    ...(job.rules === undefined ? {} : { rules: job.rules }),
  }
}
