import type { ExportProgress } from '../../../shared/domain/export'
import type { ColumnInfo, EmployeeRow } from '../../../shared/domain/rows'
import type { Logger } from '../log/logger'
import type { ExportRules } from '../policy/export-rules'

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
  /**
   * For a column whose rows hold values of different fields (the change export's Before and After): the row key
   * naming each row's field, whose money rule then decides that row's number (see MoneyColumns).
   */
  readonly moneyFieldFrom?: string
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
  /**
   * 'roster' exports one pay cycle's employees; 'view' exports the list as filtered on screen; 'changes' one
   * sync's added, removed and changed employees (a sheet each).
   */
  readonly kind: 'roster' | 'view' | 'changes'
  /** The profile whose cache the rows came from (absent from the CLI, which has none unless `--profile`). */
  readonly profile?: string
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
  /** For a 'view' of rows the clerk selected in the table: how many were chosen. */
  readonly chosenRows?: number
  /** For a view or roster cut to its first rows (the policy's limit): how many it was cut to. */
  readonly firstRows?: number
  /** For 'changes': how many employees the sync added, removed and changed, and the address it read from. */
  readonly changes?: {
    readonly added: number
    readonly removed: number
    readonly changed: number
    readonly serviceAddress?: string
  }
  /**
   * When the last complete sync finished: the age of the data (for 'changes', when that sync finished). Null when
   * the cache was never synced.
   */
  readonly syncedAt: Date | null
  /** The `statusFilter` that sync read the service with, when it kept only some employees ('1': active). */
  readonly statusFilter?: string
  /** When the file is made. */
  readonly createdAt: Date
  /** The IANA zone the About sheet writes those two times in; the computer's when absent. */
  readonly timeZone?: string
  /** The product version, for support. */
  readonly appVersion?: string
}

/** One part of a multi-part export: its own rows and columns on a sheet of its own name (XLSX). */
export interface ExportSection {
  /** The data sheet's name ("Added"); continuation sheets past Excel's row limit add " (2)", … */
  readonly sheetName: string
  readonly columns: ReadonlyArray<ExportColumn>
  readonly source: ExportRowSource
}

/**
 * What an export writes: one source under the export kind's sheet name, or several sections in order (XLSX only:
 * a CSV file has one header, so its export is one section).
 */
export type ExportContent =
  | { readonly source: ExportRowSource; readonly columns: ReadonlyArray<ExportColumn> }
  | { readonly sections: ReadonlyArray<ExportSection> }

/** Everything one export needs. */
export type WriteExportOptions = ExportContent & ExportTarget

/** Everything about one export but its rows. */
export interface ExportTarget {
  readonly about: ExportAbout
  /** The file to create (replaced if it exists, but only once the new one is complete). */
  readonly filePath: string
  readonly format: ExportFormat
  readonly onProgress?: (progress: ExportProgress) => void
  readonly signal?: AbortSignal
  /** Rows per worksheet including the header; Excel's limit by default. Only XLSX splits. */
  readonly maxRowsPerSheet?: number
  /** Hears that exceljs's internals moved (the export then writes through its plain streaming API). */
  readonly logger?: Pick<Logger, 'warn'>
  /** The machine policy's export rules (policy/export-rules.ts); absent: none. */
  readonly rules?: ExportRules
}

/** What a finished export wrote. */
export interface WriteExportResult {
  readonly filePath: string
  readonly rows: number
  /** The data sheets written (one for CSV). */
  readonly sheets: number
}
