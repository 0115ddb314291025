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
  /** true: Chromium's sandbox is off (started with `--no-sandbox`); the window shows SANDBOX_OFF_NOTICE. */
  sandboxOff: z.literal(true).optional(),
})
export type AppInfo = z.infer<typeof appInfoSchema>

/**
 * The window's notice while Chromium's sandbox is off: electron-builder's AppImage launcher adds `--no-sandbox`
 * where the system allows no unprivileged user namespaces (issue 31, point 7).
 */
export const SANDBOX_OFF_NOTICE =
  'RosterDesk was started with --no-sandbox, so a web page it shows is not kept apart from the rest of this computer. This happens when the AppImage runs on a system without user namespaces: ask IT to enable them, or to install RosterDesk another way.'
