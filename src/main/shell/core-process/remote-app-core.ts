import type { IpcResult } from '../../../shared/ipc-contract'
import type { SyncRunSummary } from '../../../shared/domain/sync'
import { interruptedSync } from './interrupted-sync'
import { isEventChannel } from '../../../shared/ipc-channels'
import { type SavedFileKind, savedFileKindSchema } from '../../../shared/domain/export'
import type { ShellFacts } from '../../core/diagnostics/diagnostics-parts'
import { CORE_PROCESS_LOG_LINES } from '../../core/diagnostics/diagnostics-logs'
import { cancelledError, RosterDeskError, toIpcError } from '../../core/errors'
import type { PagePrinter } from '../../core/export/print-view'
import type { ClipboardContent } from '../../core/export/copy-rows'
import type { EventSink } from '../../core/ipc/dispatch'
import { logFailure } from '../../core/log/log-failure'
import type { Logger } from '../../core/log/logger'
import {
  isMainSecretKey,
  isStoredSecretKey,
  type SecretVault,
  type StoredSecretKey,
} from '../../core/secrets/secret-store'
import { networkToApplyOf, type NetworkToApply } from '../../core/settings/network-settings'
import { WorkerHost, type CallHandlers, type JobChannelStarter } from '../../core-host/worker/worker-host'
import type {
  CoreNetworkFacts,
  CoreProcessConfig,
  CoreProcessJobs,
  CoreProcessReport,
  NetworkApplied,
  ShellCalls,
} from '../../core-host/process/core-process-jobs'

/** What the shell (Electron's main process) does for the core process: what only it has. */
export interface ShellServices {
  readonly secrets: SecretVault
  /** The system browser; given only the authorize URL the core composed. */
  openExternal(url: string): Promise<void>
  chooseExportPath(defaultPath: string, kind: SavedFileKind): Promise<string | undefined>
  revealFile(path: string): void
  /** What a diagnostics file says of this copy of the app (the install kind, the update state); absent: not known. */
  facts?(): ShellFacts
  readonly printPage?: PagePrinter
  /** Writes the system clipboard (Electron's `clipboard.write`): the table's Copy, text and HTML at once. */
  readonly writeClipboard?: (content: ClipboardContent) => Promise<void>
  /** The core process's own network session in main (the app); absent when it runs under plain Node. */
  readonly network?: ShellNetwork
}

/** What main does for the core process's network (shell/network/core-network.ts and proxy-sign-in.ts). */
export interface ShellNetwork {
  apply(settings: NetworkToApply): Promise<NetworkApplied>
  resolveProxy(url: string): Promise<string>
  facts(host: string): CoreNetworkFacts
  rememberedProxies(): Promise<string[]>
  forgetProxy(proxy: string): Promise<void>
  chooseCertificatesFile(): Promise<string | undefined>
}

export interface RemoteAppCoreOptions {
  /** How the core process is started (Electron's utilityProcess in the app, a forked Node process in tests). */
  readonly channel: JobChannelStarter
  readonly config: Omit<CoreProcessConfig, 'secretsPersistent' | 'offersPrint' | 'usesShellNetwork'>
  readonly shell: ShellServices
  /** Where the app's events go (the window). */
  readonly events: EventSink
  readonly logger: Logger
  /**
   * A core process that stopped unexpectedly was replaced and the new one serves: what the window showed may be
   * stale (a sync it reported running is gone), so the shell reloads it.
   */
  readonly onRestarted?: () => void
  /** It kept stopping and is not started again: the window reloads too, and every request then says why. */
  readonly onDown?: () => void
  /** How long the core process may take to report its app core up (CORE_START_TIMEOUT_MS). */
  readonly startTimeoutMs?: number
  /** Restarts allowed within `CORE_RESTART_WINDOW_MS` before RosterDesk stops trying; absent: CORE_MAX_RESTARTS. */
  readonly maxRestarts?: number
  readonly now?: () => number
  /** Main's log file: named in what the clerk reads when the core process stops (a sync ended, or no restart). */
  readonly logFile?: string
}

/**
 * How long starting the core process may take before RosterDesk gives up and says so: Electron reports nothing
 * for a utility process that never launches. Its app core is up in well under a second (bench/RESULTS.md).
 */
export const CORE_START_TIMEOUT_MS = 60_000

/** How long the core process may take to close (a sync or export winding down) before it is ended. */
export const CORE_CLOSE_GRACE_MS = 20_000
/**
 * At most this many restarts of a core process that stopped within `CORE_RESTART_WINDOW_MS`; the next stop is
 * final: every request then says why, naming the log.
 */
export const CORE_MAX_RESTARTS = 3
export const CORE_RESTART_WINDOW_MS = 60_000
/** Restarts in a row whose app core never came up before RosterDesk stops trying. */
const MAX_FAILED_RESTARTS = 2

/**
 * The app core as the shell sees it when it runs in a process of its own (ARCHITECTURE, "Runtimes and threads"): every request
 * is forwarded as an `invoke` job and answered there by the same handlers, events come back as the `serve` job's
 * reports, and the process's questions (secrets, browser, dialogs, printer) are answered here. It holds none of
 * the cache, the index or the builds, which is what keeps the main process small. A core process that stops
 * unexpectedly fails only the requests it had, and is started again (at most CORE_MAX_RESTARTS a minute); a sync
 * it was running ends for the window as failed, naming the log, and the process started after it does not sync
 * on launch, so a sync that crashes it is not run again into the same crash.
 */
export class RemoteAppCore {
  private readonly host: WorkerHost<CoreProcessJobs>
  private readonly logger: Logger
  private serving: AbortController | undefined
  /** The current `serve` job, settled when the core process has closed its app core (or stopped). */
  private served: Promise<unknown> = Promise.resolve()
  /** Set by `close` and `detach`: no request goes out and no core process is started any more. */
  private closed = false
  /** Why requests are refused: the core process could not start, or kept stopping and is not started again. */
  private down: RosterDeskError | undefined
  private readonly restarts: number[] = []
  /** The sync run the core process reported begun and not yet finished: its id and when main heard of it. */
  private syncing: { readonly runId: number; readonly startedAt: number } | undefined
  /**
   * A sync ended here because its process stopped: told to the window at once, and once more at its first
   * `sync:get-status` after the restart (the shell reloads it, and the reloaded page listens before it asks).
   */
  private interrupted: SyncRunSummary | undefined
  /** Restarts in a row whose app core never came up (one that does not answer takes a whole minute). */
  private failedRestarts = 0
  /**
   * While a stopped process is being ended and the next one's `serve` is not yet sent: requests wait for it, so
   * none starts a process of its own (the host would, for any job) that would only answer "still starting".
   */
  private replacing: Promise<void> | undefined

  /** Starts nothing: `start` does, so that a quit during the start can still `close` it. */
  constructor(private readonly options: RemoteAppCoreOptions) {
    this.logger = options.logger
    this.host = new WorkerHost<CoreProcessJobs>(options.channel, {
      name: 'core process',
      logger: options.logger,
      cancelGraceMs: CORE_CLOSE_GRACE_MS,
    })
  }

  /** A started RemoteAppCore (tests and benchmarks; the shell constructs first, see `start`). */
  static async start(options: RemoteAppCoreOptions): Promise<RemoteAppCore> {
    const remote = new RemoteAppCore(options)
    await remote.start()
    return remote
  }

  /**
   * Starts the core process; resolves once its app core is up, rejects with the reason it could not start (or
   * 'cancelled' when `close` came first), the process then ended. Requests sent meanwhile wait for the app core.
   */
  async start(): Promise<void> {
    try {
      await this.serve()
    } catch (error) {
      const failure = this.closed ? cancelledError() : asRosterDeskError(error)
      // Requests meanwhile get the reason rather than a process of their own.
      this.down ??= failure
      await this.host.stop(failure)
      throw failure
    }
    // Closed while its app core came up: close() ends the process; this start did not give a usable core.
    if (this.closed) throw cancelledError()
  }

  /** One renderer request (its sender already checked), answered by the core process's dispatchInvoke. */
  async invoke(channel: string, args: readonly unknown[]): Promise<IpcResult<unknown>> {
    if (this.replacing !== undefined) await this.replacing
    // Once closing, nothing goes out: the core is winding down, and the host would start a process for any job.
    if (this.closed) return { ok: false, error: toIpcError(closingError()) }
    if (this.down !== undefined) return { ok: false, error: toIpcError(this.down) }
    if (channel === 'sync:get-status' && this.interrupted !== undefined)
      this.options.events.emit('sync:finished', this.interrupted)
    if (channel === 'sync:get-status' || channel === 'sync:start') this.interrupted = undefined
    try {
      return await this.host.run('invoke', { channel, args: [...args] })
    } catch (error) {
      logFailure(this.logger, `IPC: ${channel} failed in the core process`, error)
      return { ok: false, error: toIpcError(error) }
    }
  }

  /** A deep link the shell received (a custom-scheme sign-in callback). */
  async handleCallbackUrl(url: string): Promise<boolean> {
    if (this.replacing !== undefined) await this.replacing
    if (this.closed || this.down !== undefined) return false
    try {
      return await this.host.run('callback-url', url)
    } catch (error) {
      logFailure(this.logger, 'A sign-in callback could not be handled', error)
      return false
    }
  }

  /**
   * Closes the app core as a quit does in one process (a sync or an export stops and cleans up), then ends the
   * process; the host ends it anyway after CORE_CLOSE_GRACE_MS. Also while it is still starting.
   */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.serving?.abort()
    await this.served.catch(() => undefined)
    await this.host.stop()
  }

  /**
   * The app is ending without a quit the shell could wait for (Windows ending the session): Electron ends the
   * process, which must not read as a crash to restart. Nothing goes out any more.
   */
  detach(): void {
    this.closed = true
  }

  /** Serves a core process; `replacesStopped` for one started after another stopped (no sync on launch). */
  private serve(replacesStopped = false): Promise<void> {
    const controller = new AbortController()
    this.serving = controller
    let ready = false
    return new Promise<void>((resolve, reject) => {
      // A process that never launches reports nothing at all (Electron emits neither spawn nor exit): give up.
      const giveUp = () => {
        if (ready) return
        reject(
          new RosterDeskError(
            'internal',
            'RosterDesk’s data engine did not start. Start RosterDesk again; if it keeps happening, send the log to support.',
            { detail: `core process: no answer within ${this.startTimeoutMs / 1000} s of starting` },
          ),
        )
      }
      let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(giveUp, this.startTimeoutMs)
      const onReport = (report: CoreProcessReport) => {
        if (report.type === 'ready') {
          ready = true
          clearTimeout(timer)
          resolve()
          return
        }
        // Moving the caches across volumes can take minutes (decision 046): not counted; the rest of the start is.
        if (report.type === 'moving-caches') {
          clearTimeout(timer)
          timer = undefined
          this.logger.info('The data engine is moving the saved employees to this computer’s own folder')
          return
        }
        if (report.type === 'caches-settled') {
          clearTimeout(timer)
          timer = setTimeout(giveUp, this.startTimeoutMs)
          return
        }
        if (report.type === 'sync-started') {
          this.syncing = { runId: report.runId, startedAt: this.now() }
          return
        }
        if (
          report.channel === 'sync:finished' &&
          (report.payload as { id?: unknown }).id === this.syncing?.runId
        )
          this.syncing = undefined
        // Made by the core's own typed EventSink; checked anyway, as the preload checks what reaches the page.
        if (isEventChannel(report.channel)) this.options.events.emit(report.channel, report.payload as never)
      }
      this.served = this.host.run(
        'serve',
        { ...this.config(), ...(replacesStopped ? { replacesStopped } : {}) },
        {
          signal: controller.signal,
          onProgress: onReport,
          calls: shellCallHandlers(this.options.shell),
        },
      )
      this.served.then(
        () => {
          clearTimeout(timer)
          if (!ready) reject(new RosterDeskError('internal', 'RosterDesk could not start its data engine.'))
        },
        (error: unknown) => {
          clearTimeout(timer)
          if (!ready) reject(error)
          else if (!this.closed && this.serving === controller) this.stopped(error)
        },
      )
    })
  }

  private now(): number {
    return (this.options.now ?? Date.now)()
  }

  /** Where the log is, for the clerk to send: its path, or the menu item that opens its folder. */
  private get logPlace(): string {
    return this.options.logFile ?? 'Help → Open log folder'
  }

  /** The sync the stopped process was running ends for the window as failed: it never will on its own. */
  private endInterruptedSync(): void {
    const run = this.syncing
    if (run === undefined) return
    this.syncing = undefined
    this.interrupted = interruptedSync(run, this.now(), this.logPlace)
    this.logger.error(`Sync run ${run.runId} ended: the core process stopped during it`)
    this.options.events.emit('sync:finished', this.interrupted)
  }

  private get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? CORE_START_TIMEOUT_MS
  }

  /** The core process stopped while serving: its requests have failed; start a fresh one unless it keeps dying. */
  private stopped(error: unknown): void {
    this.logger.error(CORE_PROCESS_LOG_LINES.stopped, error)
    this.endInterruptedSync()
    const now = this.now()
    while (this.restarts.length > 0 && now - (this.restarts[0] ?? now) > CORE_RESTART_WINDOW_MS)
      this.restarts.shift()
    if (
      this.restarts.length >= (this.options.maxRestarts ?? CORE_MAX_RESTARTS) ||
      this.failedRestarts >= MAX_FAILED_RESTARTS
    ) {
      this.giveUp()
      return
    }
    this.restarts.push(now)
    const restarting = new RosterDeskError(
      'internal',
      'RosterDesk’s data engine stopped and is starting again. Try again in a moment.',
      { detail: 'core process: a request was waiting on a process that stopped' },
    )
    // A process whose app core failed to start is still alive: end it before a fresh one is started.
    let sent: () => void = () => undefined
    this.replacing = new Promise<void>((resolve) => (sent = resolve))
    const serving = this.host.stop(restarting).then(() => {
      if (this.closed) return
      const next = this.serve(true)
      this.replacing = undefined
      sent()
      return next
    })
    serving.then(
      () => {
        this.replacing = undefined
        sent()
        if (this.closed) return
        this.failedRestarts = 0
        this.logger.info(CORE_PROCESS_LOG_LINES.restarted)
        this.options.onRestarted?.()
      },
      (failure: unknown) => {
        this.replacing = undefined
        sent()
        if (this.closed) return
        this.failedRestarts++
        this.stopped(failure)
      },
    )
  }

  /** Stops starting core processes: every request says why from now on, and the window is told by a reload. */
  private giveUp(): void {
    this.down = new RosterDeskError(
      'internal',
      `RosterDesk’s data engine keeps stopping. Quit and start RosterDesk again; if it keeps happening, send the log to support: ${this.logPlace}`,
      {
        detail: `core process: restarted ${this.restarts.length} times within ${CORE_RESTART_WINDOW_MS / 1000} s, ${this.failedRestarts} restarts in a row never came up`,
      },
    )
    this.logger.error(CORE_PROCESS_LOG_LINES.gaveUp)
    void this.host.stop(this.down)
    this.options.onDown?.()
  }

  private config(): CoreProcessConfig {
    return {
      ...this.options.config,
      secretsPersistent: this.options.shell.secrets.persistent,
      offersPrint: this.options.shell.printPage !== undefined,
      usesShellNetwork: this.options.shell.network !== undefined,
    }
  }
}

/**
 * How the shell answers the core process's calls. The core process is RosterDesk's own code, yet what it asks
 * is checked here as any IPC argument is: only known secret names, and only web addresses for the browser.
 */
export function shellCallHandlers(shell: ShellServices): CallHandlers<ShellCalls> {
  return {
    'secret-get': async (key) => ({ value: await shell.secrets.get(secretKey(key)) }),
    'secret-set': async ({ key, value }) => {
      if (typeof value !== 'string') throw new TypeError('core process: a secret must be text')
      await shell.secrets.set(secretKey(key), value)
      return { value: null }
    },
    'secret-delete': async (key) => {
      await shell.secrets.delete(secretKey(key))
      return { value: null }
    },
    'open-external': async (url) => {
      // The core only ever opens the authorize URL it composed; anything but a web address is refused here too.
      if (!isWebUrl(url)) throw new TypeError('core process: refused to open a non-web address')
      await shell.openExternal(url)
      return { value: null }
    },
    'choose-export-path': async ({ defaultPath, format }) => {
      const chosen = savedFileKindSchema.safeParse(format)
      if (typeof defaultPath !== 'string' || !chosen.success)
        throw new TypeError('core process: a save dialog needs a path and a file kind')
      return { value: await shell.chooseExportPath(defaultPath, chosen.data) }
    },
    'reveal-file': async (path) => {
      if (typeof path !== 'string' || path === '') throw new TypeError('core process: no file to show')
      shell.revealFile(path)
      return { value: null }
    },
    'shell-facts': async () => ({
      value: shell.facts?.() ?? { installKind: 'not known here', updateState: 'not known here' },
    }),
    'print-page': async ({ html, title }) => {
      if (shell.printPage === undefined) throw new TypeError('core process: this shell cannot print')
      if (typeof html !== 'string' || typeof title !== 'string')
        throw new TypeError('core process: a page to print is its HTML and title')
      return { value: await shell.printPage({ html, title }) }
    },
    'clipboard-write': async (content) => {
      const { text, html } = (content ?? {}) as Partial<ClipboardContent>
      if (shell.writeClipboard === undefined) throw new TypeError('core process: this shell has no clipboard')
      if (typeof text !== 'string' || typeof html !== 'string')
        throw new TypeError('core process: a copy is its text and its HTML')
      await shell.writeClipboard({ text, html })
      return { value: null }
    },
    ...networkCallHandlers(shell.network),
  }
}

/** The network calls: each argument checked as any IPC argument is; refused when this shell has no session. */
function networkCallHandlers(network: ShellNetwork | undefined): Pick<CallHandlers<ShellCalls>, NetworkCall> {
  const session = (): ShellNetwork => {
    if (network === undefined) throw new TypeError('core process: this shell has no network session')
    return network
  }
  const text = (value: unknown, what: string): string => {
    if (typeof value !== 'string' || value === '' || value.length > 2000)
      throw new TypeError(`core process: ${what} must be text`)
    return value
  }
  return {
    'network-apply': async (settings) => ({ value: await session().apply(networkToApplyOf(settings)) }),
    'network-resolve-proxy': async (url) => {
      if (!isWebUrl(url)) throw new TypeError('core process: a proxy is resolved for a web address only')
      return { value: await session().resolveProxy(url) }
    },
    'network-facts': async (host) => ({ value: session().facts(text(host, 'a host')) }),
    'network-remembered-proxies': async () => ({ value: await session().rememberedProxies() }),
    'network-forget-proxy': async (proxy) => {
      await session().forgetProxy(text(proxy, 'a proxy'))
      return { value: null }
    },
    'network-choose-certificates': async () => ({ value: await session().chooseCertificatesFile() }),
  }
}

type NetworkCall = Extract<keyof ShellCalls, `network-${string}`>

function asRosterDeskError(error: unknown): RosterDeskError {
  if (error instanceof RosterDeskError) return error
  return new RosterDeskError('internal', 'RosterDesk could not start its data engine.', {
    detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
    cause: error,
  })
}

function closingError(): RosterDeskError {
  return new RosterDeskError('busy', 'RosterDesk is closing.')
}

function secretKey(key: StoredSecretKey): StoredSecretKey {
  if (typeof key !== 'string' || !isStoredSecretKey(key))
    throw new TypeError('core process: unknown secret name')
  // Main's own secrets (remembered proxy sign-ins) are never the core process's to read or change.
  if (isMainSecretKey(key)) throw new TypeError('core process: that secret is main’s alone')
  return key
}

function isWebUrl(url: string): boolean {
  if (typeof url !== 'string' || !URL.canParse(url)) return false
  const { protocol } = new URL(url)
  return protocol === 'https:' || protocol === 'http:'
}
