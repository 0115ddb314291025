import { z } from 'zod'
import { columnNameSchema, sortOrderSchema } from './query'
import { employeeRowSchema } from './rows'

/** "Look up on the service": the request and what the service answered (the rules are in ../service-lookup.ts). */

/**
 * A service lookup: a live search of the payroll service for someone the saved employees lack (hired this
 * morning): one page per column searched, with `searchCol`/`searchVal` and `sortColumn`/`sortOrder` (rules in
 * service-lookup.ts).
 */
export const serviceLookupRequestSchema = z.strictObject({
  /** The clerk's text, sent as `searchVal`. */
  text: z.string().trim().min(1, 'Type what to look up.').max(200),
  /**
   * The column chosen in "Search in"; absent: names, or the UUID for text that can only be one. Not empty: the
   * service's `searchCol` names a field (a field named "" is searched in the saved employees only).
   */
  column: columnNameSchema.min(1).optional(),
  /** The table's order, sent as `sortColumn`/`sortOrder`; absent: by last name. */
  sort: z.strictObject({ column: columnNameSchema.min(1), order: sortOrderSchema }).optional(),
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
  /**
   * A full name typed: each way it was read as a last name (asked of the service) and a first name (checked in
   * its answer), both orders (serviceLookupNames); how many have that last name, how many were read, how many
   * matched. Empty for one word or a chosen column.
   */
  asNames: z.array(
    z.strictObject({
      lastName: z.string(),
      firstName: z.string(),
      totalCount: z.int().min(0),
      shown: z.int().min(0),
      matched: z.int().min(0),
    }),
  ),
  /** When the service answered (ISO 8601). */
  fetchedAt: z.string(),
})
export type ServiceLookupResult = z.infer<typeof serviceLookupResultSchema>
