/**
 * What the running RosterDesk does when it is launched again (a second instance, with or without a sign-in
 * callback URL) or handed a callback URL (macOS `open-url`): pure, so the rule is tested without Electron. The
 * app is never left without a window the clerk asked for (decision 033).
 */

export interface LaunchState {
  /** A quit is under way (the core is being closed): this process is about to end. */
  readonly quitting: boolean
  /** The app window exists. */
  readonly windowOpen: boolean
  /** Start-up has opened the first window, so another may be opened; before that, start-up opens it. */
  readonly windowsCanOpen: boolean
}

/**
 * - `relaunch-after-quit`: the process ends soon whatever happens, so the clerk's launch is honoured by starting
 *   RosterDesk again once it has (`app.relaunch` before the exit);
 * - `focus`: bring the window forward;
 * - `open`: open the window (it shows and takes the focus when loaded);
 * - `wait-for-start`: start-up is still opening the first window, which shows itself.
 */
export type LaunchAnswer = 'relaunch-after-quit' | 'focus' | 'open' | 'wait-for-start'

export function answerLaunch(state: LaunchState): LaunchAnswer {
  if (state.quitting) return 'relaunch-after-quit'
  if (state.windowOpen) return 'focus'
  return state.windowsCanOpen ? 'open' : 'wait-for-start'
}

/**
 * The command line for `app.relaunch({ args })`: this process's own arguments (after the executable) without any
 * sign-in callback URL of `schemes`, so the new instance does not replay a callback this one already handled
 * (its sign-in attempt ends with this process anyway).
 */
export function relaunchArgs(argv: readonly string[], schemes: Iterable<string>): string[] {
  const prefixes = [...schemes].map((scheme) => `${scheme.toLowerCase()}:`)
  return argv.slice(1).filter((arg) => !prefixes.some((prefix) => arg.toLowerCase().startsWith(prefix)))
}
