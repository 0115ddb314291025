import { dirname } from 'node:path'
import type { ExportProgress } from '../../../shared/domain/export'
import { removeStalePartFiles } from '../durable-fs'
import { RosterDeskError, cancelledError, isAbortError } from '../errors'
import { checkExportFormat, checkExportRows } from '../policy/export-rules'
import { CsvWriter } from './csv-writer'
import { loadExcelJs } from './exceljs-loader'
import { ExportFile } from './export-file'
import type { ExportSection, WriteExportOptions, WriteExportResult } from './export-types'
import type { FormatWriter } from './format-writer'
import { EXCEL_MAX_ROWS, XlsxWriter } from './xlsx-writer'

/**
 * Writes one export file from a row source: XLSX or CSV, with progress, cancel and no partial file left
 * behind (see ExportFile). Runs on the calling thread in short slices (the core worker in the app, the CLI's
 * own thread), so that thread keeps answering its messages, a cancel among them, while a million rows are written.
 *
 * Throws RosterDeskError: 'cancelled' when the signal aborts, 'storage' when the file cannot be written,
 * 'validation' for impossible options, 'not-allowed' for what the machine policy forbids (`options.rules`: a CSV
 * file, more rows than allowed), refused before any file is created; a failing row source's own error passes
 * through.
 */
export async function writeExport(options: WriteExportOptions): Promise<WriteExportResult> {
  const maxRowsPerSheet = options.maxRowsPerSheet ?? EXCEL_MAX_ROWS
  if (!Number.isInteger(maxRowsPerSheet) || maxRowsPerSheet < 2 || maxRowsPerSheet > EXCEL_MAX_ROWS) {
    throw new RosterDeskError('validation', `A sheet must hold between 2 and ${EXCEL_MAX_ROWS} rows.`)
  }
  const sections = sectionsOf(options)
  if (sections.some((section) => section.columns.length === 0)) {
    throw new RosterDeskError('validation', 'Choose at least one column to export.')
  }
  if (options.format === 'csv' && sections.length !== 1) {
    throw new RosterDeskError('internal', 'A CSV export holds one list; its parts must be joined first.')
  }
  const [first] = sections
  if (first === undefined) throw new RosterDeskError('internal', 'An export needs something to write.')
  const signal = options.signal
  if (signal?.aborted === true) throw cancelledError('The export')
  const total = sections.reduce((sum, section) => sum + section.source.total, 0)
  const rowsTotal = Number.isFinite(total) ? Math.max(0, Math.floor(total)) : 0
  const rules = options.rules
  if (rules !== undefined) {
    checkExportFormat(rules, options.format)
    checkExportRows(rules, rowsTotal)
  }

  // A killed export's partial file stays hidden beside the target until an export writes into its folder again.
  // The wall clock, not an injected one: it is compared with the files' own modification times.
  const removed = await removeStalePartFiles(dirname(options.filePath), { now: Date.now() })
  if (removed > 0)
    options.logger?.warn(`Export: removed ${removed} partial file(s) a stopped export left behind`)
  const file = await ExportFile.create(options.filePath)
  const checkpoint = (): void => {
    if (signal?.aborted === true) throw cancelledError('The export')
    const failure = file.failure()
    if (failure !== undefined) throw failure
  }
  const report = (rowsWritten: number): void => {
    const progress: ExportProgress = { rowsWritten, rowsTotal: Math.max(rowsTotal, rowsWritten) }
    options.onProgress?.(progress)
  }

  let writer: FormatWriter | undefined
  try {
    // Usually loaded already (the app's worker loads it while the save dialog is open, the CLI as it starts); the
    // first export in a process waits for it otherwise.
    const excel = options.format === 'xlsx' ? await loadExcelJs(options.logger) : undefined
    checkpoint()
    writer =
      excel !== undefined
        ? new XlsxWriter({
            out: file.stream,
            excel,
            columns: first.columns,
            ...(first.sheetName === undefined ? {} : { sheetName: first.sheetName }),
            about: options.about,
            maxRowsPerSheet,
            checkpoint,
            ...(rules?.sensitivityLabel === undefined ? {} : { sensitivityLabel: rules.sensitivityLabel }),
          })
        : new CsvWriter({ out: file.stream, columns: first.columns, checkpoint })
    let rows = 0
    report(0)
    for (const [index, section] of sections.entries()) {
      if (index > 0) await writer.nextSection(section)
      for await (const batch of section.source.batches()) {
        checkpoint()
        rows += batch.length
        // A source that yields more than it counted is held to the limit too: the partial file is discarded.
        if (rules !== undefined) checkExportRows(rules, rows)
        await writer.writeBatch(batch)
        report(rows)
      }
    }
    checkpoint()
    const { sheets } = await writer.finish()
    // A cancel that arrives while the file is being finished still wins: the clerk asked for no file.
    checkpoint()
    await file.commit()
    return { filePath: options.filePath, rows, sheets }
  } catch (error) {
    writer?.abort()
    await file.discard()
    throw explainFailure(error, file)
  }
}

/** The export's parts in order; a plain export is one part under its kind's sheet name. */
function sectionsOf(
  options: WriteExportOptions,
): ReadonlyArray<Omit<ExportSection, 'sheetName'> & { readonly sheetName?: string }> {
  return 'sections' in options ? options.sections : [{ columns: options.columns, source: options.source }]
}

function explainFailure(error: unknown, file: ExportFile): unknown {
  if (error instanceof RosterDeskError) return error
  if (isAbortError(error)) return cancelledError('The export')
  // A raw stream error (exceljs and archiver report the file's errors as they are) is the file's failure.
  const failure = file.failure()
  if (failure !== undefined) return failure
  return new RosterDeskError(
    'internal',
    'RosterDesk could not finish the export file. Try again; if it keeps happening, send the log to support.',
    { cause: error, detail: error instanceof Error ? error.message : String(error) },
  )
}
