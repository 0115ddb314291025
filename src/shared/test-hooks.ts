/**
 * The switch main adds to the window's renderer command line (webPreferences.additionalArguments) in a test build
 * only (shell/window-and-startup/test-hooks.ts); with it the preload exposes `window.rosterdeskTestHooks`.
 */
export const TEST_HOOKS_SWITCH = '--rosterdesk-test-hooks'

/** What the preload exposes as `window.rosterdeskTestHooks` in a test build: the desktop workflow's levers. */
export interface RosterDeskTestHooks {
  /** Electron's `process.crash()` in this renderer: a real crash, which Crashpad dumps (issue 35, point 1). */
  crashRenderer(): void
}
