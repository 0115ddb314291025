import { win32 } from 'node:path'

/**
 * Whether the app registers itself for its sign-in scheme (the private-use redirect, decision 007): pure, so the
 * rule is tested without Electron or a registry.
 *
 * - Only a packaged app registers. Under `npm start` the executable is Electron's own, and on Windows
 *   `app.setAsDefaultProtocolClient` writes the very HKCU key the per-user installer writes (on macOS it makes
 *   Electron.app the handler), so an installed RosterDesk would stop receiving its callbacks.
 * - On Windows, `setAsDefaultProtocolClient` always writes HKCU\Software\Classes\<scheme>
 *   (shell/browser/browser_win.cc, SetAsDefaultProtocolClient). It is written only when Windows does not already
 *   resolve the scheme to this executable: `isDefaultProtocolClient` reads HKCU alone (browser_win.cc,
 *   IsDefaultProtocolClient), while `getApplicationInfoForProtocol` resolves it as Windows does, HKCU over HKLM
 *   (AssocQueryString, ASSOCSTR_EXECUTABLE), which sees a per-machine install's key too. So a per-machine install
 *   leaves HKCU alone, and a key another program (or an old `npm start`) took over is repaired.
 * - On macOS and Linux the registration names the app bundle or desktop file, not a per-user copy of a key the
 *   uninstaller cannot see, so a packaged app registers as before.
 */
export interface ProtocolClientFacts {
  readonly isPackaged: boolean
  readonly platform: NodeJS.Platform
  /** `process.execPath`. */
  readonly execPath: string
  /** Windows: `app.isDefaultProtocolClient(scheme)` (HKCU points here). */
  readonly userKeyIsOurs: boolean
  /** Windows: `app.getApplicationInfoForProtocol`'s path, undefined when nothing is registered. */
  readonly resolvedHandler: string | undefined
}

export type ProtocolClientAction = 'register' | 'already-registered' | 'not-packaged'

export function protocolClientAction(facts: ProtocolClientFacts): ProtocolClientAction {
  if (!facts.isPackaged) return 'not-packaged'
  if (facts.platform !== 'win32') return 'register'
  if (facts.userKeyIsOurs) return 'already-registered'
  if (facts.resolvedHandler !== undefined && sameWindowsPath(facts.resolvedHandler, facts.execPath)) {
    return 'already-registered'
  }
  return 'register'
}

/** Windows paths compare without regard to case, separators or surrounding quotes. */
function sameWindowsPath(a: string, b: string): boolean {
  const normal = (path: string): string => win32.normalize(path.replace(/^"(.*)"$/, '$1')).toLowerCase()
  return normal(a) === normal(b)
}
