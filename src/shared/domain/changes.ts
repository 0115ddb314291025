import { z } from 'zod'
import { sortOrderSchema } from './query'
import { employeeRowSchema, jsonValueSchema } from './rows'

/** What a sync changed: its report, the listed employees and the change history. */

export const changeReportSchema = z.strictObject({
  added: z.int().min(0),
  removed: z.int().min(0),
  changed: z.int().min(0),
  /** A bounded sample of each list, for display. */
  addedSample: z.array(z.strictObject({ UUID: z.string(), name: z.string() })),
  removedSample: z.array(z.strictObject({ UUID: z.string(), name: z.string() })),
  changedSample: z.array(z.strictObject({ UUID: z.string(), name: z.string(), fields: z.array(z.string()) })),
  /**
   * The cache held no employees before this run: every one counts as added, which a clerk reads as "first sync:
   * N employees", not as N changes. Absent in reports of runs made before it was recorded.
   */
  firstSync: z.boolean().optional(),
})
export type ChangeReport = z.infer<typeof changeReportSchema>

export const changeKindSchema = z.enum(['added', 'removed', 'changed'])
export type ChangeKind = z.infer<typeof changeKindSchema>

/** One field of a changed employee, old value → new value; a side is absent when the row lacked the field. */
export const fieldChangeSchema = z.strictObject({
  field: z.string(),
  before: jsonValueSchema.optional(),
  after: jsonValueSchema.optional(),
})
export type FieldChange = z.infer<typeof fieldChangeSchema>

/**
 * One employee a sync added, removed or changed, as the change report lists it (src/shared/change-rules.ts has the
 * rules). Status, pay cycle and number are the row's values after the sync; for a removed employee, its last ones.
 */
export const changeEntrySchema = z.strictObject({
  UUID: z.string(),
  name: z.string(),
  /** The parts `name` joins (change-rules.ts), each shown apart; absent in logs written before they were kept. */
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  /** The value of the data's employee-number column (its first identifier column of digits), when it has one. */
  employeeNumber: z.string().optional(),
  status: z.string().optional(),
  payCycleId: z.string().optional(),
  /** For changed employees: the fields that differ from the previous snapshot. */
  fields: z.array(z.string()).optional(),
  /** For changed employees: each of those fields from what to what (absent for syncs made before it was kept). */
  changes: z.array(fieldChangeSchema).optional(),
  /** For removed employees: the last row the cache held, so they can still be looked at. */
  row: employeeRowSchema.optional(),
})
export type ChangeEntry = z.infer<typeof changeEntrySchema>

/** The columns the change report sorts by: name (last, then first), employee number, status, pay cycle. */
export const changeSortColumnSchema = z.enum(['name', 'number', 'status', 'payCycle'])
export type ChangeSortColumn = z.infer<typeof changeSortColumnSchema>

/**
 * How the change report narrows and orders one list: `search` finds by name or number as the grid's search does
 * (each word the start of a name word, or of the employee number or UUID; any order, accents and case ignored);
 * `sort` orders it (absent: by name, ascending).
 */
export const changeListOptionsSchema = z.strictObject({
  search: z.string().max(200).optional(),
  sort: z.strictObject({ column: changeSortColumnSchema, order: sortOrderSchema }).optional(),
})
export type ChangeListOptions = z.infer<typeof changeListOptionsSchema>

/** One window of a full change list (the report itself carries only a sample). */
export const changeListPageSchema = z.strictObject({
  total: z.int().min(0),
  items: z.array(changeEntrySchema),
})
export type ChangeListPage = z.infer<typeof changeListPageSchema>

/** One complete sync in the change history (the newest 20 are kept), newest first. */
export const changeHistoryEntrySchema = z.strictObject({
  runId: z.int(),
  startedAt: z.string(),
  endedAt: z.string(),
  /** Employees the cache held after the sync. */
  employeeCount: z.int().min(0),
  firstSync: z.boolean(),
  added: z.int().min(0),
  removed: z.int().min(0),
  changed: z.int().min(0),
  /**
   * Whether the employees behind the counts can still be listed and exported: false once they were let go to
   * keep the history's size bounded (the counts stay), and for a first sync, which lists no changes.
   */
  entriesKept: z.boolean(),
  /** Where the sync read from, as its run log recorded it (absent for syncs logged before it was). */
  environment: z.string().optional(),
  serviceAddress: z.string().optional(),
  tenantId: z.string().optional(),
})
export type ChangeHistoryEntry = z.infer<typeof changeHistoryEntrySchema>
