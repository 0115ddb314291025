import { basename } from 'node:path'
import type {
  ChangesWritten,
  ExportProgress,
  ExportRequest,
  ExportResult,
} from '../../../shared/domain/export'
import type { ChangeEntrySource } from '../changes/change-history'
import { isAbortError } from '../errors'
import type { ChangesAboutContext, DescribedRun } from './change-export'
import type { ExportFormat, WriteExportResult } from './export-types'
import type { ExportRules } from '../policy/export-rules'
import type { PrintView } from './print-view'

/** Where the cached data came from, for the About sheet. */
export interface ExportContext {
  /** The profile whose cache this is. */
  readonly profile?: string
  /** Where the sync that filled the cache read from (its run log entry), not today's setting. */
  readonly environment: string
  readonly tenantId: string
  /** When the last complete sync ended; null if the cache was never synced. */
  readonly syncedAt: Date | null
  /** The `statusFilter` of that sync (from its run log entry), when it kept only some employees. */
  readonly statusFilter?: string
  readonly appVersion?: string
}

/** What every export job says of its file and its run. */
interface FileJob {
  readonly filePath: string
  /** The clock's time when the export began (the About sheet's "made"). */
  readonly now: number
  /** Rows per sheet including the header (tests lower it); Excel's limit by default. */
  readonly maxRowsPerSheet?: number
  readonly onProgress?: (progress: ExportProgress) => void
  /** The machine policy's export rules, held by the engine before it creates the file; absent: none. */
  readonly rules?: ExportRules
}

/** A view or roster export, with everything it needs as plain data (the request was checked where it came in). */
export interface ViewExportJob extends FileJob {
  readonly request: ExportRequest
  readonly context: ExportContext
}

/** "Export changes…": the sync described, its entries opened by the caller (who closes them), the file's data. */
export interface ChangesExportJob extends FileJob {
  readonly described: DescribedRun
  /** Opened by the caller's thread (the change log, or the snapshot's own lists). */
  readonly source: ChangeEntrySource
  readonly format: ExportFormat
  /** The About sheet's facts besides the sync; the runner adds when the file was made (`now`). */
  readonly about: Omit<ChangesAboutContext, 'createdAt'>
}

/** "Print…"'s page for a request, from the plain data it needs. */
export interface PrintJob {
  readonly request: ExportRequest
  readonly context: ExportContext
  readonly now: number
  readonly maxRows?: number
  /** The machine policy's `exports.maxRows`, which holds a print to it as it holds an export (the page says so). */
  readonly policyMaxRows?: number
  /** The regional formats of the page's numbers and dates (shared/locale-format.ts); en-US when absent. */
  readonly locale?: string
  /** The profile's currency setting (an ISO 4217 code): amounts whose row names none are written in it. */
  readonly currency?: string
}

/** The file an export wrote and its rows; a changes export's rows by kind of change. */
export type WrittenExport = Pick<WriteExportResult, 'filePath' | 'rows'> & {
  readonly changes?: ChangesWritten
}

/**
 * Does an export's work where it runs: on the calling thread (inline-export-runner.ts: the CLI, tests, benches,
 * and the core worker's jobs) or on the core worker (core-host/worker/worker-exports.ts: the app). ExportService
 * coordinates (one at a time, cancel, the last file) and hands each job to its runner.
 */
export interface ExportRunner {
  /** Writes a view or roster; rejects as cancelled (partial file removed) when `signal` aborts. */
  writeView(job: ViewExportJob, signal: AbortSignal): Promise<WrittenExport>
  /** Writes one sync's changes; rejects as cancelled (partial file removed) when `signal` aborts. */
  writeChanges(job: ChangesExportJob, signal: AbortSignal): Promise<WrittenExport>
  /** The page "Print…" prints: the rows and columns the export would write, as a self-contained HTML table. */
  printView(job: PrintJob): Promise<PrintView>
  /**
   * Readies the writer for a format while the clerk picks a file (exceljs loading on the core worker), so the
   * export does not wait for it, until the returned function is called; never fails.
   */
  prepare(format: ExportFormat): () => void
}

/**
 * An export's work as the contract's result: `{status:'written'}` with its rows and file name, or `{status:
 * 'cancelled'}` when it was cancelled (the engine has removed its partial file by then); other failures reject.
 */
export async function exportResult(
  work: () => Promise<WrittenExport>,
  onWritten?: (written: WrittenExport) => void,
): Promise<ExportResult> {
  try {
    const written = await work()
    onWritten?.(written)
    return {
      status: 'written',
      rows: written.rows,
      fileName: basename(written.filePath),
      ...(written.changes === undefined ? {} : { changes: written.changes }),
    }
  } catch (error) {
    if (isAbortError(error)) return { status: 'cancelled' }
    throw error
  }
}
