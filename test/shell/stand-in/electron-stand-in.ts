import { fork, type ChildProcess } from 'node:child_process'
import { constants as osConstants } from 'node:os'
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { pacString, routeFor, type StandInProxyConfig } from './proxy-rules'
import { createStandInClipboard, StandInClipboardItem } from './clipboard'
import { LINK_FD, onLines, type FromUtility, type ToUtility } from './utility-link'
import { goneDetails, StandInCrashpad } from './crash-reporter'
import type { StandInVerifyRequest } from './tls-verify'
import {
  StandInClientRequest,
  type AuthInfo,
  type StandInRequestOptions,
  type UtilityNetHost,
} from './utility-net'

/**
 * A recording stand-in for the parts of Electron's main-process API RosterDesk's shell (and the libraries it
 * loads: electron-store, electron-log) use. Test code only: the built `out/main/index.js` runs against it under
 * plain Node, so the shell's wiring is checked from the very bundle that ships. Every call that matters is kept in
 * `record`; the test reads it through the control channel (see boot.ts).
 */

export interface StandInConfig {
  /** What `app.getPath('userData')` answers before the shell changes it. */
  readonly userData: string
  readonly isPackaged: boolean
  readonly appPath: string
  readonly version: string
  /** What `process.execPath` is in the app (the executable a protocol registration names). */
  readonly execPath?: string
  /**
   * The executable Windows resolves the scheme to (`app.getApplicationInfoForProtocol`'s `path`), e.g. a
   * per-machine install's HKLM key; undefined: nothing is registered, and the promise rejects as Electron's does.
   */
  readonly registeredHandlerPath?: string
  /** The OS's regional formats, as `app.getSystemLocale()` reports them ("de-DE"); en-US when not set. */
  readonly systemLocale?: string
  /**
   * Linux's safeStorage backend, as `safeStorage.getSelectedStorageBackend()` reports it once the app is ready
   * ('gnome_libsecret' when not set): 'basic_text' is Chromium's fallback without a keychain, whose key is a
   * constant in its source.
   */
  readonly safeStorageBackend?: 'gnome_libsecret' | 'kwallet5' | 'basic_text'
  /**
   * Which keychain this start's safeStorage encrypts with ('keychain-1' when not set): what another keychain
   * encrypted (a new OS profile, another computer) it refuses to decrypt, as Electron's does.
   */
  readonly keychain?: string
}

export interface RecordedWindow {
  readonly id: number
  readonly options: unknown
  readonly loadedUrls: string[]
  /** webContents.reload() calls. */
  reloads: number
  shown: boolean
  focused: number
  restored: number
}

export interface StandInRecord {
  readonly setPaths: Array<{ name: string; path: string }>
  readonly handlers: Map<string, number>
  readonly ipcListeners: string[]
  readonly windows: RecordedWindow[]
  readonly sent: Array<{ channel: string; payload: unknown }>
  readonly errorBoxes: Array<{ title: string; message: string }>
  /**
   * Every dialog.showMessageBox: its words, its type and buttons, the default and cancel buttons as Electron
   * settles them, whether it was given a window (modal to it), and the button that answered it.
   */
  readonly messageBoxes: RecordedMessageBox[]
  readonly openedExternal: string[]
  readonly openedPaths: string[]
  readonly shownItems: string[]
  readonly protocolClients: string[]
  /** Every app.relaunch() call, with its options as given. */
  readonly relaunches: Array<{ args?: string[]; execPath?: string }>
  /**
   * The app's events and each window's end (`window <id> closed`), in the order they happened: a quit reads
   * before-quit, the windows closed, will-quit, quit.
   */
  readonly appEvents: string[]
  /**
   * Every permission request or check Electron forwarded to the session's handlers (electron_permission_manager.cc)
   * and the answer: true granted, false refused; 'no-handler' when none was set (Electron then grants).
   */
  readonly permissionAsks: Array<{
    kind: 'request' | 'check'
    permission: string
    webContentsId: number | undefined
    requestingUrl: string
    isMainFrame: boolean
    granted: boolean
    handler: 'app' | 'no-handler'
  }>
  readonly privilegedSchemes: string[]
  readonly handledProtocols: string[]
  readonly appUserModelIds: string[]
  readonly menus: unknown[]
  /** Pages handed to webContents.print: the window's title and the file it had loaded, as read then. */
  readonly printed: Array<{ title: string; html: string }>
  /** The system clipboard's contents by MIME type after each `clipboard.write` (clipboard.ts), newest last. */
  readonly clipboardWrites: Array<Record<string, string>>
  /**
   * Every utilityProcess.fork: the module, its service name, its pid while it runs, the partition of the session
   * it was given (undefined: none, the system network context) and whether main answers its challenges.
   */
  readonly utilityProcesses: Array<{
    modulePath: string
    serviceName: string | undefined
    pid: number | undefined
    session: string | undefined
    respondToAuthRequestsFromMainProcess: boolean
  }>
  /**
   * Every session asked for (session.fromPartition), with the options it was made with, each proxy configuration
   * set and whether a verify proc is.
   */
  readonly sessions: Array<{
    partition: string
    cache: boolean
    proxyConfigs: StandInProxyConfig[]
    verifyProc: boolean
  }>
  /**
   * Every request a utility process's `net` or main's `net.request` sent: method, URL, and the route its
   * session's proxy gave it.
   */
  readonly netRequests: Array<{ method: string; url: string; route: string; partition: string | undefined }>
  /**
   * Every 401/407 challenge of a utility process and main's answer ('credentials' with the user name given, or
   * 'cancelled'); never the password.
   */
  readonly logins: Array<{ authInfo: AuthInfo; answer: 'credentials' | 'cancelled'; username?: string }>
  /**
   * Every time a session's verify proc was asked by the stand-in's own TLS (tls-verify.ts): the session's
   * partition, the host, Chromium's error code and the proc's answer.
   */
  readonly certificateChecks: Array<{
    partition: string
    hostname: string
    errorCode: number
    answer: number
  }>
  /**
   * Every client-certificate request (selectClientCertificate) and the certificate it went on with: its subject
   * name, or null for none.
   */
  readonly clientCertificates: Array<{ url: string; chosen: string | null }>
  /** Every crashReporter.start: whether it uploads, and whether it came before `ready` (crash-reporter.ts). */
  readonly crashReporterStarts: Array<{ uploadToServer: boolean; beforeReady: boolean }>
  /** The dumps Crashpad wrote (their file names in crashDumps/completed). */
  readonly crashDumps: string[]
  lockRequested: boolean
  lockReleased: boolean
  exitCode: number | undefined
}

/** One dialog.showMessageBox as the stand-in saw and answered it. */
export interface RecordedMessageBox {
  readonly title?: string
  readonly message: string
  readonly detail?: string
  readonly type: string
  readonly buttons: string[]
  readonly defaultId: number
  readonly cancelId: number
  /** Shown on a window (`showMessageBox(window, options)`), not as a box of its own. */
  readonly onWindow: boolean
  /** The answer's `response`: the index of the button pressed (`cancelId` when dismissed). */
  readonly response: number
}

/** How the next message box is answered: a button by its index, or dismissed (Esc, the close button). */
export type MessageBoxAnswer = number | 'dismiss'

/** A menu item as recorded: the template minus its functions, plus a path to click it by. */
export interface MenuItemSnapshot {
  readonly label?: string
  readonly role?: string
  readonly type?: string
  readonly submenu?: MenuItemSnapshot[]
}

type Handler = (event: unknown, ...args: unknown[]) => unknown
/** electron 45.4.1 docs/api/session.md, `setPermissionRequestHandler` / `setPermissionCheckHandler`. */
type PermissionRequestHandler = (
  webContents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string; isMainFrame: boolean },
) => void
type PermissionCheckHandler = (
  webContents: unknown,
  permission: string,
  requestingOrigin: string,
  details: { requestingUrl?: string; isMainFrame: boolean; embeddingOrigin?: string },
) => boolean

/** The frame that asks: a window's page or one of its subframes (by URL), or a page of a webContents main never made. */
export interface AskingFrame {
  /** A window's webContents id, or any other number for a webContents the app never created. */
  readonly webContentsId: number
  /** The frame's last committed URL; by default the window's loaded page. */
  readonly frameUrl?: string
  readonly isMainFrame: boolean
}
type MenuTemplateItem = {
  label?: string
  role?: string
  type?: string
  click?: () => void
  submenu?: MenuTemplateItem[]
}

export interface ElectronStandIn {
  /** What `require('electron')` returns inside the shell. */
  readonly module: Record<string, unknown>
  readonly record: StandInRecord
  readonly app: EventEmitter
  /** The macOS autoUpdater's Squirrel.Mac behaviour. */
  readonly squirrel: SquirrelBehaviour
  /** Calls a handler registered with ipcMain.handle as Electron would for a message from `sender`. */
  invoke(
    channel: string,
    args: unknown[],
    sender: { webContentsId: number; frameUrl: string },
  ): Promise<unknown>
  /** Clicks the application menu's item found by its labels, e.g. ['Help', 'Open log folder']. */
  clickMenu(path: readonly string[]): void
  menuSnapshot(): MenuItemSnapshot[]
  setSavePath(path: string | undefined): void
  /** What the next dialog.showOpenDialog answers (undefined: cancelled). */
  setOpenPath(path: string | undefined): void
  /**
   * How the next message boxes are answered, in order; once these are used up, each is answered with its default
   * button (`defaultId`, else the first), as a clerk pressing Enter would.
   */
  answerMessageBoxes(answers: readonly MessageBoxAnswer[]): void
  /**
   * Calls the verify proc set on a session (by partition) with Electron's request shape, answering what its
   * callback was called with (undefined when no verify proc is set).
   */
  verifyCertificate(partition: string, request: unknown): Promise<number | undefined>
  /** What `net.isOnline()` answers in every utility process from now on. */
  setOnline(online: boolean): void
  /**
   * Emits a challenge on the newest utility process as main would receive it (login_handler.cc), answering how
   * main's handler answered: 'credentials' or 'cancelled'.
   */
  emitLogin(authInfo: AuthInfo): Promise<'credentials' | 'cancelled'>
  /**
   * A TLS server asks a request of main's `net` or of a utility process forked with
   * respondToAuthRequestsFromMainProcess for a client certificate, and `certificates` are the identities the OS
   * store offers (electron 45: shell/browser/net/client_certificate_responder_delegate.cc,
   * SelectClientCertificateForResponder, from URLLoaderNetworkObserver / SimpleURLLoaderWrapper
   * ::OnCertificateRequested). As ElectronBrowserClient::SelectClientCertificate (electron_browser_client.cc):
   * an empty list goes on without a certificate and emits nothing; otherwise App::SelectClientCertificate
   * (shell/browser/api/electron_api_app.cc) emits app's 'select-client-certificate' with (event, null, `url`
   * — the server's host:port, `cert_request_info->host_and_port` —, the list, callback) and, unless the default
   * was prevented, goes on with the first certificate. The callback with no certificate (or null) goes on without
   * one (OnClientCertificateSelected); with one, the identity whose `data` equals it (EqualsExcludingChain).
   * Settles with the subject name of the certificate sent, or null, once that is decided.
   */
  selectClientCertificate(
    url: string,
    certificates: ReadonlyArray<{ readonly data: string; readonly subjectName: string }>,
  ): Promise<string | null>
  /**
   * What the page's `navigator.clipboard.writeText` asks outside a copy event: Chromium's
   * ClipboardPromise::ValidatePreconditions (third_party/blink/renderer/modules/clipboard/clipboard_promise.cc)
   * requests CLIPBOARD_SANITIZED_WRITE, which Electron hands to the session's request handler as
   * 'clipboard-sanitized-write' (shell/browser/electron_permission_manager.cc, RequestPermissionsWithDetails;
   * the name: shell/common/gin_converters/content_converter.cc). Answers whether the write may go ahead.
   */
  writeClipboard(frame: AskingFrame): Promise<boolean>
  /** Any permission request, as Electron forwards it to the session's request handler. */
  requestPermission(permission: string, frame: AskingFrame): Promise<boolean>
  /** A permission check, as Electron forwards it to the check handler (CheckPermissionWithDetails). */
  checkPermission(permission: string, frame: AskingFrame): boolean
  /**
   * Another instance started with `argv`: Electron emits 'second-instance' (event, argv, workingDirectory,
   * additionalData) on the primary one (shell/browser/api/electron_api_app.cc, OnSecondInstance).
   */
  secondInstance(argv: readonly string[], workingDirectory: string): void
  /** macOS handing the app a URL of its scheme: 'open-url' (event, url) (electron_api_app.cc, OnOpenURL). */
  openUrl(url: string): void
  /** The clerk closes a window (its close button): BrowserWindow 'close', then 'closed'. */
  closeWindow(id: number): void
  /**
   * The window `id`'s renderer crashes (process.crash(): SIGSEGV): Crashpad dumps it when it watches it, then, as
   * WebContents::RenderProcessGone posts it (electron_api_web_contents.cc), `render-process-gone` with
   * `{ reason: 'crashed', exitCode }` on the WebContents, which lib/browser/api/web-contents.ts re-emits on app as
   * (event, webContents, details).
   */
  crashRenderer(id: number): void
  onSend(listener: (channel: string, payload: unknown) => void): void
  onOpenExternal(listener: (url: string) => void): void
  /** Runs before the process exits through app.quit()/app.exit(); the boot script flushes its messages there. */
  onExit(listener: (code: number) => void): void
}

/** How the stand-in's Squirrel.Mac behaves (macOS autoUpdater); a test changes it. */
export interface SquirrelBehaviour {
  /** Squirrel's download of the zip waits for this (a download still under way). */
  downloading: Promise<void>
  /** Squirrel refuses the downloaded update with this message (its code signature check). */
  refuseDownload: string | undefined
  /** What Squirrel's relaunch does: terminates the app (its quit), fails with an error, or never happens. */
  relaunch: 'quit' | 'never' | { readonly error: string }
  /** How many updates Squirrel has downloaded. */
  fetched: number
}

/**
 * safeStorage as Electron's shell/browser/api/electron_api_safe_storage.cc has it: before `ready`,
 * `getSelectedStorageBackend` answers 'unknown' (GetSelectedLinuxBackend), `isAsyncEncryptionAvailable` resolves
 * false (IsAsyncEncryptionAvailable) and the async calls reject "safeStorage cannot be used before app is ready"
 * (encryptStringAsync, decryptStringAsync); after it, the backend is the configured one, and a ciphertext another
 * keychain encrypted is refused with decryptStringAsync's "Error while decrypting the ciphertext provided to
 * safeStorage.decryptStringAsync.". Reversible on purpose (`v11` + the keychain's name + the text): the stand-in
 * proves what the shell stores through safeStorage, not the OS's cryptography.
 */
function standInSafeStorage(config: StandInConfig, isReady: () => boolean) {
  const keychain = config.keychain ?? 'keychain-1'
  const notReady = 'safeStorage cannot be used before app is ready'
  return {
    isEncryptionAvailable: () => isReady(),
    isAsyncEncryptionAvailable: async () => isReady(),
    getSelectedStorageBackend: () =>
      isReady() ? (config.safeStorageBackend ?? 'gnome_libsecret') : 'unknown',
    encryptStringAsync: async (text: string) => {
      if (!isReady()) throw new Error(notReady)
      return Buffer.from(`v11:${keychain}:${text}`, 'utf8')
    },
    decryptStringAsync: async (data: Buffer) => {
      if (!isReady()) throw new Error(notReady)
      const text = data.toString('utf8')
      const prefix = `v11:${keychain}:`
      if (!text.startsWith(prefix))
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptStringAsync.')
      return { result: text.slice(prefix.length), shouldReEncrypt: false }
    },
  }
}

export function createElectronStandIn(config: StandInConfig): ElectronStandIn {
  const squirrel: SquirrelBehaviour = {
    downloading: Promise.resolve(),
    refuseDownload: undefined,
    relaunch: 'quit',
    fetched: 0,
  }
  const record: StandInRecord = {
    setPaths: [],
    handlers: new Map(),
    ipcListeners: [],
    windows: [],
    sent: [],
    errorBoxes: [],
    messageBoxes: [],
    openedExternal: [],
    openedPaths: [],
    shownItems: [],
    protocolClients: [],
    relaunches: [],
    appEvents: [],
    permissionAsks: [],
    privilegedSchemes: [],
    handledProtocols: [],
    appUserModelIds: [],
    menus: [],
    utilityProcesses: [],
    sessions: [],
    netRequests: [],
    logins: [],
    certificateChecks: [],
    clientCertificates: [],
    printed: [],
    crashReporterStarts: [],
    crashDumps: [],
    clipboardWrites: [],
    lockRequested: false,
    lockReleased: false,
    exitCode: undefined,
  }
  const paths = new Map<string, string>([
    ['userData', config.userData],
    ['appData', config.userData],
    ['logs', `${config.userData}/logs`],
    ['temp', '/tmp'],
    ['home', config.userData],
    ['documents', config.userData],
    ['downloads', config.userData],
  ])
  const handlers = new Map<string, Handler>()
  const sendListeners: Array<(channel: string, payload: unknown) => void> = []
  const externalListeners: Array<(url: string) => void> = []
  const exitListeners: Array<(code: number) => void> = []
  let savePath: string | undefined
  let openPath: string | undefined
  const messageBoxAnswers: MessageBoxAnswer[] = []
  /**
   * dialog.showMessageBox as Electron's lib/browser/api/dialog.ts has it (`showMessageBox`, `messageBox`; read at
   * electron/electron 96f3996d8d, the same in 45): `(window, options)` or `(options)`; a type outside
   * none/info/warning/error/question and buttons that are no array throw a TypeError; a `cancelId` not given is
   * the button named "cancel" or "no" (any case), else 1 when `defaultId` is 0 and there are two buttons or more,
   * else 0; `defaultId` -1 unless given. It resolves `{ response, checkboxChecked }`, `response` the index of the
   * button pressed, `cancelId` when the box is dismissed (Esc). The stand-in records it and answers as the test
   * said (answerMessageBoxes), else with the default button.
   */
  const messageBox = (args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> => {
    const onWindow = args.length > 1 && args[0] instanceof StandInWindow
    const options = (args.at(-1) ?? {}) as {
      type?: string
      title?: string
      message?: string
      detail?: string
      buttons?: unknown
      defaultId?: number
      cancelId?: number
      checkboxChecked?: boolean
    }
    const type = options.type ?? 'none'
    if (!['none', 'info', 'warning', 'error', 'question'].includes(type))
      throw new TypeError('Invalid message box type')
    const buttons = options.buttons ?? []
    if (!Array.isArray(buttons)) throw new TypeError('Buttons must be an array')
    const labels = buttons.map(String)
    const defaultId = options.defaultId ?? -1
    let cancelId = options.cancelId
    if (cancelId == null) {
      cancelId = defaultId === 0 && labels.length > 1 ? 1 : 0
      const named = labels.findIndex((label) => ['cancel', 'no'].includes(label.toLowerCase()))
      if (named !== -1) cancelId = named
    }
    const answer = messageBoxAnswers.shift()
    const response = answer === 'dismiss' ? cancelId : (answer ?? (defaultId >= 0 ? defaultId : 0))
    record.messageBoxes.push({
      ...(options.title === undefined ? {} : { title: options.title }),
      message: options.message ?? '',
      ...(options.detail === undefined ? {} : { detail: options.detail }),
      type,
      buttons: labels,
      defaultId,
      cancelId,
      onWindow,
      response,
    })
    return Promise.resolve({ response, checkboxChecked: options.checkboxChecked === true })
  }
  let online = true
  let menuTemplate: MenuTemplateItem[] = []
  let ready = false
  let exiting = false
  /** Browser::is_quitting_: set once before-quit went through, until the quit ends or is cancelled. */
  let quitting = false

  const exit = (code: number): void => {
    if (exiting) return
    exiting = true
    record.exitCode = code
    for (const listener of exitListeners) listener(code)
  }

  class App extends EventEmitter {
    readonly isPackaged = config.isPackaged
    /**
     * Chromium's command line as app.commandLine reads it (electron 45.4.1 docs/api/command-line.md): the
     * process's `--name` and `--name=value` switches; getSwitchValue is '' for a switch absent or without value.
     */
    readonly commandLine = {
      appendSwitch: () => undefined,
      hasSwitch: (name: string) => switchValue(name) !== undefined,
      getSwitchValue: (name: string) => switchValue(name) ?? '',
    }
    getName(): string {
      return 'RosterDesk'
    }
    get name(): string {
      return 'RosterDesk'
    }
    getVersion(): string {
      return config.version
    }
    getAppPath(): string {
      return config.appPath
    }
    getLocale(): string {
      return 'en-GB'
    }
    /**
     * The OS's regional formats. Electron throws "app.getSystemLocale() can only be called after app is ready"
     * when asked before ready, and so does the stand-in.
     */
    getSystemLocale(): string {
      if (!ready) throw new Error('app.getSystemLocale() can only be called after app is ready')
      return config.systemLocale ?? 'en-US'
    }
    getPath(name: string): string {
      // DIR_CRASH_DUMPS: `<userData>/Crashpad` as userData is when first asked for, then kept (crash-reporter.ts).
      if (name === 'crashDumps' && !paths.has(name))
        paths.set(name, join(this.getPath('userData'), 'Crashpad'))
      const path = paths.get(name)
      if (path === undefined) throw new Error(`stand-in: no path named ${name}`)
      return path
    }
    setPath(name: string, path: string): void {
      record.setPaths.push({ name, path })
      paths.set(name, path)
    }
    isReady(): boolean {
      return ready
    }
    whenReady(): Promise<void> {
      return readyPromise
    }
    requestSingleInstanceLock(): boolean {
      record.lockRequested = true
      return true
    }
    releaseSingleInstanceLock(): void {
      record.lockReleased = true
    }
    setAsDefaultProtocolClient(scheme: string): boolean {
      record.protocolClients.push(scheme)
      return true
    }
    /**
     * On Windows, Electron compares HKCU\Software\Classes\<scheme>\shell\open\command with the executable
     * (shell/browser/browser_win.cc, IsDefaultProtocolClient): true once this app wrote it.
     */
    isDefaultProtocolClient(scheme: string): boolean {
      return record.protocolClients.includes(scheme)
    }
    /**
     * Windows' resolved handler for the URL's scheme (AssocQueryString over HKCU and HKLM,
     * shell/browser/browser_win.cc GetApplicationInfoForProtocolUsingAssocQuery): the executable's path, or a
     * rejection "Unable to retrieve installation path to app" when none is registered.
     */
    async getApplicationInfoForProtocol(url: string): Promise<{ path: string; name: string; icon: object }> {
      const scheme = new URL(url).protocol.slice(0, -1)
      const path = record.protocolClients.includes(scheme)
        ? (config.execPath ?? process.execPath)
        : config.registeredHandlerPath
      if (path === undefined) throw new Error('Unable to retrieve installation path to app')
      return { path, name: 'RosterDesk', icon: {} }
    }
    setAppUserModelId(id: string): void {
      record.appUserModelIds.push(id)
    }
    focus(): void {}
    /** Recorded only: Electron starts its relauncher now, and it starts the app once this process has exited. */
    relaunch(options: { args?: string[]; execPath?: string } = {}): void {
      record.relaunches.push({
        ...(options.args === undefined ? {} : { args: [...options.args] }),
        ...(options.execPath === undefined ? {} : { execPath: options.execPath }),
      })
    }
    override emit(name: string | symbol, ...args: unknown[]): boolean {
      if (typeof name === 'string') record.appEvents.push(name)
      return super.emit(name, ...args)
    }
    /**
     * Electron's order (shell/browser/browser.cc, Browser::Quit, OnWindowAllClosed, NotifyAndShutdown): a second
     * call while quitting does nothing; before-quit (preventable: the quit is then off); then every window is
     * asked to close (BrowserWindow 'close', preventable: that cancels the quit, OnWindowCloseCancelled) and,
     * once the last is closed, will-quit (preventable) instead of window-all-closed; then quit and the exit.
     */
    quit(): void {
      if (quitting) return
      const beforeQuit = electronEvent()
      this.emit('before-quit', beforeQuit)
      if (beforeQuit.defaultPrevented) return
      quitting = true
      const open = StandInWindow.getAllWindows()
      if (open.length === 0) this.notifyAndShutdown()
      else for (const window of open) window.close()
    }
    /** Browser::OnWindowAllClosed: the last window closed (and autoUpdater's observer, if it waits for that). */
    allWindowsClosed(): void {
      if (quitting) this.notifyAndShutdown()
      else this.emit('window-all-closed', electronEvent())
      autoUpdater.allWindowsClosed()
    }
    /** A window's close was prevented: a quit under way is off (Browser::OnWindowCloseCancelled). */
    closeCancelled(): void {
      quitting = false
    }
    private notifyAndShutdown(): void {
      const willQuit = electronEvent()
      this.emit('will-quit', willQuit)
      if (willQuit.defaultPrevented) {
        quitting = false
        return
      }
      this.emit('quit', electronEvent(), 0)
      exit(0)
    }
    exit(code = 0): void {
      exit(code)
    }
  }
  const app = new App()
  const crashpad = new StandInCrashpad(
    () => app.getPath('crashDumps'),
    () => ready,
  )
  const readyPromise = new Promise<void>((resolve) =>
    setImmediate(() => {
      ready = true
      app.emit('will-finish-launching')
      app.emit('ready', {}, {})
      resolve()
    }),
  )

  let nextWebContentsId = 1
  const allWindows: StandInWindow[] = []

  class WebContents extends EventEmitter {
    readonly id = nextWebContentsId++
    readonly mainFrame: { url: string }
    readonly session = defaultSession
    openHandler: ((details: { url: string }) => unknown) | undefined
    onReload: (() => void) | undefined
    /** What the window shows, for print() to record (set by loadFile). */
    loaded: { title: string; html: string } | undefined
    destroyed = false
    devToolsOpen = false
    constructor() {
      super()
      this.mainFrame = { url: '' }
      crashpad.created(`renderer:${this.id}`)
    }
    setWindowOpenHandler(handler: (details: { url: string }) => unknown): void {
      this.openHandler = handler
    }
    send(channel: string, payload: unknown): void {
      record.sent.push({ channel, payload })
      for (const listener of sendListeners) listener(channel, payload)
    }
    isDestroyed(): boolean {
      return this.destroyed
    }
    reload(): void {
      this.onReload?.()
    }
    print(_options: unknown, callback: (success: boolean, reason: string) => void): void {
      if (this.loaded !== undefined) record.printed.push(this.loaded)
      setImmediate(() =>
        callback(this.loaded !== undefined, this.loaded === undefined ? 'nothing loaded' : ''),
      )
    }
    getURL(): string {
      return this.mainFrame.url
    }
    openDevTools(): void {
      this.devToolsOpen = true
      this.emit('devtools-opened')
    }
    closeDevTools(): void {
      this.devToolsOpen = false
    }
    isDevToolsOpened(): boolean {
      return this.devToolsOpen
    }
  }

  class StandInWindow extends EventEmitter {
    readonly webContents = new WebContents()
    readonly recorded: RecordedWindow
    #bounds = { x: 100, y: 100, width: 1280, height: 820 }
    #minimized = false
    #maximized = false
    #destroyed = false
    constructor(options: Record<string, unknown> = {}) {
      super()
      this.recorded = {
        id: this.webContents.id,
        options: JSON.parse(JSON.stringify(options)) as unknown,
        loadedUrls: [],
        reloads: 0,
        shown: false,
        focused: 0,
        restored: 0,
      }
      this.webContents.onReload = () => (this.recorded.reloads += 1)
      for (const key of ['x', 'y', 'width', 'height'] as const) {
        const value = options[key]
        if (typeof value === 'number') this.#bounds[key] = value
      }
      record.windows.push(this.recorded)
      allWindows.push(this)
    }
    static getAllWindows(): StandInWindow[] {
      return allWindows.filter((w) => !w.#destroyed)
    }
    static getFocusedWindow(): StandInWindow | null {
      return StandInWindow.getAllWindows()[0] ?? null
    }
    async loadURL(url: string): Promise<void> {
      this.recorded.loadedUrls.push(url)
      this.webContents.mainFrame.url = url
      setImmediate(() => {
        this.webContents.emit('did-finish-load')
        this.emit('ready-to-show')
      })
    }
    show(): void {
      this.recorded.shown = true
    }
    focus(): void {
      this.recorded.focused += 1
    }
    isMinimized(): boolean {
      return this.#minimized
    }
    minimize(): void {
      this.#minimized = true
    }
    restore(): void {
      this.#minimized = false
      this.recorded.restored += 1
    }
    isMaximized(): boolean {
      return this.#maximized
    }
    maximize(): void {
      this.#maximized = true
    }
    isFullScreen(): boolean {
      return false
    }
    isDestroyed(): boolean {
      return this.#destroyed
    }
    getBounds(): { x: number; y: number; width: number; height: number } {
      return { ...this.#bounds }
    }
    getNormalBounds(): { x: number; y: number; width: number; height: number } {
      return { ...this.#bounds }
    }
    setBounds(bounds: { x: number; y: number; width: number; height: number }): void {
      this.#bounds = { ...bounds }
    }
    setMenuBarVisibility(): void {}
    async loadFile(file: string): Promise<void> {
      const options = this.recorded.options as { title?: string }
      this.webContents.loaded = { title: options.title ?? '', html: readFileSync(file, 'utf8') }
      this.recorded.loadedUrls.push(`file://${file}`)
    }
    destroy(): void {
      if (this.#destroyed) return
      this.#destroyed = true
      this.webContents.destroyed = true
      record.appEvents.push(`window ${this.webContents.id} closed`)
      this.emit('closed')
      this.#afterClosed()
    }
    /** 'close' (preventable), then 'closed'; the last window closed tells the app (Browser::OnWindowAllClosed). */
    close(): void {
      if (this.#destroyed) return
      const event = electronEvent()
      this.emit('close', event)
      if (event.defaultPrevented) {
        app.closeCancelled()
        return
      }
      this.destroy()
    }
    #afterClosed(): void {
      if (StandInWindow.getAllWindows().length === 0) app.allWindowsClosed()
    }
  }

  /**
   * Electron's Session as RosterDesk uses it (electron 45.4.1, docs/api/session.md): one per partition
   * (`session.fromPartition` answers the same object for the same partition; one without `persist:` is in
   * memory), `setProxy` (resolves once the network service applied it: here, once every utility process using
   * the session has), `resolveProxy` (Chromium's PAC-style answer, proxy-rules.ts), `setCertificateVerifyProc`
   * (kept, and called by the test with Electron's request shape), `closeAllConnections`.
   */
  class StandInSession extends EventEmitter {
    readonly webRequest = { onHeadersReceived: () => undefined, onBeforeRequest: () => undefined }
    readonly recorded: StandInRecord['sessions'][number]
    proxyConfig: StandInProxyConfig = {}
    verifyProc: ((request: unknown, callback: (result: number) => void) => void) | null = null
    readonly users = new Set<StandInUtilityProcess>()
    /**
     * Chromium's HTTP auth cache is the network context's, one per session (not per process): credentials per
     * host, shared by main's `net.request` in this session and every utility process forked with it.
     */
    readonly authEntries = new Map<string, string>()
    readonly authCache = {
      get: (key: string) => this.authEntries.get(key),
      set: (key: string, value: string) => this.cacheAuth(key, value),
    }
    /** Keeps credentials cached by one user of the session and hands them to every other utility process. */
    cacheAuth(key: string, value: string, from?: StandInUtilityProcess): void {
      this.authEntries.set(key, value)
      for (const user of this.users) if (user !== from) user.shareAuth(key, value)
    }
    constructor(
      readonly partition: string,
      cache: boolean,
    ) {
      super()
      this.recorded = { partition, cache, proxyConfigs: [], verifyProc: false }
      record.sessions.push(this.recorded)
    }
    requestHandler: PermissionRequestHandler | null = null
    checkHandler: PermissionCheckHandler | null = null
    setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
      this.requestHandler = handler
    }
    setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
      this.checkHandler = handler
    }
    async setProxy(config: StandInProxyConfig): Promise<void> {
      this.proxyConfig = { ...config }
      this.recorded.proxyConfigs.push({ ...config })
      await Promise.all([...this.users].map((user) => user.applyProxy(this.proxyConfig)))
    }
    async resolveProxy(url: string): Promise<string> {
      return pacString(routeFor(this.proxyConfig, new URL(url)))
    }
    setCertificateVerifyProc(proc: StandInSession['verifyProc']): void {
      this.verifyProc = proc
      this.recorded.verifyProc = proc !== null
    }
    async closeAllConnections(): Promise<void> {}
  }
  /**
   * The session's verify proc asked as Electron's network service asks it after Chromium's own verification
   * (tls-verify.ts cites the source), its answer recorded; -3 (Chromium's verdict) when it has none, or when the
   * process has no session of its own (the system network context has no verify proc).
   */
  const verifyInSession = (
    ses: StandInSession | undefined,
    request: StandInVerifyRequest,
  ): Promise<number> => {
    const proc = ses?.verifyProc ?? null
    if (proc === null) return Promise.resolve(-3)
    return new Promise<number>((resolve) => {
      let answered = false
      proc(request, (result) => {
        if (answered) return
        answered = true
        record.certificateChecks.push({
          partition: ses?.partition ?? '',
          hostname: request.hostname,
          errorCode: request.errorCode,
          answer: result,
        })
        resolve(result)
      })
    })
  }
  const sessions = new Map<string, StandInSession>()
  /**
   * docs/api/session.md, `session.fromPartition(partition[, options])`: the existing session for the partition
   * (its options as first made: "There is no way to change the options of an existing Session object"), else a
   * new one with `options` (`cache` true unless given).
   */
  const fromPartition = (partition: string, options: { cache?: boolean } = {}): StandInSession => {
    let found = sessions.get(partition)
    if (found === undefined) {
      found = new StandInSession(partition, options.cache !== false)
      sessions.set(partition, found)
    }
    return found
  }
  const defaultSession = fromPartition('')
  const utilityProcesses: StandInUtilityProcess[] = []

  interface ForkOptions {
    serviceName?: string
    execArgv?: string[]
    session?: StandInSession
    partition?: string
    respondToAuthRequestsFromMainProcess?: boolean
  }

  /**
   * Electron's utilityProcess over a Node fork: the same module, structured-clone messages both ways (a Buffer
   * arrives as a Uint8Array, postMessage below), the child serving through `process.parentPort` with no
   * 'disconnect' event (utility-boot.ts), and the same events, with Electron's exit codes (electronExitCode).
   * Electron ends its utility processes with the app; a forked child ends when its channel closes. The
   * child gets Electron's utility `net` (utility-boot.ts), whose requests use this process's session, as
   * `session`/`partition` say (docs/api/utility-process.md; a `session` wins over a `partition`). A 401/407
   * challenge is routed as shell/browser/login_handler.cc routes it: with respondToAuthRequestsFromMainProcess,
   * to this object's 'login' event when it has a session, else to app's 'login'; the challenge is cancelled when
   * no listener prevented the default and none answered during the event. Without the flag it stays in the child.
   */
  class StandInUtilityProcess extends EventEmitter {
    readonly #child: ChildProcess
    readonly #link: Writable | undefined
    readonly #session: StandInSession | undefined
    readonly #authFromMain: boolean
    #killed = false
    #nextConfig = 1
    readonly #applying = new Map<number, () => void>()
    readonly stdout = null
    readonly stderr: NodeJS.ReadableStream | null
    constructor(modulePath: string, args: string[], options: ForkOptions) {
      super()
      this.#session =
        options.session ?? (options.partition === undefined ? undefined : fromPartition(options.partition))
      this.#authFromMain = options.respondToAuthRequestsFromMainProcess === true
      this.#child = fork(modulePath, args, {
        execPath: NODE_PATH,
        execArgv: ['--require', join(__dirname, 'utility-boot.js'), ...(options.execArgv ?? [])],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'],
        env: {
          ...process.env,
          STANDIN_AUTH_FROM_MAIN: this.#authFromMain ? '1' : '0',
          STANDIN_PROXY_CONFIG: JSON.stringify(this.#session?.proxyConfig ?? {}),
          STANDIN_AUTH_CACHE: JSON.stringify([...(this.#session?.authEntries ?? [])]),
          STANDIN_ONLINE: online ? '1' : '0',
        },
      })
      this.stderr = this.#child.stderr
      this.#link = this.#child.stdio[LINK_FD] as Writable | undefined
      onLines(this.#child.stdio[LINK_FD] as Readable, (message) => this.#fromChild(message as FromUtility))
      // A killed child resets the link (ECONNRESET): the stand-in's own pipe, nothing Electron would report.
      ;(this.#child.stdio[LINK_FD] as Readable | null)?.on('error', () => undefined)
      record.utilityProcesses.push({
        modulePath,
        serviceName: options.serviceName,
        pid: this.#child.pid,
        session: this.#session?.partition,
        respondToAuthRequestsFromMainProcess: this.#authFromMain,
      })
      this.#session?.users.add(this)
      utilityProcesses.push(this)
      crashpad.created(`utility:${this.#child.pid}`)
      const name = options.serviceName ?? 'Node Utility Process'
      this.#child.on('spawn', () => this.emit('spawn'))
      this.#child.on('message', (message: unknown) => this.emit('message', message))
      this.#child.on('exit', (code, signal) => {
        this.#session?.users.delete(this)
        for (const applied of this.#applying.values()) applied()
        this.#applying.clear()
        // An end main did not ask for (kill()) is a child process gone: App::BrowserChildProcessCrashedOrKilled
        // (shell/browser/api/electron_api_app.cc) emits `child-process-gone` on app with the type, Chromium's
        // reason and exit code, the service's metrics name and the display name the fork gave (serviceName;
        // UtilityProcessWrapper's WithDisplayName, electron_api_utility_process.cc).
        const gone = this.#killed ? undefined : goneDetails(code, signal)
        if (gone !== undefined) {
          this.#dumped(signal)
          app.emit('child-process-gone', electronEvent(), {
            type: 'Utility',
            ...gone,
            serviceName: 'node.mojom.NodeService',
            name,
          })
        }
        this.emit('exit', electronExitCode(code, signal, this.#killed))
      })
    }
    get pid(): number | undefined {
      return this.#child.pid
    }
    #dumped(signal: NodeJS.Signals | null): void {
      const dump = crashpad.ended(`utility:${this.#child.pid}`, signal)
      if (dump !== undefined) record.crashDumps.push(dump)
    }
    /**
     * electron_api_utility_process.cc, PostMessage: the value goes through electron::SerializeV8Value
     * (shell/common/v8_util.cc), V8's structured clone with no Node Buffer of its own, so a Buffer arrives as a
     * plain Uint8Array, as structuredClone makes it (Node's 'advanced' IPC alone would keep it a Buffer).
     */
    postMessage(message: unknown): void {
      this.#child.send(structuredClone(message) as never)
    }
    /** UtilityProcessWrapper::Kill: SIGTERM; false (and nothing sent) before the process has a pid. */
    kill(): boolean {
      if (this.#child.pid === undefined) return false
      const sent = this.#child.kill()
      this.#killed ||= sent
      return sent
    }
    /** Sends the session's new proxy configuration; settles when the child applied it (or is gone). */
    applyProxy(config: StandInProxyConfig): Promise<void> {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) return Promise.resolve()
      const id = this.#nextConfig++
      return new Promise((resolve) => {
        this.#applying.set(id, resolve)
        this.#send({ type: 'proxy-config', id, config })
      })
    }
    setOnline(value: boolean): void {
      this.#send({ type: 'online', value })
    }
    /** Credentials another user of the session cached. */
    shareAuth(key: string, value: string): void {
      this.#send({ type: 'auth-cache', key, value })
    }
    /** A challenge as login_handler.cc delivers it; resolves with how it was answered. */
    challenge(details: unknown, authInfo: AuthInfo): Promise<readonly [string, string] | null> {
      return new Promise((resolve) => {
        const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) }
        let answered = false
        const callback = (username?: unknown, password?: unknown): void => {
          if (answered) return
          answered = true
          const given = typeof username === 'string' && typeof password === 'string'
          record.logins.push({
            authInfo,
            answer: given ? 'credentials' : 'cancelled',
            ...(given ? { username } : {}),
          })
          resolve(given ? [username, password] : null)
        }
        if (this.#session !== undefined) this.emit('login', event, details, authInfo, callback)
        else app.emit('login', event, null, details, authInfo, callback)
        if (!event.defaultPrevented && !answered) callback()
      })
    }
    #fromChild(message: FromUtility): void {
      if (message.type === 'proxy-config-applied') {
        this.#applying.get(message.id)?.()
        this.#applying.delete(message.id)
      } else if (message.type === 'net-request') {
        const { method, url, route } = message
        record.netRequests.push({ method, url, route, partition: this.#session?.partition })
      } else if (message.type === 'verify-certificate') {
        void verifyInSession(this.#session, message.request).then((result) =>
          this.#send({ type: 'verify-answer', id: message.id, result }),
        )
      } else if (message.type === 'auth-cached') {
        this.#session?.cacheAuth(message.key, message.value, this)
      } else if (this.#authFromMain) {
        void this.challenge(message.details, message.authInfo).then((credentials) =>
          this.#send({ type: 'login-answer', id: message.id, credentials }),
        )
      }
    }
    #send(message: ToUtility): void {
      this.#link?.write(`${JSON.stringify(message)}\n`)
    }
  }

  /**
   * Electron's autoUpdater; its events are kept in `appEvents` as "autoUpdater <name>", in order with the app's.
   * On Windows electron-updater only emits 'before-quit-for-update' on it (BaseUpdater.js quitAndInstall). On macOS
   * it is Squirrel.Mac, which electron-updater's MacUpdater feeds from a local server: modelled on Electron's
   * shell/browser/auto_updater_mac.mm and shell/browser/api/electron_api_auto_updater.cc, as `squirrel` says.
   */
  class StandInAutoUpdater extends EventEmitter {
    #feed: { url: string; headers: Record<string, string> } | undefined
    /** auto_updater_mac.mm's g_update_available: Squirrel downloaded an update it can install. */
    #downloaded = false
    /** quitAndInstall waits for every window to close (WindowList observer, OnWindowAllClosed). */
    #installWhenAllClosed = false
    override emit(name: string | symbol, ...args: unknown[]): boolean {
      if (typeof name === 'string') record.appEvents.push(`autoUpdater ${name}`)
      return super.emit(name, ...args)
    }
    /** SetFeedURL: the URL and the request headers Squirrel asks it with (MacUpdater's Basic authorization). */
    setFeedURL(options: { url: string; headers?: Record<string, string> }): void {
      this.#feed = { url: options.url, headers: { ...options.headers } }
    }
    getFeedURL(): string {
      return this.#feed?.url ?? ''
    }
    /**
     * CheckForUpdates: 'checking-for-update'; the feed asked with its headers (a JSON `{ url }`, or 204 for
     * none: 'update-not-available'); 'update-available' while Squirrel downloads the zip; then 'update-downloaded'
     * (event, releaseNotes, releaseName, releaseDate, updateURL) once Squirrel has it and accepted its signature,
     * or 'error' (an Error) when anything fails, the signature included (`squirrel.refuseDownload`).
     */
    checkForUpdates(): void {
      void this.#check()
    }
    async #check(): Promise<void> {
      this.emit('checking-for-update', electronEvent())
      try {
        const feed = this.#feed
        if (feed === undefined) throw new Error('Update check failed. The API returned an invalid response.')
        const answer = await fetch(feed.url, { headers: feed.headers })
        if (answer.status === 204) {
          this.#downloaded = false
          this.emit('update-not-available', electronEvent())
          return
        }
        const { url } = (await answer.json()) as { url: string }
        this.emit('update-available', electronEvent())
        await squirrel.downloading
        const zip = await fetch(url)
        if (!zip.ok) throw new Error(`Update download failed: ${zip.status}`)
        await zip.arrayBuffer()
        if (squirrel.refuseDownload !== undefined) throw new Error(squirrel.refuseDownload)
        this.#downloaded = true
        squirrel.fetched += 1
        this.emit('update-downloaded', electronEvent(), '', '', new Date(), url)
      } catch (error) {
        this.emit('error', error instanceof Error ? error : new Error(String(error)))
      }
    }
    /**
     * electron_api_auto_updater.cc QuitAndInstall: 'before-quit-for-update', then every window closed, then
     * Squirrel's relaunch (auto_updater_mac.mm QuitAndInstall): with nothing downloaded, 'error' "No update
     * available, can't quit and install"; else as `squirrel.relaunch` says: the app terminated (its quit), an
     * 'error', or nothing yet.
     */
    quitAndInstall(): void {
      this.emit('before-quit-for-update', electronEvent())
      const open = StandInWindow.getAllWindows()
      if (open.length === 0) return this.#relaunch()
      this.#installWhenAllClosed = true
      for (const window of open) window.close()
    }
    /** The last window closed (Browser::OnWindowAllClosed). */
    allWindowsClosed(): void {
      if (!this.#installWhenAllClosed) return
      this.#installWhenAllClosed = false
      this.#relaunch()
    }
    #relaunch(): void {
      if (!this.#downloaded) {
        this.emit('error', new Error("No update available, can't quit and install"))
        return
      }
      const relaunch = squirrel.relaunch
      if (relaunch === 'quit') setImmediate(() => app.quit())
      else if (relaunch !== 'never') setImmediate(() => this.emit('error', new Error(relaunch.error)))
    }
  }
  const autoUpdater = new StandInAutoUpdater()
  const module: Record<string, unknown> = {
    app,
    utilityProcess: {
      fork: (modulePath: string, args: string[] = [], options: ForkOptions = {}) =>
        new StandInUtilityProcess(modulePath, args, options),
    },
    BrowserWindow: StandInWindow,
    crashReporter: {
      ...crashpad.module,
      start: (options?: { submitURL?: string; uploadToServer?: boolean }) => {
        crashpad.module.start(options)
        if (crashpad.started !== undefined) record.crashReporterStarts.push({ ...crashpad.started })
      },
    },
    session: { defaultSession, fromPartition },
    webContents: { getAllWebContents: () => allWindows.map((w) => w.webContents) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: Array<{ scheme: string }>) =>
        record.privilegedSchemes.push(...schemes.map((s) => s.scheme)),
      handle: (scheme: string) => record.handledProtocols.push(scheme),
    },
    net: {
      fetch: (input: string, init?: RequestInit) => fetch(input, init),
      request: (options: MainRequestOptions | string) => mainRequest(options),
      isOnline: () => online,
    },
    /**
     * Electron's autoUpdater (Squirrel.Mac, Squirrel.Windows) as an EventEmitter: electron-updater's BaseUpdater
     * emits 'before-quit-for-update' on it before it quits to install (BaseUpdater.js quitAndInstall); nothing
     * here installs anything.
     */
    autoUpdater,
    ipcMain: {
      handle: (channel: string, handler: Handler) => {
        record.handlers.set(channel, (record.handlers.get(channel) ?? 0) + 1)
        handlers.set(channel, handler)
      },
      removeHandler: (channel: string) => {
        handlers.delete(channel)
        const count = record.handlers.get(channel) ?? 0
        if (count <= 1) record.handlers.delete(channel)
        else record.handlers.set(channel, count - 1)
      },
      on: (channel: string) => record.ipcListeners.push(channel),
      removeAllListeners: (channel: string) => {
        const index = record.ipcListeners.indexOf(channel)
        if (index !== -1) record.ipcListeners.splice(index, 1)
      },
    },
    dialog: {
      showErrorBox: (title: string, message: string) => record.errorBoxes.push({ title, message }),
      showMessageBox: (...args: unknown[]) => messageBox(args),
      showSaveDialog: async () =>
        savePath === undefined ? { canceled: true, filePath: '' } : { canceled: false, filePath: savePath },
      showOpenDialog: async () =>
        openPath === undefined
          ? { canceled: true, filePaths: [] }
          : { canceled: false, filePaths: [openPath] },
    },
    shell: {
      openExternal: async (url: string) => {
        record.openedExternal.push(url)
        for (const listener of externalListeners) listener(url)
      },
      openPath: async (path: string) => {
        record.openedPaths.push(path)
        return ''
      },
      showItemInFolder: (path: string) => record.shownItems.push(path),
    },
    safeStorage: standInSafeStorage(config, () => ready),
    clipboard: createStandInClipboard(record),
    ClipboardItem: StandInClipboardItem,
    Menu: {
      buildFromTemplate: (template: MenuTemplateItem[]) => ({ template }),
      setApplicationMenu: (menu: { template: MenuTemplateItem[] } | null) => {
        menuTemplate = menu?.template ?? []
        record.menus.push(snapshotMenu(menuTemplate))
      },
    },
    screen: {
      getAllDisplays: () => [{ id: 1, bounds: fullHd, workArea: fullHd, scaleFactor: 1 }],
      getPrimaryDisplay: () => ({ id: 1, bounds: fullHd, workArea: fullHd, scaleFactor: 1 }),
      getDisplayMatching: () => ({ id: 1, bounds: fullHd, workArea: fullHd, scaleFactor: 1 }),
    },
  }

  /**
   * Main's `net.request` (electron 45.4.1, lib/browser/api/net.ts: "net module can only be used after app is
   * ready"; the ClientRequest of lib/common/api/net-client-request.ts): the URL from `url`, or from `protocol`,
   * `host` or `hostname` and `port`, and `path` as parseOptions assembles them; the request goes out in
   * `session` (or `partition`'s session, else the default one), under its proxy (proxy-rules.ts) and HTTP auth
   * cache. A 401/407 challenge is the request's own 'login' event (authInfo, callback); with no listener Electron
   * cancels it ("If there were no listeners, cancel the authentication request"). The rest behaves as the
   * utility `net` stand-in (utility-net.ts) says.
   */
  const mainRequest = (options: MainRequestOptions | string): StandInClientRequest => {
    if (!ready) throw new Error('net module can only be used after app is ready')
    const given = typeof options === 'string' ? { url: options } : options
    // A session is one this stand-in made (session.fromPartition): Electron refuses any other ("`session` should
    // be an instance of the Session class").
    const ses =
      (given.session as StandInSession | undefined) ??
      (given.partition === undefined ? defaultSession : fromPartition(given.partition))
    const host: UtilityNetHost = {
      proxyConfig: () => ses.proxyConfig,
      verifyCertificate: (request) => verifyInSession(ses, request),
      record: (entry) => record.netRequests.push({ ...entry, partition: ses.partition }),
      isOnline: () => online,
      login: (_details, authInfo) =>
        new Promise((resolve) => {
          let answered = false
          const callback = (username?: unknown, password?: unknown): void => {
            if (answered) return
            answered = true
            const credentials = typeof username === 'string' && typeof password === 'string'
            record.logins.push({
              authInfo,
              answer: credentials ? 'credentials' : 'cancelled',
              ...(credentials ? { username } : {}),
            })
            resolve(credentials ? [username, password] : undefined)
          }
          // Asked only once the request below exists: a challenge comes after it was sent.
          if (!request.emit('login', authInfo, callback)) callback()
        }),
    }
    const request = new StandInClientRequest(
      {
        url: requestUrl(given),
        ...(given.method === undefined ? {} : { method: given.method }),
        ...(given.redirect === undefined ? {} : { redirect: given.redirect }),
        ...(given.credentials === undefined ? {} : { credentials: given.credentials }),
        ...(given.headers === undefined ? {} : { headers: stringHeaders(given.headers) }),
      },
      host,
      ses.authCache,
    )
    return request
  }

  /** The asking frame's webContents (a window's, or a stand-in for a page main never made), session and URL. */
  const askingFrame = (frame: AskingFrame) => {
    const window = allWindows.find((w) => w.webContents.id === frame.webContentsId && !w.isDestroyed())
    const url = frame.frameUrl ?? window?.webContents.getURL() ?? ''
    const contents = window?.webContents ?? { id: frame.webContentsId, getURL: () => url }
    return { contents, session: window?.webContents.session ?? defaultSession, url }
  }
  /**
   * electron_permission_manager.cc, RequestPermissionsWithDetails: without a request handler every permission is
   * granted; with one, it is called with (webContents, permission, callback, details) where details carry
   * `requestingUrl` (the frame's last committed URL) and `isMainFrame`, and the page waits for the callback.
   */
  const requestPermission = (permission: string, frame: AskingFrame): Promise<boolean> => {
    const { contents, session, url } = askingFrame(frame)
    const handler = session.requestHandler
    const note = (granted: boolean, by: 'app' | 'no-handler'): boolean => {
      record.permissionAsks.push({
        kind: 'request',
        permission,
        webContentsId: contents.id,
        requestingUrl: url,
        isMainFrame: frame.isMainFrame,
        granted,
        handler: by,
      })
      return granted
    }
    if (handler === null) return Promise.resolve(note(true, 'no-handler'))
    return new Promise((resolve) =>
      handler(contents, permission, (granted) => resolve(note(granted === true, 'app')), {
        requestingUrl: url,
        isMainFrame: frame.isMainFrame,
      }),
    )
  }

  return {
    module,
    record,
    app,
    squirrel,
    async invoke(channel, args, sender) {
      const handler = handlers.get(channel)
      if (!handler) throw new Error(`stand-in: no handler for ${channel}`)
      const window = allWindows.find((w) => w.webContents.id === sender.webContentsId)
      const mainFrame = window?.webContents.mainFrame ?? { url: sender.frameUrl }
      const event = {
        sender: window?.webContents ?? { id: sender.webContentsId, mainFrame },
        senderFrame: sender.frameUrl === mainFrame.url ? mainFrame : { url: sender.frameUrl },
      }
      return handler(event, ...args)
    },
    clickMenu(path) {
      let items = menuTemplate
      let found: MenuTemplateItem | undefined
      for (const label of path) {
        found = items.find((item) => item.label === label)
        if (!found) throw new Error(`stand-in: no menu item ${path.join(' > ')}`)
        items = found.submenu ?? []
      }
      if (!found?.click) throw new Error(`stand-in: ${path.join(' > ')} has no click handler`)
      found.click()
    },
    menuSnapshot: () => snapshotMenu(menuTemplate),
    setSavePath(path) {
      savePath = path
    },
    answerMessageBoxes(answers) {
      messageBoxAnswers.push(...answers)
    },
    setOpenPath(path) {
      openPath = path
    },
    async verifyCertificate(partition, request) {
      const proc = sessions.get(partition)?.verifyProc
      if (proc === undefined || proc === null) return undefined
      return new Promise<number>((resolve) => proc(request, resolve))
    },
    setOnline(value) {
      online = value
      for (const child of utilityProcesses) child.setOnline(value)
    },
    async emitLogin(authInfo) {
      const child = utilityProcesses.at(-1)
      if (child === undefined) throw new Error('stand-in: no utility process to challenge')
      const details = {
        url: 'http://challenge.invalid/',
        pid: child.pid ?? 0,
        isRequestForNavigation: false,
        firstAuthAttempt: true,
      }
      return (await child.challenge(details, authInfo)) === null ? 'cancelled' : 'credentials'
    },
    selectClientCertificate(url, certificates) {
      return new Promise((resolve) => {
        let decided = false
        const wentOn = (chosen: string | null) => {
          decided = true
          record.clientCertificates.push({ url, chosen })
          resolve(chosen)
        }
        if (certificates.length === 0) return wentOn(null)
        const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) }
        const callback = (certificate?: { data?: unknown } | null): void => {
          if (decided) return
          if (certificate === undefined || certificate === null) return wentOn(null)
          const identity = certificates.find((offered) => offered.data === certificate.data)
          if (identity !== undefined) wentOn(identity.subjectName)
        }
        app.emit('select-client-certificate', event, null, url, [...certificates], callback)
        // Prevented and not yet answered: the handshake waits for the callback, as Chromium's does.
        if (!event.defaultPrevented && !decided) wentOn(certificates[0]!.subjectName)
      })
    },
    writeClipboard: (frame) => requestPermission('clipboard-sanitized-write', frame),
    requestPermission,
    checkPermission(permission, frame) {
      const { contents, session, url } = askingFrame(frame)
      const handler = session.checkHandler
      // No check handler: Electron answers true for all but deprecated-sync-clipboard-read.
      const granted =
        handler === null
          ? permission !== 'deprecated-sync-clipboard-read'
          : handler(contents, permission, originOf(url), {
              requestingUrl: url,
              isMainFrame: frame.isMainFrame,
              embeddingOrigin: originOf(contents.getURL()),
            }) === true
      record.permissionAsks.push({
        kind: 'check',
        permission,
        webContentsId: contents.id,
        requestingUrl: url,
        isMainFrame: frame.isMainFrame,
        granted,
        handler: handler === null ? 'no-handler' : 'app',
      })
      return granted
    },
    secondInstance(argv, workingDirectory) {
      app.emit('second-instance', electronEvent(), [...argv], workingDirectory, null)
    },
    openUrl(url) {
      app.emit('open-url', electronEvent(), url)
    },
    closeWindow(id) {
      const window = allWindows.find((w) => w.webContents.id === id)
      if (window === undefined) throw new Error(`stand-in: no window ${id}`)
      window.close()
    },
    crashRenderer(id) {
      const window = allWindows.find((w) => w.webContents.id === id)
      if (window === undefined) throw new Error(`stand-in: no window ${id}`)
      const dump = crashpad.ended(`renderer:${id}`, 'SIGSEGV')
      if (dump !== undefined) record.crashDumps.push(dump)
      const details = goneDetails(null, 'SIGSEGV')
      setImmediate(() => {
        const event = electronEvent()
        window.webContents.emit('render-process-gone', event, details)
        app.emit('render-process-gone', event, window.webContents, details)
      })
    },
    onSend: (listener) => void sendListeners.push(listener),
    onOpenExternal: (listener) => void externalListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
  }
}

/** What main's `net.request` takes (docs/api/client-request.md, `new ClientRequest(options)`), as far as modelled. */
interface MainRequestOptions extends Partial<Omit<StandInRequestOptions, 'headers'>> {
  readonly session?: object
  readonly partition?: string
  readonly protocol?: string
  readonly host?: string
  readonly hostname?: string
  readonly port?: number | string
  readonly path?: string
  readonly headers?: Record<string, string | number | string[]>
}

/** parseOptions of lib/common/api/net-client-request.ts: `url`, or the URL its parts make (http://localhost/). */
function requestUrl(options: MainRequestOptions): string {
  if (options.url !== undefined) return options.url
  if (options.path !== undefined && / /.test(options.path))
    throw new TypeError('Request path contains unescaped characters')
  const protocol = options.protocol ?? 'http:'
  const authority =
    options.host ??
    `${options.hostname ?? 'localhost'}${options.port === undefined || options.port === '' ? '' : `:${options.port}`}`
  const path = new URL(options.path ?? '/', 'http://localhost')
  return `${protocol}//${authority}${path.pathname}${path.search}${path.hash}`
}

/** Header values as Chromium sends them: text (net-client-request.ts stringifies numbers with toString). */
function stringHeaders(headers: Record<string, string | number | string[]>): Record<string, string> {
  const text: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    text[name] = Array.isArray(value) ? value.join(', ') : String(value)
  return text
}

const fullHd = { x: 0, y: 0, width: 1920, height: 1080 }
/** Node itself, kept before boot.ts sets `process.execPath` to the app's: utility processes are Node forks. */
const NODE_PATH = process.execPath

/** The event Electron's Emit passes first (shell/common/gin_helper/event.cc): preventDefault, defaultPrevented. */
function electronEvent(): { defaultPrevented: boolean; preventDefault(): void } {
  const event = {
    defaultPrevented: false,
    preventDefault: () => {
      event.defaultPrevented = true
    },
  }
  return event
}

/**
 * The code a utility process's 'exit' reports (electron_api_utility_process.cc, HandleTermination): its exit code;
 * for one ended by a signal, the signal's number (Chromium reads it with waitpid); and 0 for one ended by
 * child.kill(), whose SIGTERM (or SIGKILL) Electron reports as a graceful end.
 */
function electronExitCode(code: number | null, signal: NodeJS.Signals | null, killed: boolean): number {
  if (code !== null) return code
  if (signal === null) return 0
  const number = osConstants.signals[signal]
  if (killed && (signal === 'SIGTERM' || signal === 'SIGKILL')) return 0
  return number
}

/** A URL's origin as Chromium's GURL spells it ("scheme://host/"), for the custom scheme too; '' if none. */
function originOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}/`
  } catch {
    return ''
  }
}

/** A Chromium switch of this process's command line: its value ('' when it has none), undefined when absent. */
function switchValue(name: string): string | undefined {
  for (const arg of process.argv.slice(1)) {
    if (arg === `--${name}`) return ''
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3)
  }
  return undefined
}

function snapshotMenu(items: MenuTemplateItem[]): MenuItemSnapshot[] {
  return items.map((item) => ({
    ...(item.label === undefined ? {} : { label: item.label }),
    ...(item.role === undefined ? {} : { role: item.role }),
    ...(item.type === undefined ? {} : { type: item.type }),
    ...(item.submenu === undefined ? {} : { submenu: snapshotMenu(item.submenu) }),
  }))
}
