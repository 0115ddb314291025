/**
 * The app window's security settings as pure data, so tests can hold the shell to Electron's security checklist
 * without starting Electron. `src/main/shell/window.ts` writes the same web preferences out literally (auditing tools
 * read the object at `new BrowserWindow`), and `test/unit/main/shell/window-literal.test.ts` proves the two agree.
 */

/** The privileged scheme the packaged renderer is served from (checklist: prefer a custom protocol to file://). */
export const APP_SCHEME = 'rosterdesk-app'
export const APP_HOST = 'rosterdesk'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

export interface SecureWebPreferences {
  readonly preload: string
  readonly contextIsolation: true
  readonly sandbox: true
  readonly nodeIntegration: false
  readonly nodeIntegrationInWorker: false
  readonly nodeIntegrationInSubFrames: false
  readonly webSecurity: true
  readonly allowRunningInsecureContent: false
  readonly webviewTag: false
  readonly experimentalFeatures: false
  readonly navigateOnDragDrop: false
  readonly spellcheck: false
  readonly disableBlinkFeatures: 'Auxclick'
}

/** What every window of the app's is held to, whatever page it shows. */
const ISOLATED_WEB_PREFERENCES: Omit<SecureWebPreferences, 'preload'> = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  // A middle click on a link is one more way to ask for a new window; windowOpenDecision denies those anyway,
  // and the app has no use for auxclick, so the feature is off rather than relied on to be harmless.
  disableBlinkFeatures: 'Auxclick',
}

export function secureWebPreferences(preloadPath: string): SecureWebPreferences {
  return { preload: preloadPath, ...ISOLATED_WEB_PREFERENCES }
}

/** The in-memory session of the print window: the page shares no cookies, cache or permissions with the app. */
export const PRINT_PARTITION = 'rosterdesk-print'

/**
 * The hidden print window's settings: the app window's, except that it has no preload (the page needs no bridge
 * to main), runs no JavaScript (the page is a static table) and has a session of its own.
 * `src/main/shell/adapters/print-window.ts` writes them out literally, held to this by window-literal.test.ts.
 */
export type PrintWebPreferences = Omit<SecureWebPreferences, 'preload'> & {
  readonly partition: typeof PRINT_PARTITION
  readonly javascript: false
}

export function printWebPreferences(): PrintWebPreferences {
  return { ...ISOLATED_WEB_PREFERENCES, partition: PRINT_PARTITION, javascript: false }
}

/**
 * The one inline script Vite's dev server adds to index.html: @vitejs/plugin-react's React Refresh preamble. The
 * development CSP allows it by hash rather than with 'unsafe-inline', so no other inline script runs even in
 * development. `test/e2e/renderer-csp.test.ts` hashes the preamble the dev server really serves and fails, naming
 * the new hash, when an upgrade of the plugin changes it.
 */
export const REACT_REFRESH_PREAMBLE_HASH = "'sha256-Z2/iFzh9VMlVkEOar1f/oSHWwQk3ve1qk/C2WdsC4Xk='"

/**
 * The production policy allows nothing but the app's own files. The development policy (the page comes from Vite's
 * dev server, so 'self' is that server, and 'self' also matches its ws: hot-reload socket) adds only what the dev
 * server cannot work without: the refresh preamble above, and inline styles, because Vite delivers every imported
 * CSS file as a <style> element whose text changes with each edit. It is never used when packaged.
 */
export function contentSecurityPolicy(mode: 'production' | 'development'): string {
  const self = "'self'"
  const directives: Record<string, string[]> = {
    'default-src': ["'none'"],
    'script-src': [self],
    'style-src': [self],
    'img-src': [self, 'data:'],
    'font-src': [self],
    'connect-src': [self],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
  }
  if (mode === 'development') {
    directives['script-src']?.push(REACT_REFRESH_PREAMBLE_HASH)
    directives['style-src']?.push("'unsafe-inline'")
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')
}

/** The origins whose pages belong to the app: the custom protocol, or Vite's dev server in development. */
export function appOrigins(devServerUrl: string | undefined): string[] {
  const origins = [APP_ORIGIN]
  if (devServerUrl) origins.push(new URL(devServerUrl).origin)
  return origins
}

export function isAppUrl(url: string, origins: readonly string[]): boolean {
  const origin = originOf(url)
  return origin !== undefined && origins.includes(origin)
}

/** `will-navigate`: the app is a single page, so any navigation away from its own origin is refused. */
export function shouldBlockNavigation(targetUrl: string, origins: readonly string[]): boolean {
  return !isAppUrl(targetUrl, origins)
}

/**
 * `setWindowOpenHandler`: the app never opens windows. Sign-in opens the system browser from main with a URL main
 * built itself, so nothing the page asks for is forwarded to `shell.openExternal`.
 */
export function windowOpenDecision(): { action: 'deny' } {
  return { action: 'deny' }
}

/**
 * The permissions the app's own page needs, and no more: writing text to the clipboard (Copy report; the table's
 * Copy is main's own write, decision 038), which Chromium asks for as `clipboard-sanitized-write` when a page calls navigator.clipboard.writeText outside a
 * copy event (Electron forwards it to the session's handlers, shell/browser/electron_permission_manager.cc; the
 * names are those of docs/api/session.md, `setPermissionRequestHandler`). Camera, notifications, geolocation,
 * clipboard reading and the rest are refused.
 */
export const APP_PAGE_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

/** A permission request or check as Electron hands it to the session's handlers. */
export interface PermissionAsk {
  /** The asking page's webContents id; undefined when Electron gives none (a cross-origin subframe's check). */
  readonly webContentsId: number | undefined
  readonly permission: string
  /** The URL the asking frame last loaded (`details.requestingUrl`), or the check's requesting origin. */
  readonly requestingUrl: string | undefined
  readonly isMainFrame: boolean
}

/**
 * Whether to grant a permission: only one of APP_PAGE_PERMISSIONS, only to the app window's own top-level page
 * (`appWebContentsId`) on the app's origin. A subframe, another page, or any other permission is refused.
 */
export function permissionDecision(
  ask: PermissionAsk,
  appWebContentsId: number,
  origins: readonly string[],
): boolean {
  return (
    APP_PAGE_PERMISSIONS.has(ask.permission) &&
    ask.webContentsId === appWebContentsId &&
    ask.isMainFrame &&
    ask.requestingUrl !== undefined &&
    isAppUrl(ask.requestingUrl, origins)
  )
}

/**
 * Every IPC message must come from the app's own top-level page in a window main created. Subframes, other
 * origins (say, after a navigation slipped through) and unknown webContents are refused.
 */
export interface IpcSenderFacts {
  readonly webContentsId: number
  readonly frameUrl: string | undefined
  readonly isMainFrame: boolean
}

export function isTrustedIpcSender(
  sender: IpcSenderFacts,
  trustedWebContentsIds: ReadonlySet<number>,
  origins: readonly string[],
): boolean {
  return (
    trustedWebContentsIds.has(sender.webContentsId) &&
    sender.isMainFrame &&
    sender.frameUrl !== undefined &&
    isAppUrl(sender.frameUrl, origins)
  )
}

/**
 * Maps a request on the app protocol to a file inside the renderer folder, refusing anything that would leave it
 * (`..`, encoded separators, absolute paths) and any host but the app's.
 */
export function resolveAppFile(
  requestUrl: string,
  rendererDir: string,
  sep: '/' | '\\' = '/',
): string | undefined {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return undefined
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return undefined
  let pathname: string
  try {
    pathname = decodeURIComponent(url.pathname)
  } catch {
    return undefined
  }
  if (pathname === '/' || pathname === '') pathname = '/index.html'
  const segments = pathname.split('/').filter((s) => s.length > 0)
  if (
    segments.some((s) => s === '..' || s === '.' || s.includes('\\') || s.includes('\0') || s.includes(':'))
  ) {
    return undefined
  }
  const base = rendererDir.endsWith(sep) ? rendererDir.slice(0, -1) : rendererDir
  return [base, ...segments].join(sep)
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    // Custom schemes have an opaque origin ("null") in the URL API; compare scheme and host instead.
    return parsed.origin !== 'null' ? parsed.origin : `${parsed.protocol}//${parsed.host}`
  } catch {
    return undefined
  }
}
