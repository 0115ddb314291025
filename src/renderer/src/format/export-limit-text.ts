import { formatCount } from './format-value'

/**
 * What the export places say when the machine policy's `exports.maxRows` is below what an export would hold, said
 * before anything opens (decision 057). Main still refuses an export over the limit (`tooManyRowsMessage`).
 */

/** The view export's button under the limit: "Export first 20 of 120 rows…". */
export function firstRowsButtonText(maxRows: number, total: number): string {
  return `Export first ${formatCount(maxRows)} of ${formatCount(total)} rows…`
}

/** The button's description and tooltip: the limit, what it exports, and how to export the others. */
export function exportLimitDetail(maxRows: number, total: number): string {
  const max = formatCount(maxRows)
  return (
    `Your organisation allows at most ${max} rows in one export: this exports the first ${max} of the ` +
    `${formatCount(total)} rows on screen, in their order. To export the others, narrow the search or filters.`
  )
}

/** The roster dialog's line for a roster over the limit, before its Export. */
export function rosterLimitText(maxRows: number, total: number): string {
  const max = formatCount(maxRows)
  return (
    `Your organisation allows at most ${max} rows in one export; this roster holds ${formatCount(total)}. ` +
    `Export its first ${max}, or narrow it with a status filter or a saved view as template.`
  )
}

/** The roster dialog's Export under the limit: "Export first 20 rows…". */
export function firstRowsRosterButtonText(maxRows: number): string {
  return `Export first ${formatCount(maxRows)} rows…`
}

/** The policy's limit when an export of `total` rows is over it; undefined when it fits (or there is none). */
export function rowLimitOver(maxRows: number | undefined, total: number | undefined): number | undefined {
  return maxRows !== undefined && total !== undefined && total > maxRows ? maxRows : undefined
}
