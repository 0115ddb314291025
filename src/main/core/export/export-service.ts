import { basename } from 'node:path'
import type {
  ChangesExportRequest,
  ColumnInfo,
  ExportProgress,
  ExportRequest,
  ExportResult,
} from '../../../shared/domain'
import type { ChangeEntrySource, ChangeHistory } from '../changes/change-history'
import type { Clock } from '../clock'
import type { Logger } from '../log/logger'
import { RosterDeskError, isAbortError } from '../errors'
import { changesExport, type ChangesAboutContext, type DescribedRun } from './change-export'
import { writeExport } from './export-engine'
import type { ExportAbout, ExportFormat, WriteExportResult } from './export-types'
import { planExport, type ExportPlan } from './export-plan'
import { EXPORT_BATCH_SIZE, chosenRowSource, queryRowSource } from './export-query-source'
import type { ExportQueries } from './export-query-source'
import { buildPrintView, type PrintView } from './print-view'

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

/** What every export handed to another thread says of its file and its run. */
interface OffloadedFile {
  readonly filePath: string
  /** The clock's time when the export began (the About sheet's "made"). */
  readonly now: number
  readonly maxRowsPerSheet?: number
  readonly onProgress?: (progress: ExportProgress) => void
}

/** A view or roster export handed to another thread, with everything it needs as plain data. */
export interface OffloadedExport extends OffloadedFile {
  readonly request: ExportRequest
  readonly context: ExportContext
}

/** "Export changes…" handed to another thread: the sync described, its entries opened here, the file's data. */
export interface OffloadedChangesExport extends OffloadedFile {
  readonly described: DescribedRun
  /** Opened by this thread (the change log, or the snapshot's own lists); the other thread asks for batches. */
  readonly source: ChangeEntrySource
  readonly format: ExportFormat
  /** The About sheet's facts besides the sync; the other thread adds when the file was made. */
  readonly about: Omit<ChangesAboutContext, 'createdAt'>
}

/**
 * Writes an export elsewhere (the core worker: workers/worker-exports.ts) and answers with the file and its rows;
 * rejects as cancelled (partial file removed) when `signal` aborts.
 */
export type Offload<Job extends OffloadedFile> = (
  job: Job,
  signal: AbortSignal,
) => Promise<Pick<WriteExportResult, 'filePath' | 'rows'>>
export type ExportOffload = Offload<OffloadedExport>
export type ChangesExportOffload = Offload<OffloadedChangesExport>

/** "Print…"'s page for a request, built elsewhere (the core worker) from the plain data it needs. */
export type PrintOffload = (job: {
  readonly request: ExportRequest
  readonly context: ExportContext
  readonly now: number
  readonly maxRows?: number
}) => Promise<PrintView>

export interface ExportServiceDeps {
  /** The query engine of the open cache. */
  readonly queries: ExportQueries & { listColumns(): ColumnInfo[] }
  /** Read at the start of each export. */
  readonly context: () => ExportContext
  readonly clock: Pick<Clock, 'now'>
  /** The change history, for "Export changes…"; without it that export is refused. */
  readonly changes?: Pick<ChangeHistory, 'describe' | 'entries'>
  /** Where view and roster exports are written; absent: on this thread. One export at a time either way. */
  readonly offload?: ExportOffload
  /** Where "Export changes…" is written; absent: on this thread. */
  readonly offloadChanges?: ChangesExportOffload
  /** Where "Print…"'s page is built; absent: on this thread. */
  readonly offloadPrint?: PrintOffload
  /**
   * Readies the offload's writer for a format while the clerk picks a file (exceljs loading on the core worker),
   * so the export does not wait for it, until the returned function is called; never fails.
   */
  readonly prepareOffload?: (format: ExportFormat) => () => void
  /** Hears what an export warns of (exceljs's moved internals, a stale partial file it could not remove). */
  readonly logger?: Pick<Logger, 'warn'>
}

export interface ExportToFileOptions {
  readonly request: ExportRequest
  /** The path the clerk chose in the save dialog (written as given; an existing file is replaced at the end). */
  readonly filePath: string
  readonly onProgress?: (progress: ExportProgress) => void
  /** Cancels this export, in addition to `cancel()`. */
  readonly signal?: AbortSignal
  /** Rows per sheet including the header (tests lower it); Excel's limit by default. */
  readonly maxRowsPerSheet?: number
}

/** "Export changes…": one sync's changes, written like any export (one at a time, cancellable, no partial file). */
export type ExportChangesOptions = Omit<ExportToFileOptions, 'request'> & {
  readonly request: ChangesExportRequest
  /** Where the sync read from, for the About sheet, when the run log has no name for it (the CLI's --environment). */
  readonly environment?: string
}

/**
 * Export for the Electron wiring: one export at a time (a second is refused as 'busy'), `cancel()` for the
 * contract's argument-less cancel channel, and the last written file for "show in folder".
 */
export class ExportService {
  private running: AbortController | null = null
  private settled: Promise<void> = Promise.resolve()
  private lastFile: string | undefined

  constructor(private readonly deps: ExportServiceDeps) {}

  get isRunning(): boolean {
    return this.running !== null
  }

  /** The file the last successful export wrote in this session. */
  lastExportedFile(): string | undefined {
    return this.lastFile
  }

  /** Resolves once no export is writing (at once when none is), after a cancelled one removed its partial file. */
  idle(): Promise<void> {
    return this.settled
  }

  /**
   * An export in `format` is about to be asked for (its save dialog opens): ready its writer, and keep it ready
   * until the returned function is called (the dialog closed).
   */
  prepare(format: ExportFormat): () => void {
    return this.deps.prepareOffload?.(format) ?? (() => undefined)
  }

  /** Cancels the running export; false when none is running. */
  cancel(): boolean {
    if (this.running === null) return false
    this.running.abort()
    return true
  }

  /**
   * Writes the request's rows to `filePath`. Resolves `{status:'written'}` or, when cancelled, `{status:
   * 'cancelled'}` (no file is left behind); rejects with a RosterDeskError ('storage', 'validation', 'busy').
   */
  async exportToFile(options: ExportToFileOptions): Promise<ExportResult> {
    const offload = this.deps.offload
    if (offload !== undefined) {
      return this.exclusive(options, (signal) =>
        offload(
          {
            request: options.request,
            filePath: options.filePath,
            context: this.deps.context(),
            now: this.deps.clock.now(),
            ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
            ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
          },
          signal,
        ),
      )
    }
    return this.exclusive(options, (signal) => {
      const plan = planExport(options.request, this.deps.queries.listColumns())
      const context = this.deps.context()
      // The engine then reads only the columns written, from the stored columns when they are enough.
      const fields = plan.columns.map((column) => column.key)
      return writeExport({
        source:
          plan.uuids === undefined
            ? queryRowSource(this.deps.queries, plan.query, EXPORT_BATCH_SIZE, { fields })
            : chosenRowSource(this.deps.queries, plan.query, plan.uuids, EXPORT_BATCH_SIZE, { fields }),
        columns: plan.columns,
        about: { ...requestAbout(plan, context), ...this.madeNow(context.appVersion) },
        ...fileOptions(options, signal, this.deps.logger),
      })
    })
  }

  /**
   * Writes one sync's added, removed and changed employees (change-export.ts lays out the sheets), with an About
   * sheet saying which sync, where it read from and when. Resolves and rejects as `exportToFile`; 'not-found'
   * when the sync is no longer in the history.
   */
  async exportChanges(options: ExportChangesOptions): Promise<ExportResult> {
    const changes = this.deps.changes
    if (changes === undefined) {
      throw new RosterDeskError('internal', 'This RosterDesk cannot export changes.')
    }
    return this.exclusive(options, async (signal) => {
      const described = changes.describe(options.request.runId)
      const source = changes.entries(described.run.runId)
      try {
        const context = this.deps.context()
        const about = {
          ...(context.profile === undefined ? {} : { profile: context.profile }),
          ...(options.environment === undefined ? {} : { environment: options.environment }),
          ...(context.appVersion === undefined ? {} : { appVersion: context.appVersion }),
        }
        const offload = this.deps.offloadChanges
        if (offload !== undefined) {
          return await offload(
            {
              described,
              source,
              format: options.request.format,
              filePath: options.filePath,
              about,
              now: this.deps.clock.now(),
              ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
              ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
            },
            signal,
          )
        }
        return await writeExport({
          ...changesExport(described, source, options.request.format, {
            ...about,
            createdAt: new Date(this.deps.clock.now()),
          }),
          ...fileOptions(options, signal, this.deps.logger),
        })
      } finally {
        source.close()
      }
    })
  }

  /** The page "Print…" prints for a request (`printView`), built where the print offload says, else here. */
  preparePrint(request: ExportRequest, maxRows?: number): Promise<PrintView> {
    const offload = this.deps.offloadPrint
    if (offload === undefined) return Promise.resolve(this.printView(request, maxRows))
    return offload({
      request,
      context: this.deps.context(),
      now: this.deps.clock.now(),
      ...(maxRows === undefined ? {} : { maxRows }),
    })
  }

  /**
   * The page "Print…" prints for a request: the rows and columns the export would write (at most PRINT_MAX_ROWS)
   * as a self-contained HTML table, headed like the About sheet (print-view.ts). Reads at once; writes nothing.
   */
  printView(request: ExportRequest, maxRows?: number): PrintView {
    const plan = planExport(request, this.deps.queries.listColumns())
    return buildPrintView({
      plan,
      queries: this.deps.queries,
      about: { ...requestAbout(plan, this.deps.context()), createdAt: new Date(this.deps.clock.now()) },
      ...(maxRows === undefined ? {} : { maxRows }),
    })
  }

  /** When and by which version the file is made, as every About sheet says it. */
  private madeNow(appVersion: string | undefined): { createdAt: Date; appVersion?: string } {
    return { createdAt: new Date(this.deps.clock.now()), ...(appVersion === undefined ? {} : { appVersion }) }
  }

  /**
   * Runs one export at a time: refuses a second as 'busy', makes `cancel()` and the caller's signal abort it, and
   * turns a cancel into `{status:'cancelled'}` (the engine has removed its partial file by then).
   */
  private async exclusive(
    options: { readonly signal?: AbortSignal },
    work: (signal: AbortSignal) => Promise<Pick<WriteExportResult, 'filePath' | 'rows'>>,
  ): Promise<ExportResult> {
    if (this.running !== null) {
      throw new RosterDeskError('busy', 'An export is already running. Wait for it to finish or cancel it.')
    }
    const controller = new AbortController()
    const external = options.signal
    const onExternalAbort = (): void => controller.abort()
    if (external?.aborted === true) controller.abort()
    external?.addEventListener('abort', onExternalAbort, { once: true })
    this.running = controller
    let markSettled = (): void => undefined
    this.settled = new Promise<void>((resolve) => (markSettled = resolve))
    try {
      const result = await work(controller.signal)
      this.lastFile = result.filePath
      return { status: 'written', rows: result.rows, fileName: basename(result.filePath) }
    } catch (error) {
      if (isAbortError(error)) return { status: 'cancelled' }
      throw error
    } finally {
      external?.removeEventListener('abort', onExternalAbort)
      this.running = null
      markSettled()
    }
  }
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
  options: {
    readonly filePath: string
    readonly request: { readonly format: ExportFormat }
    readonly onProgress?: (progress: ExportProgress) => void
    readonly maxRowsPerSheet?: number
  },
  signal: AbortSignal,
  logger: Pick<Logger, 'warn'> | undefined,
) {
  return {
    filePath: options.filePath,
    format: options.request.format,
    signal,
    ...(logger === undefined ? {} : { logger }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
  }
}
