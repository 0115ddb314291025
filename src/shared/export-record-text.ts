import type { ExportRecordEntry } from './domain/export'

/**
 * The export record's entries in words, the same for `cli audit` and Help → Export history (zod-free, for the
 * renderer): what left ("roster PC-1", "change report of sync 4", "view (chosen rows)", "copy") and the view's
 * filters ("searched in lastName", "status Active, On leave", "pay cycle PC-1", "sorted by hireDate desc").
 */
export function recordWhatText(entry: ExportRecordEntry): string {
  if (entry.what === 'roster') return `roster ${entry.payCycleId ?? ''}`.trim()
  if (entry.what === 'changes') return `change report of sync ${entry.runId ?? ''}`.trim()
  if (entry.what === 'copy') return 'copy'
  return entry.chosenRows === true ? `${entry.what} (chosen rows)` : entry.what
}

/** The view's filters, one phrase each; none for a whole view, a roster, a change report or a copy. */
export function recordFiltersText(entry: ExportRecordEntry): string[] {
  const filters = entry.filters
  if (filters === undefined) return []
  return [
    filters.searched ? `searched${filters.searchColumn ? ` in ${filters.searchColumn}` : ''}` : '',
    filters.statuses?.length ? `status ${filters.statuses.join(', ')}` : '',
    filters.payCycleIds?.length ? `pay cycle ${filters.payCycleIds.join(', ')}` : '',
    filters.sort ? `sorted by ${filters.sort}` : '',
  ].filter(Boolean)
}
