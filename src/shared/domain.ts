import { z } from 'zod'

/**
 * Domain values that cross the IPC boundary. Every one has a runtime schema because the two sides of IPC are
 * separate programs: main validates what the renderer asks, and the renderer can trust what main answers only
 * because main built it from these same types.
 */

export const ENVIRONMENTS = ['demo', 'staging', 'production'] as const
export const environmentSchema = z.enum(ENVIRONMENTS)
export type Environment = z.infer<typeof environmentSchema>

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
  .max(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'Column names are letters, digits, _ . and -')

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

export const columnKindSchema = z.enum(['text', 'number', 'date', 'boolean', 'mixed'])
export const columnInfoSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  kind: columnKindSchema,
  /** One of the four fields the spec shows, as opposed to one discovered in the data. */
  known: z.boolean(),
})
export type ColumnInfo = z.infer<typeof columnInfoSchema>

export const employeeDetailSchema = z.strictObject({
  row: employeeRowSchema,
  payCycleIds: z.array(z.string()),
})
export type EmployeeDetail = z.infer<typeof employeeDetailSchema>

// ---- Settings -------------------------------------------------------------------------------------------

export const settingsSchema = z.strictObject({
  environment: environmentSchema,
  baseUrls: z.strictObject({ staging: z.string(), production: z.string() }),
  clientId: z.string().max(200),
  redirectUri: z.string().max(500),
  /** Space- or comma-separated, as the spec allows. */
  scopes: z.string().max(500),
  tenantId: z.string().max(200),
  pageSize: z.int().min(1).max(10_000),
  concurrency: z.int().min(1).max(16),
  trackedPayCycles: z.array(z.string().min(1).max(100)).max(100),
})
export type Settings = z.infer<typeof settingsSchema>
export const settingsPatchSchema = settingsSchema.partial()
export type SettingsPatch = z.infer<typeof settingsPatchSchema>

/** What the renderer may see of the settings: never a secret, only whether one is stored. */
export const settingsViewSchema = z.strictObject({
  settings: settingsSchema,
  hasClientSecret: z.boolean(),
  /** 'os' when secrets are encrypted by the OS store; 'memory-only' when the OS offers none. */
  secretStorage: z.enum(['os', 'memory-only']),
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
export const syncProgressSchema = z.strictObject({
  runId: z.int(),
  phase: syncPhaseSchema,
  pagesDone: z.int().min(0),
  pagesTotal: z.int().min(0),
  rows: z.int().min(0),
  rowsPerSecond: z.number().min(0),
})
export type SyncProgress = z.infer<typeof syncProgressSchema>

export const changeReportSchema = z.strictObject({
  added: z.int().min(0),
  removed: z.int().min(0),
  changed: z.int().min(0),
  /** A bounded sample of each list, for display. */
  addedSample: z.array(z.strictObject({ UUID: z.string(), name: z.string() })),
  removedSample: z.array(z.strictObject({ UUID: z.string(), name: z.string() })),
  changedSample: z.array(z.strictObject({ UUID: z.string(), name: z.string(), fields: z.array(z.string()) })),
})
export type ChangeReport = z.infer<typeof changeReportSchema>

export const changeKindSchema = z.enum(['added', 'removed', 'changed'])
export type ChangeKind = z.infer<typeof changeKindSchema>

/** One window of a full change list (the report itself carries only a sample). */
export const changeListPageSchema = z.strictObject({
  total: z.int().min(0),
  items: z.array(
    z.strictObject({
      UUID: z.string(),
      name: z.string(),
      /** For changed employees: the fields that differ from the previous snapshot. */
      fields: z.array(z.string()).optional(),
    }),
  ),
})
export type ChangeListPage = z.infer<typeof changeListPageSchema>

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
})
export type SyncRunSummary = z.infer<typeof syncRunSummarySchema>

export const syncStatusSchema = z.strictObject({
  running: z.boolean(),
  progress: syncProgressSchema.optional(),
  lastRun: syncRunSummarySchema.optional(),
  /** The last run that completed, whose snapshot the cache holds. */
  lastComplete: syncRunSummarySchema.optional(),
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
  }),
  z.strictObject({
    kind: z.literal('roster'),
    payCycleId: z.string().min(1).max(100),
    columns: z.array(columnNameSchema).min(1).max(200),
    format: exportFormatSchema,
  }),
])
export type ExportRequest = z.infer<typeof exportRequestSchema>

export const exportProgressSchema = z.strictObject({
  rowsWritten: z.int().min(0),
  rowsTotal: z.int().min(0),
})
export type ExportProgress = z.infer<typeof exportProgressSchema>

export const exportResultSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('written'), rows: z.int().min(0), fileName: z.string() }),
  z.strictObject({ status: z.literal('cancelled') }),
])
export type ExportResult = z.infer<typeof exportResultSchema>

// ---- App ------------------------------------------------------------------------------------------------

export const appInfoSchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  environment: environmentSchema,
  platform: z.string(),
})
export type AppInfo = z.infer<typeof appInfoSchema>
