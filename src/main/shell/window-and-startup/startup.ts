import { isRosterDeskError } from '../../core/errors'

/**
 * Decisions the Electron shell makes before and while it starts, as pure functions so they are tested under
 * plain Node: which data folder it uses, what a clerk reads when starting fails, what About shows.
 */

/** The Windows taskbar identity; equal to electron-builder's appId so notifications and pins group together. */
export const APP_USER_MODEL_ID = 'com.rosterdesk.app'

/**
 * The folder for settings, secrets, cache and logs. A development run (`npm start`) uses its own folder, so it
 * never shares the single-instance lock, the cache or the secrets of an installed RosterDesk on the same desktop.
 * `override` (the ROSTERDESK_USER_DATA_DIR environment variable) lets tests and support start on a fresh folder.
 */
export function userDataFolder(
  defaultFolder: string,
  isPackaged: boolean,
  override: string | undefined,
): string {
  if (override !== undefined && override.trim() !== '') return override
  return isPackaged ? defaultFolder : `${defaultFolder}-development`
}

export interface StartupFailureText {
  readonly title: string
  readonly message: string
}

/**
 * What the native error box says when RosterDesk cannot start. A RosterDeskError already speaks to the clerk
 * (a full disk, a damaged cache); anything else is a fault of ours, so the box says so plainly. Both name the log
 * file, which holds the detail and stack support needs.
 */
export function startupFailureText(error: unknown, logFile: string): StartupFailureText {
  const cause = isRosterDeskError(error)
    ? error.message
    : 'An unexpected error stopped RosterDesk while it was starting.'
  return {
    title: 'RosterDesk could not start',
    message: `${cause}\n\nIf this keeps happening, send the log file to your support team:\n${logFile}`,
  }
}

export interface RuntimeVersions {
  readonly app: string
  readonly electron: string | undefined
  readonly chrome: string | undefined
  readonly node: string
}

/**
 * The About dialog's body: what support asks for first, and what the updater is doing (update-state.ts's words).
 * `caches`, the folder of the saved employees, is named only where it is not the data folder (Windows, decision 046).
 */
export function aboutText(
  versions: RuntimeVersions,
  userData: string,
  logs: string,
  updates: string,
  caches: string = userData,
): string {
  return [
    `Version ${versions.app}`,
    updates,
    `Electron ${versions.electron ?? 'unknown'}, Chromium ${versions.chrome ?? 'unknown'}, Node.js ${versions.node}`,
    `Data folder: ${userData}`,
    ...(caches === userData ? [] : [`Saved employees: ${caches}`]),
    `Log folder: ${logs}`,
  ].join('\n')
}
