import { z } from 'zod'
import { IPC_ERROR_CODES } from '../ipc-error-codes'
import { changeReportSchema } from './changes'

/** A sync's progress, its run summary and the status the renderer shows. */

export const syncPhaseSchema = z.enum(['listing', 'reconciling', 'pay-cycles', 'committing'])
/** Why a page request is being tried again: 429, a 5xx or unreadable answer, or no answer at all. */
export const syncRetryReasonSchema = z.enum(['rate-limited', 'server-error', 'network'])
export type SyncRetryReason = z.infer<typeof syncRetryReasonSchema>
export const syncRetrySchema = z.strictObject({
  reason: syncRetryReasonSchema,
  /** The wait before the next attempt (Retry-After on 429, else the backoff), rounded up. */
  retryInSeconds: z.int().min(0),
  /** Which retry of that request this is: 1 for the first (the attempt to come is `attempt + 1`). */
  attempt: z.int().min(1),
  /** The most attempts the request gets (the retry policy's `maxAttempts`); it may stop sooner (its time budget). */
  attempts: z.int().min(1).optional(),
  /** The failed attempt's error code ('connection-refused', 'timeout', 'network', 'service'…): its cause in words. */
  code: z.enum(IPC_ERROR_CODES).optional(),
  /** The service's host (host:port when not the default), as the clerk entered its address. */
  host: z.string().max(300).optional(),
  /** What went wrong with the attempt, in the clerk's words (the failure's message), from the first retry on. */
  cause: z.string().max(2_000).optional(),
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
  /** Numbers past the largest double (1e400) kept as their text; absent when none was. */
  numbersTooLarge: z.int().min(0).optional(),
  /** Numbers closer to 0 than the smallest double (1e-400) kept as their text; absent when none was. */
  numbersTooSmall: z.int().min(0).optional(),
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
