import { app, BrowserWindow, dialog, screen, shell } from 'electron'
import { url as inspectorUrl } from 'node:inspector'
import { join } from 'node:path'
import { createSafeStorageSecretStore } from './adapters/safe-storage-secret-store'
import { installDeepLinkHandling, registerProtocolClients, schemeOf } from './adapters/deep-link'
import { createSettingsBackend, createWindowStateBackend } from './adapters/electron-store-backend'
import { createMainLogger } from './adapters/main-logger'
import { logsFolder } from '../core/log/file-log'
import { sandboxOffReason } from './window-and-startup/sandbox-check'
import { createPrintWindowPrinter } from './adapters/print-window'
import { writeSystemClipboard } from './adapters/clipboard'
import { installAppMenu } from './app-menu'
import { registerAppSchemePrivileges, serveRenderer } from './app-protocol'
import { createAppWindow } from './window'
import { installFacts, updateInputs } from './updates/update-inputs'
import { installKind } from './window-and-startup/msi-install'
import { registerInvokeHandlers } from './ipc/register-invoke-handlers'
import { confirmInDialog, createSettingsChannels } from './ipc/settings-channels'
import { windowEventSink } from './ipc/window-event-sink'
import { closeLibraryChannels } from './ipc/library-channels'
import { RemoteAppCore, type RemoteAppCoreOptions } from './core-process/remote-app-core'
import { coreProcessEntry } from './core-process/core-process-channel'
import { utilityProcessChannel } from './adapters/utility-process-channel'
import { startCrashReporting } from './adapters/crash-reporting'
import { createShellNetwork, type ShellNetworkParts } from './network/shell-network'
import type { EventSink } from '../core/ipc/dispatch'
import { appOrigins } from './window-and-startup/window-security'
import { answerLaunch, relaunchArgs } from './window-and-startup/launch'
import { testHookArguments, testHooksAllowed } from './window-and-startup/test-hooks'
import {
  APP_USER_MODEL_ID,
  aboutText,
  startupFailureText,
  userDataFolder,
} from './window-and-startup/startup'
import { cacheRootFor } from '../core/cache/cache-folders'
import { DEFAULT_REDIRECT_URI } from '../core/settings/settings-defaults'
import { MemoryKeyValueBackend, SettingsStore, type KeyValueBackend } from '../core/settings/settings-store'
import { ReadThroughBackend } from '../core/settings/key-value-backend'
import type { SyncStatus } from '../../shared/domain/sync'
import { updateStateText, UPDATES_NOT_SET_UP } from '../../shared/update-state'
import type { SavedFileKind } from '../../shared/domain/export'
import { BusyWork } from './updates/busy-work'
import { createAppUpdates, type AppUpdates } from './updates/app-updates'

/**
 * The Electron shell: everything here is wiring. Order matters: the data folder is chosen before anything reads
 * it (it also names the single-instance lock), and the app scheme's privileges and the deep-link listeners must
 * exist before `ready`, because macOS delivers a cold start's callback URL through `open-url` before the app is
 * ready. Any failure while starting ends in a native error box naming the log, a non-zero exit and a released
 * lock, never in a silent process that holds the lock.
 */
const osUserData = app.getPath('userData')
app.setPath('userData', userDataFolder(osUserData, app.isPackaged, process.env['ROSTERDESK_USER_DATA_DIR']))
/** The save dialog's file type, by what is saved: an export's format, or a diagnostics zip. */
const SAVE_FILTERS: Readonly<Record<SavedFileKind, { name: string; extensions: string[] }>> = {
  csv: { name: 'CSV', extensions: ['csv'] },
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] },
  zip: { name: 'Zip archive', extensions: ['zip'] },
}

const logsDir = logsFolder(app.getPath('userData'))
// The saved employees: on Windows in the local, non-roaming folder; the settings and the log stay (decision 046).
const cacheRoot = cacheRootFor({
  dataDir: app.getPath('userData'),
  defaultDataDir: userDataFolder(osUserData, app.isPackaged, undefined),
  platform: process.platform,
  env: process.env,
  home: app.getPath('home'),
})
const { logger, logFilePath } = createMainLogger(logsDir)
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL']
const origins = appOrigins(devServerUrl)

const WINDOW_BOUNDS_KEY = 'windowBounds'
let starting = true
/** Set once the app begins to quit: the core is being closed, and a start it cancels is no failure. */
let quitting = false
/** Set once start-up opened the first window: from then on a launch with no window open opens one. */
let windowsCanOpen = false
/** Set once app.relaunch() was called: Electron starts one new instance per call after the exit. */
let relaunching = false
/** The sign-in schemes this process watches (argv and open-url), known once boot() read the settings. */
let callbackSchemes = new Set<string>()
let mainWindow: BrowserWindow | undefined
let settingsBackend: KeyValueBackend | undefined
let windowState: KeyValueBackend | undefined
let core: RemoteAppCore | undefined
let coreOptions: RemoteAppCoreOptions | undefined
/** The app's updater (decision 044), made once the network is; About says "not set up" until then. */
let updates: AppUpdates | undefined
/** The newest crash since the last start (ISO), which the window tells the clerk of once (crash-reporting.ts). */
let crashNoticeAt: string | undefined
const trustedWebContents = new Set<number>()

process.on('uncaughtException', (error) => {
  logger.error('Uncaught exception in the main process', error)
  if (starting) failStartup(error)
})
process.on('unhandledRejection', (reason) => {
  logger.error('Unhandled promise rejection in the main process', reason)
  if (starting) failStartup(reason)
})

try {
  boot()
} catch (error) {
  failStartup(error)
}

function boot(): void {
  logger.info(`RosterDesk ${app.getVersion()} starting`)
  const sandboxOff = sandboxOffReason(app.commandLine, process.env)
  if (sandboxOff !== undefined) logger.warn(sandboxOff)
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID)
  registerAppSchemePrivileges()
  settingsBackend = createSettingsBackend((message) => logger.warn(message))
  windowState = createWindowStateBackend((message) => logger.warn(message))
  closeLibraryChannels()
  // Read only: the core process is the settings file's one writer (its migrations included).
  const settings = new SettingsStore(new ReadThroughBackend(settingsBackend))
  callbackSchemes = new Set(
    [schemeOf(settings.get().redirectUri), schemeOf(DEFAULT_REDIRECT_URI)].filter((s): s is string => !!s),
  )
  const [primaryScheme = 'com.rosterdesk.app'] = [...callbackSchemes]
  const deepLinks = installDeepLinkHandling(app, { scheme: primaryScheme, argv: process.argv })
  if (!deepLinks.primary) {
    // Another RosterDesk runs: it received our command line (and any callback URL in it) and comes forward.
    starting = false
    return
  }
  // Before ready, so every process is covered; in the one running instance only, which tells of crashes once.
  crashNoticeAt = startCrashReporting({ logger, closingCore: () => quitting }).noticeAt
  // Launching again brings the window forward (opening one if there is none), whether or not a callback URL came
  // with it; during a quit, RosterDesk starts again once the quit is done.
  app.on('second-instance', () => answerRelaunch())

  // Only a packaged app registers its scheme (an `npm start` would take the installed app's over), and on Windows
  // only where Windows does not already hand it to this executable (policy/protocol-client.ts).
  const schemes = [...callbackSchemes]
  void app
    .whenReady()
    .then(() =>
      registerProtocolClients(app, schemes, {
        isPackaged: app.isPackaged,
        platform: process.platform,
        execPath: process.execPath,
        log: (message) => logger.info(message),
      }),
    )
    .catch((error: unknown) => logger.warn('Registering the sign-in scheme failed', error))

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('before-quit', (event) => {
    if (quitting) return
    // Before the core process exists (the secret store still opening) there is nothing to wait for, and start()
    // stops where it is.
    if (!core) {
      void closeCore()
      return
    }
    event.preventDefault()
    void closeCore().finally(() => app.quit())
  })

  app
    .whenReady()
    .then(() => start(deepLinks))
    .then(
      () => {
        starting = false
        if (!quitting) logger.info(`RosterDesk ${app.getVersion()} started`)
      },
      (error: unknown) => failStartup(error),
    )
}

async function start(deepLinks: ReturnType<typeof installDeepLinkHandling>): Promise<void> {
  serveRenderer(join(__dirname, '../renderer'))
  installAppMenu({
    appName: app.getName(),
    platform: process.platform,
    isPackaged: app.isPackaged,
    openLogFolder: () => void shell.openPath(logsDir),
    showAbout: () => void showAbout(),
    checkForUpdates: () => void checkForUpdates(),
    sendCommand: (command) => windowEventSink(() => mainWindow?.webContents).emit('app:command', command),
  })
  const secrets = await createSafeStorageSecretStore(logger)
  if (quitting) return
  // The core process's requests go through Chromium with a session of its own, set up here (decision 037).
  const network = createShellNetwork({ logger, secrets, window: () => mainWindow })
  const events = windowEventSink(() => mainWindow?.webContents)
  const busyWork = await startUpdates(network, events)
  if (quitting || updates === undefined) return
  // The app core (cache, index, sync, exports) runs in a utility process of its own; this process keeps the
  // windows, the dialogs and the secrets, and routes each request there (ARCHITECTURE, "Runtimes and threads").
  // Kept for a restart into an update that did not install, which starts the core again (decision 050).
  coreOptions = {
    channel: utilityProcessChannel(coreProcessEntry(__dirname), network.utility),
    config: {
      appInfo: {
        name: app.getName(),
        version: app.getVersion(),
        platform: process.platform,
        // The OS's regional formats (after ready, as Electron requires), which numbers and dates follow on screen.
        systemLocale: app.getSystemLocale(),
        // The window's notice (issue 31, point 7); the log said why at boot.
        ...(sandboxOffReason(app.commandLine, process.env) === undefined
          ? {}
          : { sandboxOff: true as const }),
        ...(crashNoticeAt === undefined ? {} : { crashedAt: crashNoticeAt }),
      },
      dataDir: app.getPath('userData'),
      cacheRoot,
      // Unpackaged, the OS hands the private-use scheme to nobody (it is not registered): sign-in says so.
      receivesSchemeCallbacks: app.isPackaged,
      // A packaged app reads the machine policy from the machine's locations only (decision 042).
      packaged: app.isPackaged,
    },
    shell: {
      secrets,
      openExternal: (url) => shell.openExternal(url),
      chooseExportPath: async (defaultPath, format) => {
        const options = {
          defaultPath,
          filters: [SAVE_FILTERS[format]],
        }
        const result = mainWindow
          ? await dialog.showSaveDialog(mainWindow, options)
          : await dialog.showSaveDialog(options)
        return result.canceled ? undefined : result.filePath
      },
      revealFile: (path) => shell.showItemInFolder(path),
      facts: () => ({
        installKind: installKind(installFacts()),
        updateState: updates === undefined ? UPDATES_NOT_SET_UP : updateStateText(updates.controller.state),
      }),
      printPage: createPrintWindowPrinter(() => mainWindow),
      writeClipboard: writeSystemClipboard,
      network: network.services,
    },
    events,
    logger,
    logFile: logFilePath,
    // What the window showed came from the process that stopped: it starts over from the new one (or, if the
    // core keeps stopping, shows why on its first request).
    onRestarted: () => mainWindow?.webContents.reload(),
    onDown: () => mainWindow?.webContents.reload(),
  }
  const remote = new RemoteAppCore(coreOptions)
  // Kept before it is up, so a quit while it starts still closes it.
  core = remote
  const coreStarted = remote.start()
  // The window opens while the core process starts; its first requests wait there for the app core.
  registerInvokeHandlers(
    busyWork.track((channel, args) => (core ?? remote).invoke(channel, args)),
    { webContentsIds: trustedWebContents, origins },
    logger,
    {
      ...network.mainHandlers,
      ...updates.mainHandlers,
      ...createSettingsChannels({
        dispatch: (channel, args) => remote.invoke(channel, args),
        confirm: confirmInDialog(() => mainWindow),
        logger,
      }),
    },
  )
  openWindow()
  windowsCanOpen = true
  await coreStarted
  // The first check once the window shows and the core applied the network settings (which the updater's
  // session follows); then every few hours.
  if (!quitting) updates.controller.start()

  deepLinks.attach((url) => {
    answerRelaunch()
    // A quitting core no longer signs in: the clerk signs in again in the new instance.
    if (quitting) logger.warn('A sign-in callback arrived while quitting; it was not used')
    else void core?.handleCallbackUrl(url)
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
}

/** Set by the first `closeCore`: the close under way or done. */
let closing: Promise<void> | undefined

/**
 * Main's quit path up to the exit: quitting from now on (nothing new starts, the updater stops), then the core
 * closed (a sync or export stops and lets go of the cache). Once, whoever asks first: a quit, or a restart into an
 * update before its installer starts (decision 044).
 */
function closeCore(): Promise<void> {
  if (closing !== undefined) return closing
  quitting = true
  updates?.controller.stop()
  if (!core) return (closing = Promise.resolve())
  logger.info('Quitting: stopping any sync or export first')
  closing = core.close().catch((error: unknown) => logger.error('Closing the app core failed', error))
  return closing
}

/**
 * Back from a restart into an update that did not install (decision 050): no longer quitting, a new core started
 * (requests wait for it, as at start), and the window reloaded, or opened again where the updater closed it
 * (Electron's autoUpdater.quitAndInstall closes every window first: shell/browser/api/electron_api_auto_updater.cc).
 */
async function reopenAfterFailedRestart(): Promise<void> {
  await closing
  if (coreOptions === undefined) return
  closing = undefined
  quitting = false
  logger.info('Updates: the restart did not install the update; starting the app core again')
  const reopened = (core = new RemoteAppCore(coreOptions)).start()
  if (mainWindow === undefined) openWindow()
  else mainWindow.webContents.reload()
  await reopened.catch((error: unknown) => logger.error('Starting the app core again failed', error))
}

/**
 * The app's updater (decision 044), its session following the core's network settings, and what a restart into
 * an update must wait for: a sync (the core's own status) and an export or print (their requests, counted by the
 * returned BusyWork as main routes them).
 */
async function startUpdates(network: ShellNetworkParts, events: EventSink): Promise<BusyWork> {
  const busyWork = new BusyWork(async () => {
    const status = await core?.invoke('sync:get-status', [])
    return status?.ok === true && (status.value as SyncStatus).running
  })
  updates = await createAppUpdates({
    // The machine policy's `updates` section and the MSI install's reason (update-inputs.ts).
    ...(await updateInputs()),
    logger,
    network: network.follower,
    busy: () => busyWork.reason(),
    closeForRestart: () => closeCore(),
    reopenAfterFailedRestart: () => reopenAfterFailedRestart(),
    emit: (state) => events.emit('updates:state', state),
  })
  return busyWork
}

/** Help → Check for updates…: checks now, then About shows what the check found. */
async function checkForUpdates(): Promise<void> {
  try {
    await updates?.controller.check()
    await showAbout()
  } catch (error) {
    logger.warn('Showing the update state failed', error)
  }
}

function openWindow(): void {
  const state = (windowState ??= new MemoryKeyValueBackend())
  // Before window-state.json, the bounds were kept in the settings file, which the core process now owns.
  const earlier = settingsBackend
  const window = createAppWindow({
    devServerUrl,
    origins,
    onLog: (message) => logger.warn(message),
    allowDevTools: !app.isPackaged,
    additionalArguments: testHookArguments(testHooksAllowed(process.env, inspectorUrl())),
    bounds: {
      load: () => state.get(WINDOW_BOUNDS_KEY) ?? earlier?.get(WINDOW_BOUNDS_KEY),
      save: (value) => state.set(WINDOW_BOUNDS_KEY, value),
    },
    // The primary display first: a window whose saved place is off every screen opens there.
    displays: () => {
      const primary = screen.getPrimaryDisplay()
      return [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea)
    },
  })
  // Windows ending the session (log-off, shutdown) skips before-quit. Electron 45 ends the app at once there;
  // should a version let main run on, the core process ending with the session is no crash to restart.
  window.on('session-end', () => core?.detach())
  const id = window.webContents.id
  trustedWebContents.add(id)
  window.on('closed', () => {
    trustedWebContents.delete(id)
    if (mainWindow === window) mainWindow = undefined
  })
  mainWindow = window
}

/**
 * A launch of RosterDesk reached this process (a second instance, a sign-in callback): the window comes forward,
 * opens if there is none, or, while quitting, RosterDesk starts again after the exit (policy/launch.ts).
 */
function answerRelaunch(): void {
  const answer = answerLaunch({ quitting, windowOpen: mainWindow !== undefined, windowsCanOpen })
  if (answer === 'relaunch-after-quit') {
    if (relaunching) return
    relaunching = true
    logger.info('RosterDesk was started again while quitting: it starts once the quit is done')
    // Electron's relauncher waits for this process to exit, then starts the app (shell/browser/relauncher.cc).
    app.relaunch({ args: relaunchArgs(process.argv, callbackSchemes) })
  } else if (answer === 'open') {
    openWindow()
  } else if (answer === 'focus') {
    focusWindow()
  }
}

function focusWindow(): void {
  if (!mainWindow) return
  if (mainWindow.isMinimized()) mainWindow.restore()
  mainWindow.show()
  mainWindow.focus()
}

async function showAbout(): Promise<void> {
  const detail = aboutText(
    {
      app: app.getVersion(),
      electron: process.versions.electron,
      chrome: process.versions.chrome,
      node: process.versions.node,
    },
    app.getPath('userData'),
    logsDir,
    updates === undefined ? UPDATES_NOT_SET_UP : updateStateText(updates.controller.state),
    cacheRoot,
  )
  const options = { type: 'info' as const, title: `About ${app.getName()}`, message: app.getName(), detail }
  if (mainWindow) await dialog.showMessageBox(mainWindow, options)
  else await dialog.showMessageBox(options)
}

/** Says why in a native box (usable before `ready`), frees the lock so the next launch can try, exits non-zero. */
function failStartup(error: unknown): void {
  starting = false
  // A quit while starting cancels the core's start; that is the clerk's choice, not a failure to report.
  if (quitting) return
  logger.error('RosterDesk could not start', error)
  const text = startupFailureText(error, logFilePath)
  try {
    dialog.showErrorBox(text.title, text.message)
  } finally {
    app.releaseSingleInstanceLock()
    app.exit(1)
  }
}
