import { z } from 'zod'

/**
 * Employee rows and their columns as they cross the IPC boundary. Every domain value has a runtime schema because
 * the two sides of IPC are separate programs: main validates what the renderer asks, and the renderer can trust
 * what main answers only because main built it from these same types.
 */

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

export const employeeDetailSchema = z.strictObject({
  row: employeeRowSchema,
  payCycleIds: z.array(z.string()),
})
export type EmployeeDetail = z.infer<typeof employeeDetailSchema>
