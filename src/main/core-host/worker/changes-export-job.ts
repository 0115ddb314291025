import { basename } from 'node:path'
import type { ChangeEntry, ChangeKind, ExportProgress, ExportResult } from '../../../shared/domain'
import type { ChangeEntrySource } from '../../core/changes/change-history'
import { isAbortError } from '../../core/errors'
import { changesExport, type DescribedRun } from '../../core/export/change-export'
import { writeExport } from '../../core/export/export-engine'
import type { OffloadedChangesExport } from '../../core/export/export-service'
import type { ExportFormat } from '../../core/export/export-types'
import type { JobContext } from './serve-jobs'
import type { CallSpec } from './worker-protocol'

/** "Export changes…" as the core worker receives it: the sync described and the file's data, no entries yet. */
export interface ChangesExportJobInput {
  readonly described: DescribedRun
  readonly counts: ChangeEntrySource['counts']
  readonly numberColumn?: string
  readonly format: ExportFormat
  readonly filePath: string
  readonly about: OffloadedChangesExport['about']
  readonly now: number
  readonly maxRowsPerSheet?: number
}

/** The entries, a batch at a time, from the source the host opened; null once a kind has no more. */
export type ChangesExportCalls = {
  readonly 'change-batch': CallSpec<
    { readonly kind: ChangeKind; readonly batchSize: number },
    readonly ChangeEntry[] | null
  >
}

/**
 * Writes a changes export on the core worker, as ExportService.exportChanges writes it on its own thread
 * (change-export.ts composes both), asking the host for the entries as the writer needs them: loading exceljs
 * and writing the file stay off the thread that answers IPC, and no more than a batch of entries is ever in a
 * message. A cancel removes the partial file and answers 'cancelled'.
 */
export async function runChangesExportJob(
  input: ChangesExportJobInput,
  context: JobContext<ExportProgress, ChangesExportCalls>,
): Promise<ExportResult> {
  const source: ChangeEntrySource = {
    counts: input.counts,
    ...(input.numberColumn === undefined ? {} : { numberColumn: input.numberColumn }),
    async *batches(kind, batchSize) {
      for (;;) {
        const batch = await context.call('change-batch', { kind, batchSize }, context.signal)
        if (batch === null) return
        yield [...batch]
      }
    },
    // The host opened the entries and closes them when the job ends.
    close: () => undefined,
  }
  try {
    const written = await writeExport({
      ...changesExport(input.described, source, input.format, {
        ...input.about,
        createdAt: new Date(input.now),
      }),
      filePath: input.filePath,
      format: input.format,
      signal: context.signal,
      logger: context.logger,
      onProgress: (progress) => context.progress(progress),
      ...(input.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: input.maxRowsPerSheet }),
    })
    return { status: 'written', rows: written.rows, fileName: basename(written.filePath) }
  } catch (error) {
    if (isAbortError(error)) return { status: 'cancelled' }
    throw error
  }
}
