import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater'
import type { Logger } from '../../core/log/logger'
import type { UpdateRestartResult, UpdateState } from '../../../shared/update-state'
import type { UpdateSetup } from './update-setup'

/** How often a running app checks again (the first check is at start). */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60_000

export interface UpdateControllerDeps {
  /** Whether updates run, on which channel and feed (update-setup.ts). */
  readonly setup: UpdateSetup
  /**
   * electron-updater's updater for this platform (NsisUpdater on Windows, MacUpdater on macOS, AppImageUpdater
   * on Linux), made only when the setup is on; its session already follows the app's network settings.
   */
  readonly updater: () => AppUpdater
  /** Why a restart must wait now (a sync, an export or a print running), or undefined when nothing runs. */
  readonly busy: () => Promise<string | undefined>
  /**
   * Main's quit path up to the exit, before the installer starts: nothing new begins (the core's scheduler stops
   * with it) and the core closes, so no sync that started after `busy` answered is ended by the installer.
   */
  readonly closeForRestart: () => Promise<void>
  /** Quits the app (Electron's `app.quit`): after a restart closed the core, when the installer did not start. */
  readonly quitApp: () => void
  /** Sends the state to the window (`updates:state`). */
  readonly emit: (state: UpdateState) => void
  readonly logger: Logger
  /** Called as each check starts (the updater's proxy sign-in counts its challenges per check). */
  readonly onCheckStarting?: () => void
  readonly now?: () => Date
  readonly intervalMs?: number
}

/**
 * The app's updater (issue 25, decision 044) over electron-updater: checks at start and every few hours, downloads
 * in the background (electron-updater verifies the sha512 the feed gives, and on Windows the publisher of a signed
 * build), keeps one state for the window's banner and Help → About, and restarts into an update only on the
 * clerk's click and only when no sync, export or print runs, after main closed the core (its quit path);
 * otherwise the update installs when the app quits (electron-updater's autoInstallOnAppQuit). A failed check or
 * download is a log line and a muted note. A release the feed stages (`stagingPercentage`) is offered only to the
 * share of machines whose random id in `<userData>/.updaterId` falls under it (AppUpdater.isStagingMatch: 0 means
 * nobody, absent means everybody), so "up to date" can mean "not offered yet".
 */
export class UpdateController {
  #state: UpdateState
  #updater: AppUpdater | undefined
  #checking: Promise<UpdateState> | undefined
  #timer: ReturnType<typeof setInterval> | undefined
  readonly #now: () => Date

  constructor(private readonly deps: UpdateControllerDeps) {
    this.#now = deps.now ?? (() => new Date())
    this.#state = deps.setup.on ? { status: 'idle' } : deps.setup.state
  }

  get state(): UpdateState {
    return this.#state
  }

  /** The first check now, then one every few hours; nothing when updates are off. */
  start(): void {
    if (!this.deps.setup.on || this.#timer !== undefined) return
    this.deps.logger.info(
      `Updates: on, channel ${this.deps.setup.channel}` +
        (this.deps.setup.feedUrl === undefined ? '' : ', feed set by policy'),
    )
    void this.check()
    this.#timer = setInterval(() => void this.check(), this.deps.intervalMs ?? UPDATE_CHECK_INTERVAL_MS)
    this.#timer.unref?.()
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
  }

  /**
   * Checks the feed now (Help → Check for updates…, the timer); a newer version downloads in the background.
   * Answers the state once the check is over. While a download runs or an update waits, nothing is asked again.
   */
  check(): Promise<UpdateState> {
    if (!this.deps.setup.on) return Promise.resolve(this.#state)
    if (this.#state.status === 'downloading' || this.#state.status === 'ready')
      return Promise.resolve(this.#state)
    this.#checking ??= this.#check().finally(() => (this.#checking = undefined))
    return this.#checking
  }

  /** "Restart to update": refused while something runs or nothing is ready; else quits and installs. */
  async restart(): Promise<UpdateRestartResult> {
    const state = this.#state
    if (state.status !== 'ready' || this.#updater === undefined) return { status: 'not-ready' }
    const reason = await this.deps.busy()
    if (reason !== undefined) {
      this.deps.logger.info(`Updates: the restart waits: ${reason}`)
      return { status: 'busy', reason }
    }
    this.deps.logger.info(`Updates: restarting to install RosterDesk ${state.version}`)
    this.stop()
    await this.deps.closeForRestart()
    // electron-updater quits only when its installer started; when it did not, it says so as its 'error', at once
    // (BaseUpdater.install). The core is closed either way, so the app quits then too.
    const notStarted = () => this.deps.quitApp()
    this.#updater.once('error', notStarted)
    // Silent, and started again once installed (NSIS); on macOS Squirrel.Mac installs and relaunches.
    this.#updater.quitAndInstall(true, true)
    this.#updater.off('error', notStarted)
    return { status: 'restarting' }
  }

  async #check(): Promise<UpdateState> {
    const updater = this.#ensureUpdater()
    this.deps.onCheckStarting?.()
    try {
      const result = await updater.checkForUpdates()
      // The download's failure arrives as the updater's 'error' event too: the promise is only kept quiet here.
      void result?.downloadPromise?.catch(() => undefined)
      if (result === null)
        this.#set({ status: 'disabled', reason: 'This copy of RosterDesk cannot update itself' })
    } catch (error) {
      this.#failed(error)
    }
    return this.#state
  }

  #ensureUpdater(): AppUpdater {
    if (this.#updater !== undefined) return this.#updater
    const setup = this.deps.setup
    if (!setup.on) throw new Error('The updater is off')
    const updater = this.deps.updater()
    const log = this.deps.logger
    updater.logger = {
      info: (message?: unknown) => log.info(`Updater: ${String(message)}`),
      warn: (message?: unknown) => log.warn(`Updater: ${String(message)}`),
      error: (message?: unknown) => log.warn(`Updater: ${String(message)}`),
    }
    updater.autoDownload = true
    updater.autoInstallOnAppQuit = true
    if (setup.feedUrl !== undefined) updater.setFeedURL({ provider: 'generic', url: setup.feedUrl })
    // Always set: GenericProvider reads `updater.channel || configuration.channel`, and a prerelease build's
    // app-update.yml names its tag (`channel: beta`, app-builder-lib's PublishManager), so leaving it unset would
    // keep a beta build moved back to stable on beta.yml. `latest` is electron-updater's stable channel
    // (Provider.getDefaultChannelName); beta.yml lists every release (generateUpdatesFilesForAllChannels).
    updater.channel = setup.channel === 'beta' ? 'beta' : 'latest'
    updater.allowPrerelease = setup.channel === 'beta'
    // After the channel, whose setter allows a downgrade (AppUpdater.js): never, since an older version may not
    // read what a newer one wrote; a beta build moved back to stable is offered the first stable release above it.
    updater.allowDowngrade = false
    updater.on('checking-for-update', () => this.#set({ status: 'checking' }))
    updater.on('update-not-available', () =>
      this.#set({ status: 'up-to-date', checkedAt: this.#now().toISOString() }),
    )
    updater.on('update-available', (info: UpdateInfo) =>
      this.#set({ status: 'downloading', version: info.version, percent: 0 }),
    )
    updater.on('download-progress', (progress: ProgressInfo) => {
      if (this.#state.status === 'downloading')
        this.#set({ ...this.#state, percent: Math.max(0, Math.min(100, progress.percent)) })
    })
    updater.on('update-downloaded', (info: UpdateInfo) => {
      log.info(`Updates: RosterDesk ${info.version} is downloaded and verified; it installs on restart`)
      this.#set({ status: 'ready', version: info.version })
    })
    updater.on('error', (error: Error) => this.#failed(error))
    this.#updater = updater
    return updater
  }

  #failed(error: unknown): void {
    // A download that is ready stays ready: a later check's failure changes nothing the clerk can use.
    if (this.#state.status === 'ready') return
    const note = updateFailureNote(error)
    this.deps.logger.warn(`Updates: ${note}`, error)
    this.#set({ status: 'failed', message: note, at: this.#now().toISOString() })
  }

  #set(state: UpdateState): void {
    this.#state = state
    this.deps.emit(state)
  }
}

/**
 * The muted note for a failed check or download, from electron-updater's error codes (builder-util-runtime's
 * newError) and Chromium's net errors; the whole error goes to the log.
 */
export function updateFailureNote(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  const status = (error as { statusCode?: unknown } | null)?.statusCode
  if (code === 'ERR_CHECKSUM_MISMATCH' || /sha512 checksum mismatch/i.test(message))
    return 'the download did not match its published checksum and was deleted'
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE')
    return 'the download is not signed by the publisher of RosterDesk and was deleted'
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND')
    return 'the update server has no release for this channel'
  if (typeof status === 'number') return `the update server answered ${status}`
  if (/net::ERR_PROXY|407/.test(message)) return 'the update check could not pass the proxy'
  if (/net::ERR_CERT/.test(message)) return 'the update server’s certificate is not trusted'
  if (/net::ERR_/.test(message)) return 'the update server could not be reached'
  return 'the update could not be checked'
}
