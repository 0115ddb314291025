import { z } from 'zod'
import { environmentSchema } from '../settings-schema'

/** What About shows of the running app. */

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
  /** true: Chromium's sandbox is off (started with `--no-sandbox`); the window says so (sandbox-off-banner.tsx). */
  sandboxOff: z.literal(true).optional(),
  /**
   * The newest crash since the last start (ISO time; core/log/crash-records.ts), in the first run after it only:
   * the window tells the clerk once (crash-notice.tsx).
   */
  crashedAt: z.iso.datetime().optional(),
})
export type AppInfo = z.infer<typeof appInfoSchema>
