import { fork, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'

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
  /** Every utilityProcess.fork: the module, its service name, and its pid while it runs. */
  readonly utilityProcesses: Array<{
    modulePath: string
    serviceName: string | undefined
    pid: number | undefined
  }>
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
    readonly commandLine = { appendSwitch: () => undefined, hasSwitch: () => false }
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

  const defaultSession = {
    webRequest: { onHeadersReceived: () => undefined, onBeforeRequest: () => undefined },
    setPermissionRequestHandler: () => undefined,
    setPermissionCheckHandler: () => undefined,
    on: () => undefined,
  }

  /**
   * Electron's utilityProcess over a Node fork: the same module, structured-clone messages both ways (the child
   * sees no `process.parentPort`, so core-host/process/process-channel.ts uses the fork's channel), and the same
   * events. Electron ends its utility processes with the app; a forked child ends when its channel closes.
   */
  class StandInUtilityProcess extends EventEmitter {
    readonly #child: ChildProcess
    readonly stdout = null
    readonly stderr: NodeJS.ReadableStream | null
    constructor(modulePath: string, args: string[], options: { serviceName?: string; execArgv?: string[] }) {
      super()
      this.#child = fork(modulePath, args, {
        execArgv: options.execArgv ?? [],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      })
      this.stderr = this.#child.stderr
      record.utilityProcesses.push({ modulePath, serviceName: options.serviceName, pid: this.#child.pid })
      this.#child.on('spawn', () => this.emit('spawn'))
      this.#child.on('message', (message: unknown) => this.emit('message', message))
      this.#child.on('exit', (code, signal) => this.emit('exit', code ?? (signal ? 1 : 0)))
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
  }

  const module: Record<string, unknown> = {
    app,
    utilityProcess: {
      fork: (
        modulePath: string,
        args: string[] = [],
        options: { serviceName?: string; execArgv?: string[] } = {},
      ) => new StandInUtilityProcess(modulePath, args, options),
    },
    BrowserWindow: StandInWindow,
    session: { defaultSession, fromPartition: () => defaultSession },
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
    onSend: (listener) => void sendListeners.push(listener),
    onOpenExternal: (listener) => void externalListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
  }
}

const fullHd = { x: 0, y: 0, width: 1920, height: 1080 }

function snapshotMenu(items: MenuTemplateItem[]): MenuItemSnapshot[] {
  return items.map((item) => ({
    ...(item.label === undefined ? {} : { label: item.label }),
    ...(item.role === undefined ? {} : { role: item.role }),
    ...(item.type === undefined ? {} : { type: item.type }),
    ...(item.submenu === undefined ? {} : { submenu: snapshotMenu(item.submenu) }),
  }))
}
