/**
 * What the app's updater is doing (issue 25), as main reports it on `updates:get-state` and `updates:state`, and
 * the words the window's banner and Help → About use for it. Zod-free, so the renderer imports it; the schema is
 * in update-state-schema.ts.
 */
export type UpdateState =
  /** This build names no feed (no app-update.yml) and no policy gives one. */
  | { readonly status: 'not-configured' }
  /** Updates are off: by policy, for an MSI install, or for an unsigned macOS build; `reason` says which. */
  | { readonly status: 'disabled'; readonly reason: string }
  /** Configured, not checked yet. */
  | { readonly status: 'idle' }
  | { readonly status: 'checking' }
  /** `checkedAt`: ISO time of the check that found nothing newer. */
  | { readonly status: 'up-to-date'; readonly checkedAt: string }
  | { readonly status: 'downloading'; readonly version: string; readonly percent: number }
  /** Downloaded and verified: a restart installs it (or the next quit does). */
  | { readonly status: 'ready'; readonly version: string }
  /** The last check or download failed: a muted note, never an error box; the reason is in the log. */
  | { readonly status: 'failed'; readonly message: string; readonly at: string }

export type UpdateStatus = UpdateState['status']

/** The answer to "Restart to update": restarting, or why not (a sync, an export or a print running; nothing ready). */
export type UpdateRestartResult =
  | { readonly status: 'restarting' }
  | { readonly status: 'busy'; readonly reason: string }
  | { readonly status: 'not-ready' }

/** What About and the menu say when no feed is configured. */
export const UPDATES_NOT_SET_UP = 'Updates are not set up for this build'

/** One line for Help → About: the update state in words. */
export function updateStateText(state: UpdateState): string {
  switch (state.status) {
    case 'not-configured':
      return UPDATES_NOT_SET_UP
    case 'disabled':
      return `Updates are off: ${state.reason}`
    case 'idle':
      return 'Updates: not checked yet'
    case 'checking':
      return 'Checking for updates…'
    case 'up-to-date':
      return 'RosterDesk is up to date'
    case 'downloading':
      return `Downloading RosterDesk ${state.version} (${Math.floor(state.percent)}%)`
    case 'ready':
      return `RosterDesk ${state.version} is ready: restart to update`
    case 'failed':
      return `The last update check did not finish: ${state.message}`
  }
}
