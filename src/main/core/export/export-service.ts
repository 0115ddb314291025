import type {
  ChangesExportRequest,
  ExportProgress,
  ExportRequest,
  ExportResult,
} from '../../../shared/domain/export'
import { changesWritten } from '../../../shared/change-rules'
import type { RowQuery } from '../../../shared/domain/query'
import type { ChangeHistory } from '../changes/change-history'
import type { Clock } from '../clock'
import { RosterDeskError } from '../errors'
import {
  allowedExportColumns,
  checkExportFormat,
  checkExportRows,
  type ExportRules,
} from '../policy/export-rules'
import { NO_EXPORT_RULES, sensitiveColumnsIncluded } from '../../../shared/policy-view'
import type { ExportFormat } from './export-types'
import { exportResult, type ExportContext, type ExportRunner, type WrittenExport } from './export-runner'
import type { PrintView } from './print-view'
import { copyIsRecorded } from './copy-rows'
import type { ExportRecordInput } from '../export-record/export-record'
import { sensitiveChangesSource } from './sensitive-changes'

export type { ExportContext } from './export-runner'

export interface ExportServiceDeps {
  /**
   * Does the work: on this thread (inline-export-runner.ts: the CLI, tests, benches) or on the core worker
   * (core-host/worker/worker-exports.ts: the app). One export at a time either way.
   */
  readonly runner: ExportRunner
  /** Read at the start of each export. */
  readonly context: () => ExportContext
  readonly clock: Pick<Clock, 'now'>
  /** The change history, for "Export changes…"; without it that export is refused. */
  readonly changes?: Pick<ChangeHistory, 'describe' | 'entries'>
  /** The machine policy's export rules (`exportRulesOf`), held by every export; absent: none. */
  readonly rules?: ExportRules
  /** Notes each file written in the export record (export-record.ts); absent: not recorded (tests, benches). */
  readonly record?: (entry: ExportRecordInput) => void
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
 * Coordinates exports: one at a time (a second is refused as 'busy', `ensureIdle`), `cancel()` for the
 * contract's argument-less cancel channel, the last written file for "show in folder", and each job's plain data
 * (the context, when it began), handed to the runner that does the work.
 */
export class ExportService {
  private running: AbortController | null = null
  private settled: Promise<void> = Promise.resolve()
  private lastFile: string | undefined

  constructor(private readonly deps: ExportServiceDeps) {}

  get isRunning(): boolean {
    return this.running !== null
  }

  /**
   * Refuses ('busy') while an export runs: the one-at-a-time rule, checked here before each export and by the
   * handlers before a save dialog opens.
   */
  ensureIdle(): void {
    if (this.running !== null) {
      throw new RosterDeskError('busy', 'An export is already running. Wait for it to finish or cancel it.')
    }
  }

  /**
   * Refuses ('not-allowed') a format the machine policy forbids: checked by the handlers before a save dialog
   * opens, and by every export before its runner starts (the engine holds the row limit once it counts the rows).
   */
  ensureAllowed(format: ExportFormat): void {
    checkExportFormat(this.rules, format)
  }

  /**
   * Refuses ('not-allowed') a request whose size is known before its rows are counted (the first rows asked for,
   * or the rows chosen) when it is over the policy's `maxRows`: checked by the handlers before a save dialog
   * opens. A request of a whole view or roster is held to the limit once the export counts its rows.
   */
  ensureRowsAllowed(request: ExportRequest): void {
    const known = request.firstRows ?? (request.kind === 'view' ? request.uuids?.length : undefined)
    if (known !== undefined) checkExportRows(this.rules, known)
  }

  private get rules(): ExportRules {
    return this.deps.rules ?? NO_EXPORT_RULES
  }

  /**
   * The request as it is written: its columns those the policy's `exports.sensitiveColumns` and the clerk's
   * answer allow (`allowedExportColumns`), the one place an export's, a printed page's or a print record's columns
   * are decided, whatever the renderer asked for. Refuses ('not-allowed') one whose every column is left out:
   * the handlers call it before the save dialog opens, as `ensureRowsAllowed`.
   */
  allowedRequest(request: ExportRequest): ExportRequest {
    return {
      ...request,
      columns: allowedExportColumns(this.rules, request.columns, request.sensitiveColumns),
    }
  }

  /**
   * The columns a copy may carry of `columns`: without the sensitive ones unless the policy's
   * `exports.sensitiveColumns` is `include` (a copy asks nothing); refused ('not-allowed') when none is left.
   */
  allowedColumns(columns: readonly string[]): string[] {
    return allowedExportColumns(this.rules, columns)
  }

  /**
   * Notes in the export record that the print dialog printed `rows` rows of `request` (export-handlers.ts calls
   * it once the dialog says 'printed'; a cancelled dialog is not noted), with the columns the page held.
   */
  notePrinted(request: ExportRequest, rows: number): void {
    // A printed page has no file format (the request's is not used).
    const { format: _unused, ...printed } = recordedRequest(
      this.deps.context(),
      this.allowedRequest(request),
      rows,
    )
    this.record({ ...printed, what: 'print' })
  }

  /**
   * Notes in the export record that a copy put `rows` rows of `columns` on the clipboard, when `copyIsRecorded`
   * (export-handlers.ts calls it once the clipboard holds them).
   */
  noteCopied(columns: readonly string[], rows: number): void {
    if (!copyIsRecorded(rows)) return
    const { profile } = this.deps.context()
    this.record({
      ...(profile === undefined ? {} : { profile }),
      what: 'copy',
      chosenRows: true,
      columns: [...columns],
      rows,
    })
  }

  /**
   * Notes a written file in the export record. A record that cannot be written (a full disk) does not undo the
   * file the clerk has: it is logged by the recorder, which the composition gives.
   */
  private record(entry: ExportRecordInput): void {
    this.deps.record?.(entry)
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
    return this.deps.runner.prepare(format)
  }

  /** Cancels the running export; false when none is running. */
  cancel(): boolean {
    if (this.running === null) return false
    this.running.abort()
    return true
  }

  /**
   * Writes the request's rows to `filePath`. Resolves `{status:'written'}` or, when cancelled, `{status:
   * 'cancelled'}` (no file is left behind); rejects with a RosterDeskError ('storage', 'validation', 'busy',
   * 'not-allowed' for what the machine policy forbids, before any file is written).
   */
  async exportToFile(options: ExportToFileOptions): Promise<ExportResult> {
    this.ensureAllowed(options.request.format)
    const request = this.allowedRequest(options.request)
    const context = this.deps.context()
    const recorded = (rows: number): ExportRecordInput =>
      recordedRequest(context, request, rows, options.filePath)
    return this.exclusive(options, recorded, (signal) =>
      this.deps.runner.writeView(
        {
          request,
          context,
          now: this.deps.clock.now(),
          ...fileOptions(options),
          rules: this.rules,
        },
        signal,
      ),
    )
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
    this.ensureAllowed(options.request.format)
    const context = this.deps.context()
    const include = sensitiveColumnsIncluded(this.rules, options.request.sensitiveColumns)
    // Whether a sensitive field's values went into the file: read once it is written.
    let sensitiveWritten = (): boolean => false
    const recorded = (rows: number): ExportRecordInput => ({
      ...(context.profile === undefined ? {} : { profile: context.profile }),
      what: 'changes',
      format: options.request.format,
      runId: options.request.runId,
      columns: [],
      rows,
      filePath: options.filePath,
      sensitiveColumns: sensitiveWritten(),
    })
    return this.exclusive(options, recorded, async (signal) => {
      const described = changes.describe(options.request.runId)
      // Opened on this thread; a runner elsewhere asks for its entries a batch at a time, through the filter
      // that leaves sensitive fields' values out when they may not go.
      const opened = sensitiveChangesSource(changes.entries(described.run.runId), include)
      sensitiveWritten = opened.sensitiveWritten
      const source = opened.source
      try {
        const written = await this.deps.runner.writeChanges(
          {
            described,
            source,
            format: options.request.format,
            about: {
              ...(context.profile === undefined ? {} : { profile: context.profile }),
              ...(options.environment === undefined ? {} : { environment: options.environment }),
              ...(context.appVersion === undefined ? {} : { appVersion: context.appVersion }),
            },
            now: this.deps.clock.now(),
            ...fileOptions(options),
            rules: this.rules,
          },
          signal,
        )
        return { ...written, changes: changesWritten(source.counts, written.rows) }
      } finally {
        source.close()
      }
    })
  }

  /**
   * The page "Print…" prints for a request: the rows and columns the export would write (at most `maxRows`,
   * PRINT_MAX_ROWS by default, and never more than the policy's `exports.maxRows`) as a self-contained HTML table, headed like the About sheet, its numbers and dates
   * in `locale` (the screen's regional formats; en-US when absent), amounts whose row names no currency in
   * `currency` (the profile's setting). Writes nothing.
   */
  preparePrint(
    request: ExportRequest,
    options: { readonly maxRows?: number; readonly locale?: string; readonly currency?: string } = {},
  ): Promise<PrintView> {
    const { maxRows, locale, currency } = options
    return this.deps.runner.printView({
      request: this.allowedRequest(request),
      context: this.deps.context(),
      now: this.deps.clock.now(),
      ...(maxRows === undefined ? {} : { maxRows }),
      ...(this.rules.maxRows === undefined ? {} : { policyMaxRows: this.rules.maxRows }),
      ...(locale === undefined ? {} : { locale }),
      ...(currency === undefined ? {} : { currency }),
    })
  }

  /**
   * Runs one export at a time: refuses a second as 'busy', makes `cancel()` and the caller's signal abort it, and
   * turns a cancel into `{status:'cancelled'}` (the runner has removed its partial file by then).
   */
  private async exclusive(
    options: { readonly signal?: AbortSignal },
    recorded: (rows: number) => ExportRecordInput,
    work: (signal: AbortSignal) => Promise<WrittenExport>,
  ): Promise<ExportResult> {
    this.ensureIdle()
    const controller = new AbortController()
    const external = options.signal
    const onExternalAbort = (): void => controller.abort()
    if (external?.aborted === true) controller.abort()
    external?.addEventListener('abort', onExternalAbort, { once: true })
    this.running = controller
    let markSettled = (): void => undefined
    this.settled = new Promise<void>((resolve) => (markSettled = resolve))
    try {
      return await exportResult(
        () => work(controller.signal),
        (written) => {
          this.lastFile = written.filePath
          this.record(recorded(written.rows))
        },
      )
    } finally {
      external?.removeEventListener('abort', onExternalAbort)
      this.running = null
      markSettled()
    }
  }
}

/** An export of `request` as the export record notes it (export-record.ts says what it may hold). */
function recordedRequest(
  context: ExportContext,
  request: ExportRequest,
  rows: number,
  filePath?: string,
): ExportRecordInput {
  return {
    ...(context.profile === undefined ? {} : { profile: context.profile }),
    what: request.kind,
    format: request.format,
    columns: [...request.columns],
    rows,
    ...(filePath === undefined ? {} : { filePath }),
    ...(request.kind === 'view'
      ? {
          filters: recordedFilters(request.query),
          ...(request.uuids === undefined ? {} : { chosenRows: true }),
        }
      : { payCycleId: request.payCycleId }),
  }
}

/** A view's filters as the export record keeps them: whether a search was applied, never what was typed. */
function recordedFilters(query: RowQuery): NonNullable<ExportRecordInput['filters']> {
  const searched = query.text !== undefined && query.text.trim() !== ''
  return {
    searched,
    ...(searched && query.column !== undefined ? { searchColumn: query.column } : {}),
    ...(query.statuses === undefined ? {} : { statuses: [...query.statuses] }),
    ...(query.payCycleIds === undefined ? {} : { payCycleIds: [...query.payCycleIds] }),
    ...(query.sort === undefined ? {} : { sort: `${query.sort.column} ${query.sort.order}` }),
  }
}

/** What every export's job says of its file and its run, whatever the rows are. */
function fileOptions(options: Omit<ExportToFileOptions, 'request' | 'signal'>) {
  return {
    filePath: options.filePath,
    ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  }
}
