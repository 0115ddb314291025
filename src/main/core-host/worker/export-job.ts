import type { ExportProgress, ExportRequest, ExportResult } from '../../../shared/domain/export'
import { SnapshotReader } from '../../core/snapshot/snapshot-reader'
import type { CheckedFile } from '../../core/snapshot/snapshot-reader'
import type { CacheKey } from '../../core/sqlite/cache-key'
import { printViewOf, writeViewExport } from '../../core/export/inline-export-runner'
import { exportResult, type ExportContext } from '../../core/export/export-runner'
import type { PrintView } from '../../core/export/print-view'
import type { ExportRules } from '../../core/policy/export-rules'
import { QueryEngine } from '../../core/query/query-engine'
import type { JobContext } from './serve-jobs'

/** The snapshot a job reads: the one current when the export or print began (the host keeps its file). */
export interface JobSnapshot {
  readonly path: string
  readonly runId: number
  /** The file as the host's own open checked it, so this job need not run the quick_check again. */
  readonly checked?: CheckedFile
}

/** A view or roster export as the core worker receives it: the snapshot to read and the export's plain data. */
export interface ExportJobInput {
  /** null: the cache holds no snapshot. */
  readonly snapshot: JobSnapshot | null
  /** The catalog's path, for storage error messages. */
  readonly catalogPath: string
  readonly request: ExportRequest
  readonly filePath: string
  readonly context: ExportContext
  readonly now: number
  readonly maxRowsPerSheet?: number
  /** The machine policy's export rules (plain data); absent: none. */
  readonly rules?: ExportRules
}

/** "Print…" as the core worker receives it: the page for a request, built from the same snapshot. */
export type PrintJobInput = Omit<ExportJobInput, 'filePath' | 'maxRowsPerSheet' | 'rules'> & {
  readonly maxRows?: number
  readonly policyMaxRows?: number
  /** The regional formats of the page's numbers and dates (the screen's); en-US when absent. */
  readonly locale?: string
  /** The profile's currency setting (an ISO 4217 code): amounts whose row names none are written in it. */
  readonly currency?: string
}

/**
 * Writes a view or roster export on the core worker with the inline runner's function (writeViewExport, as the
 * CLI writes one), over a read-only connection of the worker's own to the one snapshot: planning, first-use sort
 * orders, reading rows, and the XLSX or CSV writing all happen here. A cancel removes the partial file and
 * answers 'cancelled'.
 */
export function runExportJob(
  input: ExportJobInput,
  context: JobContext<ExportProgress>,
  key: CacheKey,
): Promise<ExportResult> {
  return withSnapshotQueries(input, key, (queries) =>
    exportResult(() =>
      writeViewExport(
        queries,
        {
          request: input.request,
          context: input.context,
          now: input.now,
          filePath: input.filePath,
          onProgress: (progress) => context.progress(progress),
          ...(input.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: input.maxRowsPerSheet }),
          ...(input.rules === undefined ? {} : { rules: input.rules }),
        },
        context.signal,
        context.logger,
      ),
    ),
  )
}

/**
 * Builds the page "Print…" prints with the inline runner's function (printViewOf): matching and ordering the
 * view, reading up to PRINT_MAX_ROWS rows and writing them as HTML took main 0.1–0.9 s at a million employees.
 */
export function runPrintJob(
  input: PrintJobInput,
  _context: JobContext<never>,
  key: CacheKey,
): Promise<PrintView> {
  return withSnapshotQueries(input, key, async (queries) => printViewOf(queries, input))
}

/** A query engine over the job's snapshot alone (opened with `key`), closed once `use` settles. */
async function withSnapshotQueries<T>(
  input: Pick<ExportJobInput, 'snapshot' | 'catalogPath'>,
  key: CacheKey,
  use: (queries: QueryEngine) => Promise<T>,
): Promise<T> {
  const snapshot = input.snapshot
  const reader =
    snapshot === null
      ? null
      : SnapshotReader.open(
          snapshot.path,
          key,
          snapshot.runId,
          undefined,
          snapshot.checked === undefined ? {} : { alreadyChecked: snapshot.checked },
        )
  try {
    return await use(new QueryEngine({ path: input.catalogPath, currentSnapshot: () => reader }))
  } finally {
    reader?.close()
  }
}
