import type { Settings } from '../../../shared/settings-schema'
import type { Clock, Timers } from '../clock'
import type { Logger } from '../log/logger'

const HOUR_MS = 3_600_000

/** The sync on launch waits this long, so the window is up and showing the saved employees before it starts. */
export const LAUNCH_DELAY_MS = 5_000

/**
 * The longest single wait. Timers count only the time the computer is awake (libuv's monotonic clock), so a wait
 * of hours would fire hours late after a laptop slept; waking every few minutes to compare the wall clock keeps
 * "every 4 hours" true.
 */
export const MAX_WAIT_MS = 5 * 60_000

/**
 * When the next automatic sync is due: `everyHours` after `since` (the app's start, or the end of the last run in
 * this session, however it was started), or undefined when automatic syncs are off (0).
 */
export function nextAutoSyncAt(everyHours: number, since: number): number | undefined {
  return everyHours > 0 ? since + everyHours * HOUR_MS : undefined
}

export interface SyncSchedulerDeps {
  readonly clock: Pick<Clock, 'now'>
  readonly timers: Timers
  /** The current settings, read at every decision so a change applies at once. */
  readonly settings: () => Pick<Settings, 'syncOnLaunch' | 'syncEveryHours'>
  readonly signedIn: () => boolean
  /** Whether a run is under way, however it was started. */
  readonly running: () => boolean
  /** Starts a run exactly as the Sync button does; may reject (busy, not signed in, bad settings). */
  readonly begin: () => Promise<unknown>
  readonly logger: Logger
}

/**
 * Automatic syncs while the app is open: once on launch and every N hours, as the settings say (both off by
 * default). It never starts a run while one is going and skips while the clerk is signed out; a skipped or
 * finished run counts as the last one, so the next comes N hours later rather than at once. The run itself is
 * the ordinary one, so its progress and summary reach the window like any other.
 */
export class SyncScheduler {
  readonly #deps: SyncSchedulerDeps
  #started = false
  /** The moment the interval counts from. */
  #since = 0
  #cancelLaunch: (() => void) | undefined
  #cancelWait: (() => void) | undefined

  constructor(deps: SyncSchedulerDeps) {
    this.#deps = deps
  }

  start(): void {
    if (this.#started) return
    this.#started = true
    this.#since = this.#deps.clock.now()
    if (this.#deps.settings().syncOnLaunch) {
      this.#cancelLaunch = this.#deps.timers.after(LAUNCH_DELAY_MS, () => {
        this.#cancelLaunch = undefined
        this.#trigger('on launch')
      })
    }
    this.#arm()
  }

  /** The settings changed: the interval may be new, or off. */
  settingsChanged(): void {
    this.#arm()
  }

  /** A run ended (the clerk's or ours): the next automatic one is counted from now. */
  runEnded(): void {
    this.#since = this.#deps.clock.now()
    this.#arm()
  }

  stop(): void {
    this.#started = false
    this.#cancelLaunch?.()
    this.#cancelLaunch = undefined
    this.#cancelWait?.()
    this.#cancelWait = undefined
  }

  #arm(): void {
    this.#cancelWait?.()
    this.#cancelWait = undefined
    if (!this.#started) return
    const everyHours = this.#deps.settings().syncEveryHours
    const due = nextAutoSyncAt(everyHours, this.#since)
    if (due === undefined) return
    const wait = Math.min(Math.max(0, due - this.#deps.clock.now()), MAX_WAIT_MS)
    this.#cancelWait = this.#deps.timers.after(wait, () => {
      this.#cancelWait = undefined
      if (this.#deps.clock.now() >= due) {
        // Counted as run whether it starts or is skipped; a run that starts moves this again when it ends.
        this.#since = this.#deps.clock.now()
        this.#trigger(`every ${everyHours} ${everyHours === 1 ? 'hour' : 'hours'}`)
      }
      this.#arm()
    })
  }

  #trigger(reason: string): void {
    const { logger } = this.#deps
    if (!this.#deps.signedIn()) {
      logger.info(`Automatic sync (${reason}) skipped: not signed in`)
      return
    }
    if (this.#deps.running()) {
      logger.info(`Automatic sync (${reason}) skipped: a sync is already running`)
      return
    }
    logger.info(`Automatic sync (${reason}): starting`)
    this.#deps
      .begin()
      .catch((error: unknown) => logger.warn(`Automatic sync (${reason}) could not start`, error))
  }
}
