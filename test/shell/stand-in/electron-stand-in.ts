import { fork, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { pacString, routeFor, type StandInProxyConfig } from './proxy-rules'
import { LINK_FD, onLines, type FromUtility, type ToUtility } from './utility-link'
import type { AuthInfo } from './utility-net'

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
  readonly messageBoxes: Array<{ title?: string; message: string; detail?: string }>
  readonly openedExternal: string[]
  readonly openedPaths: string[]
  readonly shownItems: string[]
  readonly protocolClients: string[]
  readonly privilegedSchemes: string[]
  readonly handledProtocols: string[]
  readonly appUserModelIds: string[]
  readonly menus: unknown[]
  /** Pages handed to webContents.print: the window's title and the file it had loaded, as read then. */
  readonly printed: Array<{ title: string; html: string }>
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
  /** Every session asked for (session.fromPartition), with each proxy configuration set and whether a verify proc is. */
  readonly sessions: Array<{ partition: string; proxyConfigs: StandInProxyConfig[]; verifyProc: boolean }>
  /** Every request a utility process's `net` sent: method, URL, and the route its session's proxy gave it. */
  readonly netRequests: Array<{ method: string; url: string; route: string; partition: string | undefined }>
  /**
   * Every 401/407 challenge of a utility process and main's answer ('credentials' with the user name given, or
   * 'cancelled'); never the password.
   */
  readonly logins: Array<{ authInfo: AuthInfo; answer: 'credentials' | 'cancelled'; username?: string }>
  lockRequested: boolean
  lockReleased: boolean
  exitCode: number | undefined
}

/** A menu item as recorded: the template minus its functions, plus a path to click it by. */
export interface MenuItemSnapshot {
  readonly label?: string
  readonly role?: string
  readonly type?: string
  readonly submenu?: MenuItemSnapshot[]
}

type Handler = (event: unknown, ...args: unknown[]) => unknown
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
  onSend(listener: (channel: string, payload: unknown) => void): void
  onOpenExternal(listener: (url: string) => void): void
  /** Runs before the process exits through app.quit()/app.exit(); the boot script flushes its messages there. */
  onExit(listener: (code: number) => void): void
}

export function createElectronStandIn(config: StandInConfig): ElectronStandIn {
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
    privilegedSchemes: [],
    handledProtocols: [],
    appUserModelIds: [],
    menus: [],
    utilityProcesses: [],
    sessions: [],
    netRequests: [],
    logins: [],
    printed: [],
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
  let online = true
  let menuTemplate: MenuTemplateItem[] = []
  let ready = false
  let exiting = false

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
    getPath(name: string): string {
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
    setAppUserModelId(id: string): void {
      record.appUserModelIds.push(id)
    }
    focus(): void {}
    quit(): void {
      // Electron's order: before-quit (preventable), will-quit (preventable), quit, then the process ends.
      const beforeQuit = {
        defaultPrevented: false,
        preventDefault: () => (beforeQuit.defaultPrevented = true),
      }
      this.emit('before-quit', beforeQuit)
      if (beforeQuit.defaultPrevented) return
      const willQuit = { defaultPrevented: false, preventDefault: () => (willQuit.defaultPrevented = true) }
      this.emit('will-quit', willQuit)
      if (willQuit.defaultPrevented) return
      this.emit('quit', {}, 0)
      exit(0)
    }
    exit(code = 0): void {
      exit(code)
    }
  }
  const app = new App()
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
      this.#destroyed = true
      this.webContents.destroyed = true
      this.emit('closed')
    }
    close(): void {
      const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) }
      this.emit('close', event)
      if (event.defaultPrevented) return
      this.#destroyed = true
      this.webContents.destroyed = true
      this.emit('closed')
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
    constructor(readonly partition: string) {
      super()
      this.recorded = { partition, proxyConfigs: [], verifyProc: false }
      record.sessions.push(this.recorded)
    }
    setPermissionRequestHandler(): void {}
    setPermissionCheckHandler(): void {}
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
  const sessions = new Map<string, StandInSession>()
  const fromPartition = (partition: string): StandInSession => {
    let found = sessions.get(partition)
    if (found === undefined) {
      found = new StandInSession(partition)
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
   * Electron's utilityProcess over a Node fork: the same module, structured-clone messages both ways (the child
   * sees no `process.parentPort`, so core-host/process/process-channel.ts uses the fork's channel), and the same
   * events. Electron ends its utility processes with the app; a forked child ends when its channel closes. The
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
        execArgv: ['--require', join(__dirname, 'utility-boot.js'), ...(options.execArgv ?? [])],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'],
        env: {
          ...process.env,
          STANDIN_AUTH_FROM_MAIN: this.#authFromMain ? '1' : '0',
          STANDIN_PROXY_CONFIG: JSON.stringify(this.#session?.proxyConfig ?? {}),
          STANDIN_ONLINE: online ? '1' : '0',
        },
      })
      this.stderr = this.#child.stderr
      this.#link = this.#child.stdio[LINK_FD] as Writable | undefined
      onLines(this.#child.stdio[LINK_FD] as Readable, (message) => this.#fromChild(message as FromUtility))
      record.utilityProcesses.push({
        modulePath,
        serviceName: options.serviceName,
        pid: this.#child.pid,
        session: this.#session?.partition,
        respondToAuthRequestsFromMainProcess: this.#authFromMain,
      })
      this.#session?.users.add(this)
      utilityProcesses.push(this)
      this.#child.on('spawn', () => this.emit('spawn'))
      this.#child.on('message', (message: unknown) => this.emit('message', message))
      this.#child.on('exit', (code, signal) => {
        this.#session?.users.delete(this)
        for (const applied of this.#applying.values()) applied()
        this.#applying.clear()
        this.emit('exit', code ?? (signal ? 1 : 0))
      })
    }
    get pid(): number | undefined {
      return this.#child.pid
    }
    postMessage(message: unknown): void {
      this.#child.send(message as never)
    }
    kill(): boolean {
      return this.#child.kill()
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

  const module: Record<string, unknown> = {
    app,
    utilityProcess: {
      fork: (modulePath: string, args: string[] = [], options: ForkOptions = {}) =>
        new StandInUtilityProcess(modulePath, args, options),
    },
    BrowserWindow: StandInWindow,
    session: { defaultSession, fromPartition },
    webContents: { getAllWebContents: () => allWindows.map((w) => w.webContents) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: Array<{ scheme: string }>) =>
        record.privilegedSchemes.push(...schemes.map((s) => s.scheme)),
      handle: (scheme: string) => record.handledProtocols.push(scheme),
    },
    net: { fetch: (input: string, init?: RequestInit) => fetch(input, init) },
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
      showMessageBox: async (...args: unknown[]) => {
        const options = args.at(-1) as { title?: string; message: string; detail?: string }
        record.messageBoxes.push({
          ...(options.title === undefined ? {} : { title: options.title }),
          message: options.message,
          ...(options.detail === undefined ? {} : { detail: options.detail }),
        })
        return { response: 0, checkboxChecked: false }
      },
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
    safeStorage: {
      isEncryptionAvailable: () => true,
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      // Reversible on purpose: the stand-in only proves the shell stores secrets through safeStorage.
      encryptStringAsync: async (text: string) => Buffer.from(`stand-in:${text}`, 'utf8'),
      decryptStringAsync: async (data: Buffer) => ({
        result: data.toString('utf8').replace(/^stand-in:/, ''),
        shouldReEncrypt: false,
      }),
    },
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

  return {
    module,
    record,
    app,
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
    onSend: (listener) => void sendListeners.push(listener),
    onOpenExternal: (listener) => void externalListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
  }
}

const fullHd = { x: 0, y: 0, width: 1920, height: 1080 }

/** A Chromium switch of this process's command line: its value ('' when it has none), undefined when absent. */
function switchValue(name: string): string | undefined {
  for (const arg of process.argv.slice(2)) {
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
