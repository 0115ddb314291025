import { z } from 'zod'
import { columnCountProblem } from '../column-names'
import { MAX_EXPORT_UUIDS } from '../export-limits'
import { columnNameSchema, employeeQuerySchema, sortOrderSchema } from './query'

/** Exports (a view, a roster, a sync's changes) and printing: what is asked, how far it got, what was written. */

/** The columns an export writes, by name, in order: as many as a spreadsheet holds (../column-names.ts). */
const exportColumnsSchema = z.array(columnNameSchema).superRefine((columns, ctx) => {
  const problem = columnCountProblem(columns.length)
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
})

/**
 * Only the first N rows, in the export's order: what the machine policy's `exports.maxRows` lets the clerk export
 * of a longer view or roster (decision 057); absent: every row.
 */
const firstRowsSchema = z.int().min(1).max(Number.MAX_SAFE_INTEGER).optional()

/**
 * The clerk's answer to the export's question under the machine policy's `exports.sensitiveColumns: "ask"`
 * (policy-view.ts): whether sensitive columns go in the file. The core decides what is written
 * (`allowedExportColumns`): under `exclude` they never go, whatever the request says.
 */
const sensitiveColumnsAnswerSchema = z.enum(['include', 'exclude']).optional()

export const exportFormatSchema = z.enum(['xlsx', 'csv'])
export type ExportFormat = z.infer<typeof exportFormatSchema>
/** What main's save dialog is opened for (its file type filter): an export's format, or a diagnostics zip. */
export const savedFileKindSchema = z.enum([...exportFormatSchema.options, 'zip'])
export type SavedFileKind = z.infer<typeof savedFileKindSchema>
export const exportRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('view'),
    query: employeeQuerySchema.omit({ offset: true, limit: true, facets: true }),
    columns: exportColumnsSchema,
    format: exportFormatSchema,
    /**
     * "Export selected rows": only these employees, in this order (the table's); the query still describes the
     * view they were chosen from. At most MAX_EXPORT_UUIDS, as one copy of rows takes.
     */
    uuids: z.array(z.string().min(1).max(100)).min(1).max(MAX_EXPORT_UUIDS).optional(),
    firstRows: firstRowsSchema,
    sensitiveColumns: sensitiveColumnsAnswerSchema,
  }),
  z.strictObject({
    kind: z.literal('roster'),
    payCycleId: z.string().min(1).max(100),
    /** The on-screen status filter, when the clerk chose to apply it; absent: every status. */
    statuses: z.array(z.string().max(100)).min(1).max(50).optional(),
    /** The order of a saved view used as the roster's template; absent: the cache's default order. */
    sort: z.strictObject({ column: columnNameSchema, order: sortOrderSchema }).optional(),
    columns: exportColumnsSchema,
    format: exportFormatSchema,
    firstRows: firstRowsSchema,
    sensitiveColumns: sensitiveColumnsAnswerSchema,
  }),
])
export type ExportRequest = z.infer<typeof exportRequestSchema>

/** "Export changes…": one sync's added, removed and changed employees (a sheet each, or one CSV). */
export const changesExportRequestSchema = z.strictObject({
  runId: z.int().min(1),
  format: exportFormatSchema,
  sensitiveColumns: sensitiveColumnsAnswerSchema,
})
export type ChangesExportRequest = z.infer<typeof changesExportRequestSchema>

export const exportProgressSchema = z.strictObject({
  rowsWritten: z.int().min(0),
  rowsTotal: z.int().min(0),
})
export type ExportProgress = z.infer<typeof exportProgressSchema>

/**
 * What "Export changes…" wrote, by kind: employees added, removed and changed, and the rows the changed ones took
 * (one per changed field), so the clerk reads why the file has more rows than changes.
 */
export const changesWrittenSchema = z.strictObject({
  added: z.int().min(0),
  removed: z.int().min(0),
  changed: z.int().min(0),
  changedRows: z.int().min(0),
})
export type ChangesWritten = z.infer<typeof changesWrittenSchema>

export const exportResultSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('written'),
    rows: z.int().min(0),
    fileName: z.string(),
    /** "Export changes…" only: the rows by kind of change. */
    changes: changesWrittenSchema.optional(),
  }),
  z.strictObject({ status: z.literal('cancelled') }),
])
export type ExportResult = z.infer<typeof exportResultSchema>

/**
 * "Copy" in the table (its keyboard shortcut, the row menu): the chosen employees by UUID, in the table's order,
 * and the columns the clipboard gets, by name, in screen order. Main reads their values from the saved employees
 * (never cell text from the renderer) and writes the clipboard itself (decision 038): tab-separated text and an
 * HTML table. `headers`: the columns' labels as a first row (whole rows); without (one column's values).
 */
export const copyRowsRequestSchema = z.strictObject({
  uuids: z.array(z.string().min(1).max(100)).min(1).max(MAX_EXPORT_UUIDS),
  columns: exportColumnsSchema.min(1),
  headers: z.boolean(),
})
export type CopyRowsRequest = z.infer<typeof copyRowsRequestSchema>

/** What a copy put on the clipboard: the rows (the chosen employees still saved) and the columns written. */
export const copyRowsResultSchema = z.strictObject({ rows: z.int().min(0), columns: z.int().min(0) })
export type CopyRowsResult = z.infer<typeof copyRowsResultSchema>

/** "Print…": printed (or saved as PDF) with `rows` of the view's `total` on the page, or the dialog closed. */
export const printResultSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('printed'), rows: z.int().min(0), total: z.int().min(0) }),
  z.strictObject({ status: z.literal('cancelled') }),
])
export type PrintResult = z.infer<typeof printResultSchema>

/**
 * One line of the export record (core/export-record/export-record.ts writes it; Help → Export history and `cli audit`
 * show it): when, which runtime and profile, what, the filters and columns, the row count, whether sensitive
 * columns went (shared/sensitive-fields.ts), and the file's name and folder. Never an employee's data: a search is
 * recorded as "searched", not as what was typed, and no row value is ever written.
 */
export const exportRecordEntrySchema = z.strictObject({
  /** When the file was written (ISO 8601, UTC). */
  at: z.iso.datetime(),
  runtime: z.enum(['app', 'cli']),
  /** The profile's name; absent for a CLI command over a cache file that names none. */
  profile: z.string().optional(),
  what: z.enum(['view', 'roster', 'changes', 'print', 'copy']),
  /** Only the employees the clerk chose (a view's "Export selected rows", a copy). */
  chosenRows: z.boolean().optional(),
  format: exportFormatSchema.optional(),
  /** The view's filters: whether a search was applied (and in which column), statuses and pay cycles. */
  filters: z
    .strictObject({
      searched: z.boolean(),
      searchColumn: z.string().optional(),
      statuses: z.array(z.string()).optional(),
      payCycleIds: z.array(z.string()).optional(),
      sort: z.string().optional(),
    })
    .optional(),
  /** A roster's pay cycle; a change report's sync run. */
  payCycleId: z.string().optional(),
  runId: z.number().optional(),
  columns: z.array(z.string()),
  rows: z.int().min(0),
  sensitiveColumns: z.boolean(),
  fileName: z.string().optional(),
  folder: z.string().optional(),
})
export type ExportRecordEntry = z.infer<typeof exportRecordEntrySchema>

/** Help → Export history: the record's entries, newest first, and how many damaged lines were skipped. */
export const exportHistorySchema = z.strictObject({
  entries: z.array(exportRecordEntrySchema),
  skippedLines: z.int().min(0),
})
export type ExportHistory = z.infer<typeof exportHistorySchema>
