import { BrowserWindow, session } from 'electron'
import { join } from 'node:path'
import {
  createBoundsSaver,
  MIN_WINDOW_SIZE,
  restoreWindowBounds,
  windowBoundsState,
  windowPlacement,
  type Rect,
  type WindowBoundsState,
} from './window-and-startup/window-bounds'
import {
  APP_ORIGIN,
  contentSecurityPolicy,
  permissionDecision,
  shouldBlockNavigation,
  windowOpenDecision,
} from './window-and-startup/window-security'

/** Where the window's bounds are kept between runs; `load` returns whatever was stored, unchecked. */
export interface WindowBoundsStorage {
  load(): unknown
  save(value: WindowBoundsState): void
}

export interface AppWindowOptions {
  readonly devServerUrl: string | undefined
  readonly origins: readonly string[]
  readonly onLog: (message: string) => void
  readonly bounds: WindowBoundsStorage
  /** The work areas of the connected displays, the primary display's first. */
  readonly displays: () => readonly Rect[]
  /** False in packaged builds: DevTools would let anyone at the desk read the cached payroll data raw. */
  readonly allowDevTools: boolean
  /** The renderer's extra command line: the test hooks' switch in a test build only (test-hooks.ts). */
  readonly additionalArguments: string[]
}

/** Creates the one app window with the settings window-security.ts defines (and the tests check). */
export function createAppWindow(options: AppWindowOptions): BrowserWindow {
  const restored = restoreWindowBounds(options.bounds.load(), options.displays())
  const window = new BrowserWindow({
    ...windowPlacement(restored),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'RosterDesk',
    autoHideMenuBar: true,
    // Written out rather than built by a function so auditors' tools see the values; the unit test
    // window-literal.test.ts holds this object to secureWebPreferences() in window-security.ts.
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
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
      disableBlinkFeatures: 'Auxclick',
      additionalArguments: options.additionalArguments,
    },
  })

  const csp = contentSecurityPolicy(options.devServerUrl ? 'development' : 'production')
  // The header applies the policy even to responses the page's <meta> cannot cover (dev server, errors).
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
  // The page may write text to the clipboard and nothing else (no camera, notifications, geolocation, clipboard
  // reading, …): permissionDecision, for requests and for checks alike (decision 038).
  const appPage = window.webContents.id
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) =>
    callback(
      permissionDecision(
        {
          webContentsId: contents.id,
          permission,
          requestingUrl: details.requestingUrl,
          isMainFrame: details.isMainFrame,
        },
        appPage,
        options.origins,
      ),
    ),
  )
  session.defaultSession.setPermissionCheckHandler((contents, permission, requestingOrigin, details) =>
    permissionDecision(
      {
        webContentsId: contents?.id,
        permission,
        requestingUrl: details.requestingUrl ?? requestingOrigin,
        isMainFrame: details.isMainFrame,
      },
      appPage,
      options.origins,
    ),
  )

  window.webContents.on('will-navigate', (event, url) => {
    if (shouldBlockNavigation(url, options.origins)) {
      event.preventDefault()
      options.onLog('Window: blocked a navigation away from the app')
    }
  })
  window.webContents.on('will-redirect', (event, url) => {
    if (shouldBlockNavigation(url, options.origins)) event.preventDefault()
  })
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  // The menu offers no DevTools when packaged; this also closes them if something opens them anyway.
  if (!options.allowDevTools)
    window.webContents.on('devtools-opened', () => window.webContents.closeDevTools())
  window.webContents.setWindowOpenHandler(() => {
    options.onLog('Window: refused to open a new window')
    return windowOpenDecision()
  })
  window.once('ready-to-show', () => {
    if (restored?.maximized) window.maximize()
    window.show()
  })
  rememberBounds(window, options)

  if (options.devServerUrl) void window.loadURL(options.devServerUrl)
  else void window.loadURL(`${APP_ORIGIN}/index.html`)
  return window
}

function rememberBounds(window: BrowserWindow, options: AppWindowOptions): void {
  const saver = createBoundsSaver({
    // Normal bounds, so a maximized or minimized window remembers the size it returns to.
    read: () => windowBoundsState(window.getNormalBounds(), window.isMaximized()),
    save: (state) => options.bounds.save(state),
    onError: (error) =>
      options.onLog(
        `Window: could not save the window size and position: ${error instanceof Error ? error.message : String(error)}`,
      ),
  })
  const changed = (): void => saver.changed()
  window.on('resize', changed)
  window.on('move', changed)
  window.on('maximize', changed)
  window.on('unmaximize', changed)
  window.on('close', () => saver.flush())
  window.on('closed', () => saver.cancel())
}
