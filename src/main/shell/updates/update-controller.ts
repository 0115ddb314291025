import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater'
import type { Logger } from '../../core/log/logger'
import type { UpdateRestartResult, UpdateState } from '../../../shared/update-state'
import type { UpdateSetup } from './update-setup'
import { SIGNATURE_NOT_CHECKED } from './windows-signature'

/** How often a running app checks again (the first check is at start). */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60_000
/**
 * How long "Restart to update" waits, once the core is closed and the updater asked to install, for the app to
 * begin quitting; then the core is reopened and the window says why (Squirrel.Mac relaunches within seconds of
 * having the update; the NSIS installer is started at once).
 */
export const RESTART_INSTALL_BOUND_MS = 60_000

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
  /**
   * Main's way back from a restart that did not install (decision 050): the core started again and the window
   * shown, as before the click; resolves once done.
   */
  readonly reopenAfterFailedRestart: () => Promise<void>
  /** Calls `listener` once the app begins to quit (Electron's app 'before-quit'); answers how to stop listening. */
  readonly onQuit: (listener: () => void) => () => void
  /**
   * macOS only: Electron's own autoUpdater (Squirrel.Mac). electron-updater's MacUpdater emits 'update-downloaded'
   * once its download is verified and served to Squirrel from a local server, before Squirrel fetched it
   * (MacUpdater.updateDownloaded: dispatchUpdateDownloaded, then nativeUpdater.checkForUpdates); Electron's
   * autoUpdater emits its own 'update-downloaded' only when Squirrel has downloaded and checked the update
   * (shell/browser/auto_updater_mac.mm, CheckForUpdates: a SQRLDownloadedUpdate), and its quitAndInstall installs
   * only then. So an update is ready here only on that event.
   */
  readonly squirrel?: { on(event: 'update-downloaded', listener: () => void): unknown }
  /** How long a restart may take to begin quitting before the core is reopened (RESTART_INSTALL_BOUND_MS). */
  readonly restartBoundMs?: number
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
 * in the background (electron-updater verifies the sha512 the feed gives; the publisher's signature is checked on
 * Windows, windows-signature.ts, and by Squirrel.Mac on macOS), keeps one state for the window's banner and Help →
 * About, and restarts into an update only on the clerk's click and only when no sync, export or print runs, after
 * main closed the core (its quit path), reopening it if the install does not happen; otherwise the update installs
 * when the app quits (electron-updater's autoInstallOnAppQuit). A failed check or
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
    this.#schedule()
  }

  /** The check every few hours, once. */
  #schedule(): void {
    if (this.#timer !== undefined) return
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

  /**
   * "Restart to update": refused while something runs or nothing is ready; else closes the core and has the updater
   * quit and install. Until the app begins to quit, a failure of the install (the updater's 'error': NSIS's
   * installer not started, Squirrel.Mac refusing the update at relaunch) or no quit within the bound reopens the
   * core and says why (decision 050); a failure after the quit began changes nothing.
   */
  async restart(): Promise<UpdateRestartResult> {
    const state = this.#state
    const updater = this.#updater
    if (state.status !== 'ready' || updater === undefined) return { status: 'not-ready' }
    const reason = await this.deps.busy()
    if (reason !== undefined) {
      this.deps.logger.info(`Updates: the restart waits: ${reason}`)
      return { status: 'busy', reason }
    }
    this.deps.logger.info(`Updates: restarting to install RosterDesk ${state.version}`)
    this.stop()
    await this.deps.closeForRestart()
    let settled = false
    const settle = (why: string | undefined): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      updater.off('error', onError)
      stopListening()
      if (why !== undefined) void this.#restartFailed(state.version, why)
    }
    // Weighed a turn later: once its installer started, BaseUpdater.quitAndInstall quits in a setImmediate, and a
    // failure it reports before then (NsisUpdater.doInstall retrying through elevate.exe) ends in that quit anyway.
    const onError = (error: Error) => void setImmediate(() => settle(restartFailureNote(error)))
    const boundMs = this.deps.restartBoundMs ?? RESTART_INSTALL_BOUND_MS
    const timer = setTimeout(
      () => settle(`it did not begin installing within ${boundMs / 1000} seconds`),
      boundMs,
    )
    timer.unref?.()
    const stopListening = this.deps.onQuit(() => settle(undefined))
    updater.on('error', onError)
    // Silent, and started again once installed (NSIS); on macOS Squirrel.Mac installs and relaunches.
    updater.quitAndInstall(true, true)
    return { status: 'restarting' }
  }

  async #restartFailed(version: string, why: string): Promise<void> {
    this.deps.logger.warn(`Updates: the restart did not install RosterDesk ${version}: ${why}`)
    this.#set({
      status: 'failed',
      message: `RosterDesk ${version} was not installed: ${why}`.slice(0, 500),
      at: this.#now().toISOString(),
    })
    try {
      await this.deps.reopenAfterFailedRestart()
    } catch (error) {
      this.deps.logger.error('Updates: reopening after a failed restart failed', error)
    }
    this.#schedule()
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
    const ready = (version: string) => {
      log.info(`Updates: RosterDesk ${version} is downloaded and verified; it installs on restart`)
      this.#set({ status: 'ready', version })
    }
    let handedToSquirrel: string | undefined
    updater.on('update-downloaded', (info: UpdateInfo) => {
      if (this.deps.squirrel === undefined) return ready(info.version)
      log.info(`Updates: RosterDesk ${info.version} is downloaded and verified; Squirrel.Mac fetches it`)
      handedToSquirrel = info.version
      if (this.#state.status === 'downloading') this.#set({ ...this.#state, percent: 100 })
    })
    this.deps.squirrel?.on('update-downloaded', () => {
      if (handedToSquirrel !== undefined) ready(handedToSquirrel)
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

/** Why a restart did not install, from the updater's error (its message, as Squirrel.Mac or NSIS put it). */
export function restartFailureNote(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).trim().replace(/\s+/g, ' ')
  if (/No update filepath provided|Cannot run installer|ENOENT|EACCES/.test(message))
    return 'its installer did not start'
  if (/No update available/.test(message)) return 'the update was not ready to install'
  if (/signature|code ?sign/i.test(message))
    return `macOS refused the update’s signature (${message.slice(0, 200)})`
  return message === '' ? 'the updater gave no reason' : message.slice(0, 300)
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
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE' && message.includes(SIGNATURE_NOT_CHECKED))
    return 'the download’s signature could not be checked, so it was deleted'
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE')
    return 'the download is not signed by the publisher of RosterDesk and was deleted'
  // Squirrel.Mac's refusal of a download whose code signature does not satisfy the running app's requirement.
  if (/code ?signature|did not pass validation/i.test(message))
    return 'macOS refused the update’s signature, so it was not installed'
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND')
    return 'the update server has no release for this channel'
  if (typeof status === 'number') return `the update server answered ${status}`
  if (/net::ERR_PROXY|407/.test(message)) return 'the update check could not pass the proxy'
  if (/net::ERR_CERT/.test(message)) return 'the update server’s certificate is not trusted'
  if (/net::ERR_/.test(message)) return 'the update server could not be reached'
  return 'the update could not be checked'
}
