import type { ChangeEntry, ChangeKind } from '../../../shared/domain/changes'
import type { ExportProgress, ExportResult } from '../../../shared/domain/export'
import type { ChangeEntrySource } from '../../core/changes/change-history'
import type { DescribedRun } from '../../core/export/change-export'
import { exportResult, type ChangesExportJob } from '../../core/export/export-runner'
import { writeChangesExport } from '../../core/export/inline-export-runner'
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
  readonly about: ChangesExportJob['about']
  readonly now: number
  readonly maxRowsPerSheet?: number
  /** The machine policy's export rules (plain data); absent: none. */
  readonly rules?: ChangesExportJob['rules']
}

/** The entries, a batch at a time, from the source the host opened; null once a kind has no more. */
export type ChangesExportCalls = {
  readonly 'change-batch': CallSpec<
    { readonly kind: ChangeKind; readonly batchSize: number },
    readonly ChangeEntry[] | null
  >
}

/**
 * Writes a changes export on the core worker with the inline runner's function (writeChangesExport, as the CLI
 * writes one), asking the host for the entries as the writer needs them: loading exceljs
 * and writing the file stay off the thread that answers IPC, and no more than a batch of entries is ever in a
 * message. A cancel removes the partial file and answers 'cancelled'.
 */
export function runChangesExportJob(
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
  return exportResult(() =>
    writeChangesExport(
      {
        described: input.described,
        source,
        format: input.format,
        filePath: input.filePath,
        about: input.about,
        now: input.now,
        onProgress: (progress) => context.progress(progress),
        ...(input.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: input.maxRowsPerSheet }),
        ...(input.rules === undefined ? {} : { rules: input.rules }),
      },
      context.signal,
      context.logger,
    ),
  )
}
