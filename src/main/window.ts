import { BrowserWindow, session } from 'electron'
import { join } from 'node:path'
import {
  APP_ORIGIN,
  contentSecurityPolicy,
  secureWebPreferences,
  shouldBlockNavigation,
  windowOpenDecision,
} from './core/shell/window-policy'

export interface AppWindowOptions {
  readonly devServerUrl: string | undefined
  readonly origins: readonly string[]
  readonly onLog: (message: string) => void
}

/** Creates the one app window with the settings window-policy.ts defines (and the tests check). */
export function createAppWindow(options: AppWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'RosterDesk',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(join(__dirname, '../preload/index.js')),
  })

  const csp = contentSecurityPolicy(
    options.devServerUrl ? 'development' : 'production',
    options.devServerUrl ? new URL(options.devServerUrl).origin : undefined,
  )
  // The header applies the policy even to responses the page's <meta> cannot cover (dev server, errors).
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
  // The app asks for no device or browser permissions (camera, notifications, geolocation, …).
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))

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
  window.webContents.setWindowOpenHandler(() => {
    options.onLog('Window: refused to open a new window')
    return windowOpenDecision()
  })
  window.once('ready-to-show', () => window.show())

  if (options.devServerUrl) void window.loadURL(options.devServerUrl)
  else void window.loadURL(`${APP_ORIGIN}/index.html`)
  return window
}
