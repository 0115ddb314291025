import type { ColumnInfo, EmployeeRow, ExportProgress } from '../../../shared/domain'

/** The file formats a clerk can export to. */
export type ExportFormat = 'xlsx' | 'csv'

/** One exported column, in the order it is written. */
export interface ExportColumn {
  /** The field of each row to read. */
  readonly key: string
  /** The header text. */
  readonly label: string
  /** What the cache found the column holds; sizes the column, the cell value decides its own type. */
  readonly kind: ColumnInfo['kind']
}

/**
 * Where the rows come from, so the engine does not depend on how they are queried. Batches are written in
 * the order they come; the engine stops iterating (calling `return()`) when the export is cancelled or fails.
 */
export interface ExportRowSource {
  /** How many rows the source expects to yield: the denominator of progress. */
  readonly total: number
  batches(): AsyncIterable<ReadonlyArray<EmployeeRow>>
}

/** What the "About this export" sheet says, besides the row count the engine adds. */
export interface ExportAbout {
  /** 'roster' exports one pay cycle's employees; 'view' exports the list as filtered on screen. */
  readonly kind: 'roster' | 'view'
  readonly environment: string
  readonly tenantId: string
  /** The roster's pay cycle. */
  readonly payCycleId?: string
  /** The search text, and the column it was limited to (its header text), if any. */
  readonly search?: { readonly text: string; readonly columnLabel?: string }
  readonly statuses?: ReadonlyArray<string>
  readonly payCycleIds?: ReadonlyArray<string>
  /** The sort column's header text and direction. */
  readonly sort?: { readonly columnLabel: string; readonly order: 'asc' | 'desc' }
  /** When the last complete sync finished: the age of the data. Null when the cache was never synced. */
  readonly syncedAt: Date | null
  /** When the file is made. */
  readonly createdAt: Date
  /** The product version, for support. */
  readonly appVersion?: string
}

/** Everything one export needs. */
export interface WriteExportOptions {
  readonly source: ExportRowSource
  readonly columns: ReadonlyArray<ExportColumn>
  readonly about: ExportAbout
  /** The file to create (replaced if it exists, but only once the new one is complete). */
  readonly filePath: string
  readonly format: ExportFormat
  readonly onProgress?: (progress: ExportProgress) => void
  readonly signal?: AbortSignal
  /** Rows per worksheet including the header; Excel's limit by default. Only XLSX splits. */
  readonly maxRowsPerSheet?: number
}

/** What a finished export wrote. */
export interface WriteExportResult {
  readonly filePath: string
  readonly rows: number
  /** The data sheets written (one for CSV). */
  readonly sheets: number
}
