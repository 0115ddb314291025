import { basename } from 'node:path'
import type { ColumnInfo, ExportProgress, ExportRequest, ExportResult } from '../../../shared/domain'
import type { Clock } from '../clock'
import { RosterDeskError, isAbortError } from '../errors'
import { writeExport } from './export-engine'
import { planExport } from './export-plan'
import { queryRowSource } from './export-query-source'
import type { ExportQueries } from './export-query-source'

/** Where the cached data came from, for the About sheet. */
export interface ExportContext {
  readonly environment: string
  readonly tenantId: string
  /** When the last complete sync ended; null if the cache was never synced. */
  readonly syncedAt: Date | null
  readonly appVersion?: string
}

export interface ExportServiceDeps {
  /** The query engine of the open cache. */
  readonly queries: ExportQueries & { listColumns(): ColumnInfo[] }
  /** Read at the start of each export. */
  readonly context: () => ExportContext
  readonly clock: Pick<Clock, 'now'>
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
      const plan = planExport(options.request, this.deps.queries.listColumns())
      const context = this.deps.context()
      const result = await writeExport({
        source: queryRowSource(this.deps.queries, plan.query),
        columns: plan.columns,
        about: {
          ...plan.about,
          environment: context.environment,
          tenantId: context.tenantId,
          syncedAt: context.syncedAt,
          createdAt: new Date(this.deps.clock.now()),
          ...(context.appVersion === undefined ? {} : { appVersion: context.appVersion }),
        },
        filePath: options.filePath,
        format: options.request.format,
        signal: controller.signal,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
        ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
      })
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
