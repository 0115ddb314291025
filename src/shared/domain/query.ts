import { z } from 'zod'
import { COLUMN_NAME_MAX_LENGTH, columnNameProblem } from '../column-names'
import { employeeRowSchema } from './rows'

/** Asking for the saved employees: the query, its answer, "Did you mean" and what the engine is preparing. */

export const sortOrderSchema = z.enum(['asc', 'desc'])
export type SortOrder = z.infer<typeof sortOrderSchema>

/**
 * A column's name, exactly as the cache lists it: any characters (../column-names.ts). Main looks it up in the
 * cache's list of columns where it is used; this only bounds its length.
 */
export const columnNameSchema = z
  .string()
  .max(COLUMN_NAME_MAX_LENGTH, { error: (issue) => columnNameProblem(String(issue.input)) })

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
