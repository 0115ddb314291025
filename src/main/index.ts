import { app, BrowserWindow, dialog, shell } from 'electron'
import { join } from 'node:path'
import { createSafeStorageSecretStore } from './adapters/safe-storage-secret-store'
import { installDeepLinkHandling, protocolClientArgs, schemeOf } from './adapters/deep-link'
import { createSettingsBackend } from './adapters/electron-store-backend'
import { createMainLogger } from './adapters/main-logger'
import { registerAppSchemePrivileges, serveRenderer } from './app-protocol'
import { createAppWindow } from './window'
import { registerInvokeHandlers } from './ipc/register-invoke-handlers'
import { windowEventSink } from './ipc/window-event-sink'
import { createAppCore, type AppCore } from './core/app/create-app-core'
import { appOrigins } from './core/shell/window-policy'
import { DEFAULT_REDIRECT_URI } from './core/settings/settings-defaults'
import { SettingsStore } from './core/settings/settings-store'
import { startSandbox } from './sandbox'

/**
 * The Electron shell: everything here is wiring. Order matters at the top level: the app scheme's privileges
 * and the deep-link listeners must exist before `ready`, because macOS delivers a cold start's callback URL
 * through `open-url` before the app is ready.
 */
const logger = createMainLogger()
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL']
const origins = appOrigins(devServerUrl)

registerAppSchemePrivileges()
const settingsBackend = createSettingsBackend((message) => logger.warn(message))
const settings = new SettingsStore(settingsBackend)
const callbackSchemes = new Set(
  [schemeOf(settings.get().redirectUri), schemeOf(DEFAULT_REDIRECT_URI)].filter((s): s is string => !!s),
)
const [primaryScheme = 'com.rosterdesk.app'] = [...callbackSchemes]
const deepLinks = installDeepLinkHandling(app, { scheme: primaryScheme, argv: process.argv })

let mainWindow: BrowserWindow | undefined
let core: AppCore | undefined
const trustedWebContents = new Set<number>()

if (deepLinks.primary) {
  const [execPath, execArgs] = protocolClientArgs(process.defaultApp === true, process.execPath, process.argv)
  for (const scheme of callbackSchemes) {
    if (execPath === undefined) app.setAsDefaultProtocolClient(scheme)
    else app.setAsDefaultProtocolClient(scheme, execPath, execArgs)
  }
  void app.whenReady().then(start, (error: unknown) => {
    logger.error(`Startup failed: ${error instanceof Error ? error.message : String(error)}`)
    app.quit()
  })
}

async function start(): Promise<void> {
  serveRenderer(join(__dirname, '../renderer'))
  const secrets = await createSafeStorageSecretStore(logger)
  const demo = await startSandbox({ port: 0, log: undefined })
  core = await createAppCore({
    appInfo: { name: app.getName(), version: app.getVersion(), platform: process.platform },
    dataDir: app.getPath('userData'),
    settings,
    secrets,
    fetch: (input, init) => fetch(input, init),
    openExternal: (url) => shell.openExternal(url),
    demo: { environment: { baseUrl: demo.baseUrl, ...demo.credentials }, close: () => demo.close() },
    events: windowEventSink(() => mainWindow?.webContents),
    logger,
    uiState: settingsBackend,
    chooseExportPath: async (defaultPath, format) => {
      const options = {
        defaultPath,
        filters: [
          format === 'csv'
            ? { name: 'CSV', extensions: ['csv'] }
            : { name: 'Excel workbook', extensions: ['xlsx'] },
        ],
      }
      const result = mainWindow
        ? await dialog.showSaveDialog(mainWindow, options)
        : await dialog.showSaveDialog(options)
      return result.canceled ? undefined : result.filePath
    },
    revealFile: (path) => shell.showItemInFolder(path),
  })
  registerInvokeHandlers(core.handlers, { webContentsIds: trustedWebContents, origins }, logger)
  openWindow()

  deepLinks.attach((url) => {
    focusWindow()
    void core?.handleCallbackUrl(url)
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
}

function openWindow(): void {
  const window = createAppWindow({ devServerUrl, origins, onLog: (message) => logger.warn(message) })
  const id = window.webContents.id
  trustedWebContents.add(id)
  window.on('closed', () => {
    trustedWebContents.delete(id)
    if (mainWindow === window) mainWindow = undefined
  })
  mainWindow = window
}

function focusWindow(): void {
  if (!mainWindow) return
  if (mainWindow.isMinimized()) mainWindow.restore()
  mainWindow.focus()
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

let closing = false
app.on('before-quit', (event) => {
  if (closing || !core) return
  closing = true
  event.preventDefault()
  void core.close().finally(() => app.quit())
})
