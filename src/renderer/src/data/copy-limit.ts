import { MAX_EXPORT_UUIDS } from '../../../shared/export-limits'

/**
 * Rows one copy (or export of selected rows) takes: more is meant for an export of the whole view. What a copy
 * writes is main's (core/export/copy-rows.ts): the page names the rows and columns, main reads their values.
 */
export const MAX_COPY_ROWS = MAX_EXPORT_UUIDS
