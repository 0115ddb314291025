import type { ExportProgress, ExportRequest, ExportResult } from '../../../shared/domain'
import { SnapshotReader } from '../snapshot/snapshot-reader'
import type { CheckedFile } from '../snapshot/snapshot-reader'
import { ExportService } from '../export/export-service'
import type { ExportContext } from '../export/export-service'
import { QueryEngine } from '../query/query-engine'
import type { JobContext } from './serve-jobs'

/** A view or roster export as the core worker receives it: the snapshot to read and the export's plain data. */
export interface ExportJobInput {
  /**
   * The snapshot current when the export began (the host keeps its file while the job runs); null: none.
   * `checked`: the file as the host's own open checked it, so this job need not run the quick_check again.
   */
  readonly snapshot: {
    readonly path: string
    readonly runId: number
    readonly checked?: CheckedFile
  } | null
  /** The catalog's path, for storage error messages. */
  readonly catalogPath: string
  readonly request: ExportRequest
  readonly filePath: string
  readonly context: ExportContext
  readonly now: number
  readonly maxRowsPerSheet?: number
}

/**
 * Runs the export engine exactly as the app's thread would (ExportService over a QueryEngine), over a read-only
 * connection of the worker's own to the one snapshot: planning, first-use sort orders, reading rows, and the
 * XLSX or CSV writing all happen here. A cancel removes the partial file and answers 'cancelled'.
 */
export async function runExportJob(
  input: ExportJobInput,
  context: JobContext<ExportProgress>,
): Promise<ExportResult> {
  const snapshot = input.snapshot
  const reader =
    snapshot === null
      ? null
      : SnapshotReader.open(
          snapshot.path,
          snapshot.runId,
          undefined,
          snapshot.checked === undefined ? {} : { alreadyChecked: snapshot.checked },
        )
  try {
    const queries = new QueryEngine({ path: input.catalogPath, currentSnapshot: () => reader })
    const service = new ExportService({
      queries,
      context: () => input.context,
      clock: { now: () => input.now },
      logger: context.logger,
    })
    return await service.exportToFile({
      request: input.request,
      filePath: input.filePath,
      signal: context.signal,
      onProgress: (progress) => context.progress(progress),
      ...(input.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: input.maxRowsPerSheet }),
    })
  } finally {
    reader?.close()
  }
}
