import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { APP_ORIGIN } from '../../src/main/shell/window-and-startup/window-security'
import { ensureBuiltBundles, MAIN_BUNDLE } from '../helpers/built-bundles'
import { standInBoot } from './stand-in-build'
import type { ChildMessage, FinalRecord, IpcSender, ParentMessage } from './stand-in/protocol'
import type {
  AskingFrame,
  MessageBoxAnswer,
  MenuItemSnapshot,
  RecordedWindow,
  StandInRecord,
} from './stand-in/electron-stand-in'
import type { AuthInfo } from './stand-in/utility-net'

const ROOT = resolve(__dirname, '../..')

/** The stand-in's record as the child sends it: maps as plain objects, the menu without its click handlers. */
export type ShellSnapshot = Omit<StandInRecord, 'handlers' | 'menus' | 'exitCode'> & {
  readonly handlers: Record<string, number>
  readonly menu: MenuItemSnapshot[]
}

export interface MainProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** What the stand-in's app.exit()/quit() reported, the code Electron would exit with. */
  readonly appExitCode: () => number | undefined
  /** The stand-in's record as it stood at app.exit()/quit(). */
  readonly finalRecord: () => FinalRecord | undefined
  readonly stderr: () => string
  snapshot(): Promise<ShellSnapshot>
  /** Invokes a contract channel as the app's own window does. */
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  invokeFrom(sender: IpcSender, channel: string, ...args: unknown[]): Promise<unknown>
  appEvent(name: string, ...args: unknown[]): Promise<void>
  clickMenu(...path: string[]): Promise<void>
  setSavePath(path: string | undefined): Promise<void>
  /** What the next native open dialog answers (undefined: cancelled). */
  setOpenPath(path: string | undefined): Promise<void>
  /** How the next native message boxes are answered, in order (then each by its default button). */
  answerMessageBoxes(...answers: MessageBoxAnswer[]): Promise<void>
  /** Calls a session's verify proc (by partition) with Electron's request shape: the number it answered. */
  verifyCertificate(partition: string, request: unknown): Promise<number | null>
  /** What `net.isOnline()` answers in the utility processes. */
  setOnline(online: boolean): Promise<void>
  /** A 401/407 challenge on the newest utility process, as Electron delivers it: how main answered it. */
  emitLogin(authInfo: AuthInfo): Promise<'credentials' | 'cancelled'>
  /** A TLS server asks for a client certificate from `certificates`: the subject name of the one sent, or null. */
  selectClientCertificate(
    url: string,
    certificates: ReadonlyArray<{ readonly data: string; readonly subjectName: string }>,
  ): Promise<string | null>
  quit(): Promise<void>
  /** The page writes to the clipboard outside a copy event: the permission Electron asks main for, and main's answer. */
  writeClipboard(frame: AskingFrame): Promise<boolean>
  requestPermission(permission: string, frame: AskingFrame): Promise<boolean>
  checkPermission(permission: string, frame: AskingFrame): Promise<boolean>
  /** Another RosterDesk started with `argv`, as Electron tells the running one. */
  secondInstance(argv: readonly string[], workingDirectory?: string): Promise<void>
  /** macOS hands the app a URL of its scheme. */
  openUrl(url: string): Promise<void>
  /** The clerk closes the window `id`. */
  closeWindow(id: number): Promise<void>
  /** The window `id`'s renderer crashes (process.crash()), as Electron reports it (stand-in/crash-reporter.ts). */
  crashRenderer(id: number): Promise<void>
  /** The next event the shell sends to the window that satisfies `match` (including ones already sent). */
  waitForEvent(channel: string, match?: (payload: unknown) => boolean, timeoutMs?: number): Promise<unknown>
  /** The next URL the shell hands to shell.openExternal. */
  nextOpenExternal(timeoutMs?: number): Promise<string>
  /** Resolves when the window exists and has loaded the app. */
  windowReady(timeoutMs?: number): Promise<RecordedWindow>
  kill(): void
}

export interface MainProcessOptions {
  readonly userData: string
  readonly packaged?: boolean
  readonly env?: Record<string, string>
  /** The command line after the executable, as Electron would be started with it (Chromium's switches). */
  readonly args?: readonly string[]
  /** The OS the shell is told it runs on (`process.platform` in the bundle); the real one by default. */
  readonly platform?: NodeJS.Platform
  /** `process.execPath` in the bundle. */
  readonly execPath?: string
  /** The executable Windows resolves the sign-in scheme to before the app registers anything (e.g. HKLM's). */
  readonly registeredHandlerPath?: string
  /** The OS's regional formats (`app.getSystemLocale()`); en-US by default. */
  readonly systemLocale?: string
  /** Linux's safeStorage backend (StandInConfig.safeStorageBackend); gnome_libsecret by default. */
  readonly safeStorageBackend?: 'gnome_libsecret' | 'kwallet5' | 'basic_text'
  /** The keychain safeStorage encrypts with (StandInConfig.keychain); another refuses what the first wrote. */
  readonly keychain?: string
  /** What `app.getVersion()` answers; 0.1.0-shell-test by default. */
  readonly version?: string
  /** Electron's `process.resourcesPath` (where a packaged app's app-update.yml is); the project's resources/. */
  readonly resourcesPath?: string
}

/** Starts the built main bundle in a child process against the recording Electron stand-in. */
/**
 * Kills each process and resolves once it and the core processes it started have exited: a process still
 * writing into its data folder would recreate the folder after the test removed it, so folders go only after.
 */
export async function killAndWait(processes: readonly MainProcess[]): Promise<void> {
  const cores = await Promise.all(
    processes.map((main) =>
      main.snapshot().then(
        (snapshot) => snapshot.utilityProcesses.flatMap((core) => (core.pid === undefined ? [] : [core.pid])),
        // Already exited: so have its core processes, told by the closed channel.
        () => [],
      ),
    ),
  )
  for (const main of processes) main.kill()
  await Promise.all(processes.map((main) => main.exited))
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  const deadline = Date.now() + 10_000
  while (cores.flat().some(alive) && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 20))
}

export function startMainProcess(options: MainProcessOptions): MainProcess {
  // Plain Node, no tsx: the bundle resolves its modules as it will in the app (stand-in-build.ts).
  const child: ChildProcess = fork(standInBoot(), [...(options.args ?? [])], {
    cwd: ROOT,
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: {
      ...process.env,
      ROSTERDESK_SHELL_BUNDLE: MAIN_BUNDLE,
      STANDIN_USER_DATA: options.userData,
      STANDIN_PACKAGED: options.packaged === false ? '0' : '1',
      STANDIN_APP_PATH: ROOT,
      ...(options.platform === undefined ? {} : { STANDIN_PLATFORM: options.platform }),
      ...(options.execPath === undefined ? {} : { STANDIN_EXEC_PATH: options.execPath }),
      ...(options.registeredHandlerPath === undefined
        ? {}
        : { STANDIN_REGISTERED_HANDLER: options.registeredHandlerPath }),
      ...(options.systemLocale === undefined ? {} : { STANDIN_SYSTEM_LOCALE: options.systemLocale }),
      ...(options.version === undefined ? {} : { STANDIN_APP_VERSION: options.version }),
      ...(options.safeStorageBackend === undefined
        ? {}
        : { STANDIN_SAFE_STORAGE_BACKEND: options.safeStorageBackend }),
      ...(options.keychain === undefined ? {} : { STANDIN_KEYCHAIN: options.keychain }),
      ...(options.resourcesPath === undefined ? {} : { STANDIN_RESOURCES_PATH: options.resourcesPath }),
      ...options.env,
    },
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.on('exit', (code, signal) => resolveExit({ code, signal })),
  )
  // A hung child must never outlive its test file.
  const killTimer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000)
  killTimer.unref()
  void exited.then(() => clearTimeout(killTimer))

  let nextId = 1
  let appExitCode: number | undefined
  let finalRecord: FinalRecord | undefined
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  const events: Array<{ channel: string; payload: unknown }> = []
  const externals: string[] = []
  const waiters = new Set<() => void>()
  const wake = (): void => {
    for (const waiter of [...waiters]) waiter()
  }

  child.on('message', (message: ChildMessage) => {
    switch (message.type) {
      case 'reply': {
        const entry = pending.get(message.id)
        pending.delete(message.id)
        if (message.ok) entry?.resolve(message.value)
        else entry?.reject(new Error(message.error))
        break
      }
      case 'event':
        events.push({ channel: message.channel, payload: message.payload })
        break
      case 'open-external':
        externals.push(message.url)
        break
      case 'exit':
        appExitCode = message.code
        finalRecord = message.final
        break
      case 'booting':
        break
    }
    wake()
  })
  void exited.then(() => {
    for (const entry of pending.values()) entry.reject(new Error(`main process exited; stderr:\n${stderr}`))
    pending.clear()
    wake()
  })

  type Command = ParentMessage extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never
  const request = (command: Command): Promise<unknown> =>
    new Promise((resolveRequest, reject) => {
      if (!child.connected) return reject(new Error(`main process is gone; stderr:\n${stderr}`))
      const id = nextId++
      pending.set(id, { resolve: resolveRequest, reject })
      child.send({ ...command, id } as ParentMessage)
    })

  const waitUntil = <T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> =>
    new Promise((resolveWait, reject) => {
      const check = (): void => {
        const value = probe()
        if (value !== undefined) {
          cleanup()
          resolveWait(value)
        } else if (child.exitCode !== null || child.signalCode !== null) {
          cleanup()
          reject(new Error(`main process exited while waiting for ${what}; stderr:\n${stderr}`))
        }
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`timed out waiting for ${what}; stderr:\n${stderr}`))
      }, timeoutMs)
      const cleanup = (): void => {
        clearTimeout(timer)
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })

  const snapshot = (): Promise<ShellSnapshot> => request({ type: 'snapshot' }) as Promise<ShellSnapshot>
  let appWindow: RecordedWindow | undefined

  const handle: MainProcess = {
    exited,
    appExitCode: () => appExitCode,
    finalRecord: () => finalRecord,
    stderr: () => stderr,
    snapshot,
    async invoke(channel, ...args) {
      const window = appWindow ?? (await handle.windowReady())
      return handle.invokeFrom(
        { webContentsId: window.id, frameUrl: `${APP_ORIGIN}/index.html` },
        channel,
        ...args,
      )
    },
    invokeFrom: (sender, channel, ...args) => request({ type: 'invoke', channel, args, sender }),
    appEvent: async (name, ...args) => void (await request({ type: 'app-event', name, args })),
    clickMenu: async (...path) => void (await request({ type: 'menu-click', path })),
    setSavePath: async (path) => void (await request({ type: 'set-save-path', path })),
    setOpenPath: async (path) => void (await request({ type: 'set-open-path', path })),
    answerMessageBoxes: async (...answers) => void (await request({ type: 'answer-message-boxes', answers })),
    verifyCertificate: async (partition, certificateRequest) =>
      (await request({ type: 'verify-certificate', partition, request: certificateRequest })) as
        number | null,
    setOnline: async (online) => void (await request({ type: 'set-online', online })),
    emitLogin: async (authInfo) =>
      (await request({ type: 'emit-login', authInfo })) as 'credentials' | 'cancelled',
    selectClientCertificate: async (url, certificates) =>
      (await request({ type: 'select-client-certificate', url, certificates })) as string | null,
    quit: async () => void (await request({ type: 'quit' })),
    writeClipboard: async (frame) => (await request({ type: 'write-clipboard', frame })) as boolean,
    requestPermission: async (permission, frame) =>
      (await request({ type: 'request-permission', permission, frame })) as boolean,
    checkPermission: async (permission, frame) =>
      (await request({ type: 'check-permission', permission, frame })) as boolean,
    secondInstance: async (argv, workingDirectory = ROOT) =>
      void (await request({ type: 'second-instance', argv: [...argv], workingDirectory })),
    openUrl: async (url) => void (await request({ type: 'open-url', url })),
    closeWindow: async (id) => void (await request({ type: 'close-window', windowId: id })),
    crashRenderer: async (id) => void (await request({ type: 'crash-renderer', windowId: id })),
    waitForEvent: (channel, match = () => true, timeoutMs = 60_000) =>
      waitUntil(
        () => events.find((event) => event.channel === channel && match(event.payload))?.payload,
        `event ${channel}`,
        timeoutMs,
      ),
    nextOpenExternal: (timeoutMs = 30_000) => {
      const seen = externals.length
      return waitUntil(() => externals[seen], 'shell.openExternal', timeoutMs)
    },
    async windowReady(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const state = await snapshot()
        const window = state.windows.find((w) => w.loadedUrls.length > 0)
        if (window) {
          appWindow = window
          return window
        }
        if (Date.now() > deadline) throw new Error(`no app window after ${timeoutMs} ms; stderr:\n${stderr}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    },
    kill: () => void child.kill('SIGKILL'),
  }
  return handle
}

/** A test file's main processes and their data folders: started, killed after each test, removed at the end. */
export interface MainProcesses {
  /** Starts a main process (killed after the test that started it). */
  start(options: MainProcessOptions): MainProcess
  /** A new empty folder to be a user-data folder (removed with its `-development` sibling after the file). */
  freshDir(prefix: string): string
}

/**
 * The set-up every shell test file that starts main processes shares: the built bundles first, each test's
 * processes killed after it, the folders removed after the file. Call at the top of the file.
 */
export function useMainProcesses(): MainProcesses {
  const dirs: string[] = []
  const running: MainProcess[] = []
  beforeAll(async () => {
    await ensureBuiltBundles()
  }, 180_000)
  afterEach(async () => {
    await killAndWait(running.splice(0))
  })
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  return {
    start(options) {
      const main = startMainProcess(options)
      running.push(main)
      return main
    },
    freshDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), `rosterdesk-shell-${prefix}-`))
      dirs.push(dir, `${dir}-development`)
      return dir
    },
  }
}
