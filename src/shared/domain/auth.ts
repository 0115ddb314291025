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
})
export type AuthState = z.infer<typeof authStateSchema>
