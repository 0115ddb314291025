import { z } from 'zod'
import { SENSITIVE_COLUMNS_RULES } from '../policy-view'
import { settingsSchema } from '../settings-schema'

/** The settings as the renderer sees them; the settings themselves have one schema, in ../settings-schema.ts. */

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
    exports: z.strictObject({
      csvAllowed: z.boolean(),
      maxRows: z.int().min(1).optional(),
      sensitiveColumns: z.enum(SENSITIVE_COLUMNS_RULES).optional(),
    }),
    notices: z.array(z.string()),
    clearsOnSignOut: z.boolean().optional(),
    maskSensitiveColumns: z.boolean().optional(),
  }),
})
export type SettingsView = z.infer<typeof settingsViewSchema>
