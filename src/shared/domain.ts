import { z } from 'zod'
import { environmentSchema, settingsSchema } from './settings-schema'
import { MAX_EXPORT_UUIDS } from './export-limits'
import { COLUMN_NAME_MAX_LENGTH, COLUMN_NAME_PATTERN } from './view-schema'

/**
 * Domain values that cross the IPC boundary. Every one has a runtime schema because the two sides of IPC are
 * separate programs: main validates what the renderer asks, and the renderer can trust what main answers only
 * because main built it from these same types.
 */

// Environments and settings have one schema, in settings-schema.ts (zod/mini, which the renderer bundles).
export { ENVIRONMENTS, type Environment } from './settings-rules'
export { environmentSchema, settingsSchema, type Settings, type SettingsPatch } from './settings-schema'

/** A JSON value as the payroll service sent it. Rows keep every field, known or not. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
)
export const employeeRowSchema = z.record(z.string(), jsonValueSchema)
/** One employee exactly as the service sent it (UUID, firstName, lastName, employeeStatus and any extras). */
export type EmployeeRow = z.infer<typeof employeeRowSchema>

/** The four fields the spec shows; every other field is discovered from the data. */
export const KNOWN_EMPLOYEE_FIELDS = ['UUID', 'firstName', 'lastName', 'employeeStatus'] as const

export const sortOrderSchema = z.enum(['asc', 'desc'])
export type SortOrder = z.infer<typeof sortOrderSchema>

/** Column names are checked against the cache's whitelist in main; this only bounds their shape. */
export const columnNameSchema = z
  .string()
  .min(1)
  .max(COLUMN_NAME_MAX_LENGTH)
  .regex(COLUMN_NAME_PATTERN, 'Column names are letters, digits, _ . and -')

export const MAX_QUERY_WINDOW = 1000

export const employeeQuerySchema = z.strictObject({
  /** Prefix search, any word order, accent- and case-insensitive. */
  text: z.string().max(200).optional(),
  /** Restrict the text search to one column. */
  column: columnNameSchema.optional(),
  statuses: z.array(z.string().max(100)).max(50).optional(),
  payCycleIds: z.array(z.string().max(100)).max(50).optional(),
  sort: z.strictObject({ column: columnNameSchema, order: sortOrderSchema }).optional(),
  offset: z.int().min(0).default(0),
  limit: z.int().min(0).max(MAX_QUERY_WINDOW).default(100),
  facets: z.boolean().optional(),
})
export type EmployeeQuery = z.input<typeof employeeQuerySchema>
export type ParsedEmployeeQuery = z.output<typeof employeeQuerySchema>
/**
 * An employees query without its window (offset, limit, facets): every row a view's filters and order select, as
 * the renderer's row windows, an export of the view, a roster and the CLI's filters read them.
 */
export type RowQuery = Omit<EmployeeQuery, 'offset' | 'limit' | 'facets'>

export const facetCountSchema = z.strictObject({ value: z.string(), count: z.int().min(0) })
export type FacetCount = z.infer<typeof facetCountSchema>

export const queryResultSchema = z.strictObject({
  total: z.int().min(0),
  rows: z.array(employeeRowSchema),
  facets: z
    .strictObject({ status: z.array(facetCountSchema), payCycle: z.array(facetCountSchema) })
    .optional(),
})
export type QueryResult = z.infer<typeof queryResultSchema>

/** What "Did you mean" is asked about: the search box's text and its "Search in" column (absent: names and IDs). */
export const nameSuggestionRequestSchema = z.strictObject({
  text: z.string().max(200),
  column: columnNameSchema.optional(),
})
export type NameSuggestionRequest = z.infer<typeof nameSuggestionRequestSchema>

/** One "Did you mean" suggestion (core/query/near-miss.ts): a saved name close to a word the clerk typed. */
export const nameSuggestionSchema = z.strictObject({
  /** The search text with the near-missed word replaced by the name: what one click puts in the search box. */
  text: z.string(),
  /** The saved name as the data spells it ("Smith", "Müller"). */
  name: z.string(),
  /** Employees holding that name as a first or last name, counted exactly. */
  employees: z.int().min(0),
})
export type NameSuggestion = z.infer<typeof nameSuggestionSchema>

export const columnKindSchema = z.enum(['text', 'number', 'date', 'boolean', 'mixed'])
/** How the default search finds employees by a column's values (decided in core/query/column-role.ts). */
export const columnIdentifierSchema = z.enum(['uuid', 'number', 'email'])
export type ColumnIdentifier = z.infer<typeof columnIdentifierSchema>
export const columnInfoSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  kind: columnKindSchema,
  /** One of the four fields the spec shows, as opposed to one discovered in the data. */
  known: z.boolean(),
  /** Set when the default search finds an employee by this column's value, whole or by its start. */
  identifier: columnIdentifierSchema.optional(),
})
export type ColumnInfo = z.infer<typeof columnInfoSchema>

/**
 * One thing the query engine is preparing off the thread that answers IPC (ARCHITECTURE, "Runtimes and threads"): a saved
 * cache's search index being opened, or a column's first sort order or "Search in" index being built, named by
 * the column's key and its label as `employees:columns` gives it.
 */
export const preparingWorkSchema = z.discriminatedUnion('what', [
  z.strictObject({ what: z.literal('index'), column: z.null(), label: z.null() }),
  z.strictObject({ what: z.enum(['sort', 'search']), column: z.string(), label: z.string() }),
])
export type PreparingWork = z.infer<typeof preparingWorkSchema>
/** Everything being prepared now; empty when nothing is. */
export const preparingListSchema = z.array(preparingWorkSchema)

export const employeeDetailSchema = z.strictObject({
  row: employeeRowSchema,
  payCycleIds: z.array(z.string()),
})
export type EmployeeDetail = z.infer<typeof employeeDetailSchema>

// ---- Looking up on the service --------------------------------------------------------------------------

/**
 * A service lookup: a live search of the payroll service for someone the saved employees lack (hired this
 * morning): one page per column searched, with `searchCol`/`searchVal` and `sortColumn`/`sortOrder` (rules in
 * service-lookup.ts).
 */
export const serviceLookupRequestSchema = z.strictObject({
  /** The clerk's text, sent as `searchVal`. */
  text: z.string().trim().min(1, 'Type what to look up.').max(200),
  /** The column chosen in "Search in"; absent: names, or the UUID for text that can only be one. */
  column: columnNameSchema.optional(),
  /** The table's order, sent as `sortColumn`/`sortOrder`; absent: by last name. */
  sort: z.strictObject({ column: columnNameSchema, order: sortOrderSchema }).optional(),
})
export type ServiceLookupRequest = z.input<typeof serviceLookupRequestSchema>

export const serviceLookupResultSchema = z.strictObject({
  /** What the service answered, column by column in the order searched, each employee once. */
  rows: z.array(
    z.strictObject({
      row: employeeRowSchema,
      /** Whether the saved employees hold this UUID too (a lookup on demand also finds people already saved). */
      saved: z.boolean(),
    }),
  ),
  /** Each column searched: how many employees the service says match, and how many its one page held. */
  searched: z.array(
    z.strictObject({
      column: z.string(),
      label: z.string(),
      totalCount: z.int().min(0),
      shown: z.int().min(0),
    }),
  ),
  /** When the service answered (ISO 8601). */
  fetchedAt: z.string(),
})
export type ServiceLookupResult = z.infer<typeof serviceLookupResultSchema>

// ---- Settings -------------------------------------------------------------------------------------------

/** What the renderer may see of the settings: never a secret, only whether one is stored. */
export const settingsViewSchema = z.strictObject({
  settings: settingsSchema,
  hasClientSecret: z.boolean(),
  /** 'os' when secrets are encrypted by the OS store; 'memory-only' when the OS offers none. */
  secretStorage: z.enum(['os', 'memory-only']),
  /** Proxies (host:port) whose sign-in is remembered, encrypted by the OS's store; each deletable in Settings. */
  rememberedProxies: z.array(z.string()),
  /** What the machine policy sets and locks for the active profile (never its values' secrets): policy-view.ts. */
  policy: z.strictObject({
    source: z.string().optional(),
    lockedFields: z.array(z.string()),
    managedProfile: z.boolean(),
    problem: z.string().optional(),
    exports: z.strictObject({ csvAllowed: z.boolean(), maxRows: z.int().min(1).optional() }),
    notices: z.array(z.string()),
  }),
})
export type SettingsView = z.infer<typeof settingsViewSchema>

// ---- Auth -----------------------------------------------------------------------------------------------

export const authStateSchema = z.strictObject({
  status: z.enum(['signed-out', 'signing-in', 'signed-in']),
  environment: environmentSchema,
  tenantId: z.string(),
  /** The last sign-in problem, worded for a clerk. */
  error: z.string().optional(),
  secretStorage: z.enum(['os', 'memory-only']),
})
export type AuthState = z.infer<typeof authStateSchema>

// ---- Sync -----------------------------------------------------------------------------------------------

export const syncPhaseSchema = z.enum(['listing', 'reconciling', 'pay-cycles', 'committing'])
/** Why a page request is being tried again: 429, a 5xx or unreadable answer, or no answer at all. */
export const syncRetryReasonSchema = z.enum(['rate-limited', 'server-error', 'network'])
export type SyncRetryReason = z.infer<typeof syncRetryReasonSchema>
export const syncRetrySchema = z.strictObject({
  reason: syncRetryReasonSchema,
  /** The wait before the next attempt (Retry-After on 429, else the backoff), rounded up. */
  retryInSeconds: z.int().min(0),
  /** Which retry of that request this is: 1 for the first. */
  attempt: z.int().min(1),
})
export type SyncRetry = z.infer<typeof syncRetrySchema>
export const syncProgressSchema = z.strictObject({
  runId: z.int(),
  phase: syncPhaseSchema,
  /**
   * The whole run's share done, 0 to 1: the main list and every tracked pay-cycle list on one scale. Absent
   * until the service has said how many employees there are.
   */
  fraction: z.number().min(0).max(1).optional(),
  /** Employees downloaded so far, of `rowsTotal` (0 until the service has said). */
  rows: z.int().min(0),
  rowsTotal: z.int().min(0),
  /** Rows received per second over the run so far, pay-cycle lists included and waits to retry left out. */
  rowsPerSecond: z.number().min(0),
  /** Time remaining, once enough of the run has been measured to estimate it. */
  etaSeconds: z.int().min(0).optional(),
  /** Set while a request waits to be tried again; cleared when the next page arrives. */
  retry: syncRetrySchema.optional(),
})
export type SyncProgress = z.infer<typeof syncProgressSchema>

/** What `sync:start` answers at once; the run's outcome arrives later as `sync:finished` with this id. */
export const syncStartedSchema = z.strictObject({ runId: z.int() })
export type SyncStarted = z.infer<typeof syncStartedSchema>

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

/** One window of a full change list (the report itself carries only a sample). */
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

export const syncOutcomeSchema = z.enum(['complete', 'failed', 'cancelled'])
export type SyncOutcome = z.infer<typeof syncOutcomeSchema>

export const syncRunSummarySchema = z.strictObject({
  id: z.int(),
  status: syncOutcomeSchema,
  startedAt: z.string(),
  endedAt: z.string(),
  totalCount: z.int().min(0),
  stored: z.int().min(0),
  pages: z.int().min(0),
  requests: z.int().min(0),
  durationMs: z.number().min(0),
  error: z.string().optional(),
  /** For a failed run, the IpcError code of its cause ('network' when the service could not be reached). */
  errorCode: z.string().optional(),
  changes: changeReportSchema.optional(),
  /** Field values cut to the longest field allowed (they end with "…"); absent when none was. */
  truncatedFields: z.int().min(0).optional(),
})
export type SyncRunSummary = z.infer<typeof syncRunSummarySchema>

/** Whose employees a saved snapshot holds (`source-identity.ts`'s RowSource). */
export const rowSourceSchema = z.strictObject({
  environment: z.string().optional(),
  serviceAddress: z.string().optional(),
  tenantId: z.string().optional(),
})

export const syncStatusSchema = z.strictObject({
  running: z.boolean(),
  progress: syncProgressSchema.optional(),
  lastRun: syncRunSummarySchema.optional(),
  /** The last run that completed, whose snapshot the cache holds. */
  lastComplete: syncRunSummarySchema.optional(),
  /**
   * Where the saved employees shown came from, as the run that filled the cache recorded it (absent before the
   * first complete sync): the grid, header and change chip name it, since it may differ from the profile's
   * settings (a set-aside cache restored, decision 039).
   */
  source: rowSourceSchema.optional(),
  employeeCount: z.int().min(0),
})
export type SyncStatus = z.infer<typeof syncStatusSchema>

// ---- Export ---------------------------------------------------------------------------------------------

export const exportFormatSchema = z.enum(['xlsx', 'csv'])
export type ExportFormat = z.infer<typeof exportFormatSchema>
export const exportRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('view'),
    query: employeeQuerySchema.omit({ offset: true, limit: true, facets: true }),
    columns: z.array(columnNameSchema).min(1).max(200),
    format: exportFormatSchema,
    /**
     * "Export selected rows": only these employees, in this order (the table's); the query still describes the
     * view they were chosen from. At most MAX_EXPORT_UUIDS, as one copy of rows takes.
     */
    uuids: z.array(z.string().min(1).max(100)).min(1).max(MAX_EXPORT_UUIDS).optional(),
  }),
  z.strictObject({
    kind: z.literal('roster'),
    payCycleId: z.string().min(1).max(100),
    /** The on-screen status filter, when the clerk chose to apply it; absent: every status. */
    statuses: z.array(z.string().max(100)).min(1).max(50).optional(),
    /** The order of a saved view used as the roster's template; absent: the cache's default order. */
    sort: z.strictObject({ column: columnNameSchema, order: sortOrderSchema }).optional(),
    columns: z.array(columnNameSchema).min(1).max(200),
    format: exportFormatSchema,
  }),
])
export type ExportRequest = z.infer<typeof exportRequestSchema>

/** "Export changes…": one sync's added, removed and changed employees (a sheet each, or one CSV). */
export const changesExportRequestSchema = z.strictObject({
  runId: z.int().min(1),
  format: exportFormatSchema,
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

/** "Print…": printed (or saved as PDF) with `rows` of the view's `total` on the page, or the dialog closed. */
export const printResultSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('printed'), rows: z.int().min(0), total: z.int().min(0) }),
  z.strictObject({ status: z.literal('cancelled') }),
])
export type PrintResult = z.infer<typeof printResultSchema>

// ---- Profiles -------------------------------------------------------------------------------------------

export const profileSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  environment: environmentSchema,
  tenantId: z.string(),
  /**
   * Employees its cache holds (what deleting the profile loses); absent when its cache could not be read. Counted
   * when the list is asked for, so a sync since then is not reflected until it is asked again.
   */
  employeeCount: z.int().min(0).optional(),
  /**
   * Saved employees set aside when the profile's environment, address or tenant changed (decision 039): whose
   * they were, when, and how many; restorable until the profile's next complete sync.
   */
  setAside: z
    .strictObject({
      environment: z.string().optional(),
      serviceAddress: z.string().optional(),
      tenantId: z.string().optional(),
      setAsideAt: z.string(),
      employeeCount: z.int().min(0),
    })
    .optional(),
  /** Created by the machine policy (policy-schema.ts): it cannot be renamed or deleted; absent means not. */
  managedByPolicy: z.boolean().optional(),
})
export type ProfileSummary = z.infer<typeof profileSummarySchema>

/** Every profile and which one is active (whose settings, secrets and cache the app is using). */
export const profileListSchema = z.strictObject({
  activeId: z.string(),
  profiles: z.array(profileSummarySchema),
})
export type ProfileList = z.infer<typeof profileListSchema>

// ---- App ------------------------------------------------------------------------------------------------

export const appInfoSchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  environment: environmentSchema,
  platform: z.string(),
  /**
   * The computer's regional formats (Electron's `app.getSystemLocale()`, "de-DE"), which numbers and dates follow
   * unless Settings chooses a locale; absent where there is no Electron (the renderer then uses the browser's).
   */
  systemLocale: z.string().max(100).optional(),
})
export type AppInfo = z.infer<typeof appInfoSchema>
