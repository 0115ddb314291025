import { z } from 'zod'
import { environmentSchema } from '../settings-schema'

/** The profiles: each one's summary and which is active. */

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
