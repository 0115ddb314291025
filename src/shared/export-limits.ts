/**
 * Employees one "Export selected rows" may name, and rows one copy from the table takes: a selection larger than
 * this is meant for a whole-view export. Here (zod-free, below domain/export.ts, whose export request schema caps its
 * UUIDs with it) so the renderer can read it without the schemas.
 */
export const MAX_EXPORT_UUIDS = 10_000
