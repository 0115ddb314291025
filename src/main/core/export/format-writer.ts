import type { EmployeeRow } from '../../../shared/domain/rows'
import type { ExportColumn } from './export-types'

/** One file format's writer; the export engine feeds it batches in order and owns the file around it. */
export interface FormatWriter {
  /** Writes (or, for the first rows, may hold) a batch; awaits to keep the event loop and the output moving. */
  writeBatch(rows: ReadonlyArray<EmployeeRow>): Promise<void>
  /**
   * Ends the current part of a multi-part export and starts the next, with its own columns and sheet name (XLSX;
   * a CSV export is always one part).
   */
  nextSection(section: {
    readonly columns: ReadonlyArray<ExportColumn>
    readonly sheetName?: string
  }): Promise<void>
  /** Writes everything held back and ends the output stream; resolves when all bytes are handed to it. */
  finish(): Promise<{ readonly sheets: number }>
  /** Stops any work still queued after a cancel or failure; the engine then discards the file. */
  abort(): void
}

/**
 * Throws when the export must stop: the clerk cancelled or the file can no longer be written. Writers call it
 * whenever they pause, so a cancel takes effect within a few hundred rows.
 */
export type Checkpoint = () => void
