import { z } from 'zod'
import { environmentSchema } from '../settings-schema'

/** Whether the app is signed in to the payroll service, as the renderer shows it. */

export const authStateSchema = z.strictObject({
  status: z.enum(['signed-out', 'signing-in', 'signed-in']),
  environment: environmentSchema,
  tenantId: z.string(),
  /** The last sign-in problem, worded for a clerk. */
  error: z.string().optional(),
  secretStorage: z.enum(['os', 'memory-only']),
  /** The saved employees' key lives in memory only (no keychain, no key file allowed): they are synced each start. */
  savedEmployeesUntilQuit: z.literal(true).optional(),
})
export type AuthState = z.infer<typeof authStateSchema>
