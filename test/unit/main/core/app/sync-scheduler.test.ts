import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  LAUNCH_DELAY_MS,
  MAX_WAIT_MS,
  SyncScheduler,
  nextAutoSyncAt,
} from '../../../../../src/main/core/app/sync-scheduler'
import { systemClock, systemTimers } from '../../../../../src/main/core/clock'
import { createLogger } from '../../../../../src/main/core/log/logger'
import { DEFAULT_SETTINGS } from '../../../../../src/main/core/settings/settings-defaults'

const HOUR = 3_600_000
const START = Date.UTC(2026, 10, 23, 8, 0, 0)

/**
 * The scheduler on the system's own clock and timers, with vitest's fake timers behind both: time moves only when
 * the test moves it. The app around it is played by a few variables: the settings, whether the clerk is signed
 * in, and a run that lasts until the test ends it (as SyncService's onFinished would report).
 */
function setup(settings: { syncOnLaunch?: boolean; syncEveryHours?: number } = {}) {
  const state = {
    settings: { ...DEFAULT_SETTINGS, ...settings },
    signedIn: true,
    running: false,
    refuse: undefined as Error | undefined,
  }
  const begun: number[] = []
  const logs: string[] = []
  const scheduler = new SyncScheduler({
    clock: systemClock,
    timers: systemTimers,
    settings: () => state.settings,
    signedIn: () => state.signedIn,
    running: () => state.running,
    begin: async () => {
      if (state.refuse) throw state.refuse
      begun.push(Date.now() - START)
      state.running = true
    },
    logger: createLogger((level, line) => logs.push(`${level} ${line}`)),
  })
  /** The run under way ends (complete or not); the scheduler hears of it as from SyncService.onFinished. */
  const finishRun = (): void => {
    state.running = false
    scheduler.runEnded()
  }
  const changeSettings = (patch: { syncOnLaunch?: boolean; syncEveryHours?: number }): void => {
    state.settings = { ...state.settings, ...patch }
    scheduler.settingsChanged()
  }
  return { state, begun, logs, scheduler, finishRun, changeSettings }
}

/** Lets the scheduler's `begin().catch` and similar continuations run after timers fired. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms)
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(START)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('nextAutoSyncAt', () => {
  it('is N hours after the last run (or the start), and never when automatic syncs are off', () => {
    expect(nextAutoSyncAt(4, START)).toBe(START + 4 * HOUR)
    expect(nextAutoSyncAt(1, START)).toBe(START + HOUR)
    expect(nextAutoSyncAt(0, START)).toBeUndefined()
  })
})

describe('SyncScheduler', () => {
  it('does nothing with the default settings: no sync on launch, no interval, not even a timer', async () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ syncOnLaunch: false, syncEveryHours: 0 })
    const { scheduler, begun } = setup()
    scheduler.start()
    expect(vi.getTimerCount()).toBe(0)
    await advance(3 * 24 * HOUR)
    expect(begun).toEqual([])
  })

  it('syncs once on launch, a few seconds after the start, when the setting is on', async () => {
    const { scheduler, begun, logs, finishRun } = setup({ syncOnLaunch: true })
    scheduler.start()
    await advance(LAUNCH_DELAY_MS - 1)
    expect(begun).toEqual([])
    await advance(1)
    expect(begun).toEqual([LAUNCH_DELAY_MS])
    expect(logs).toContain('info Automatic sync (on launch): starting')
    finishRun()
    await advance(48 * HOUR)
    expect(begun).toHaveLength(1)
  })

  it('skips the launch sync while signed out', async () => {
    const { scheduler, state, begun, logs } = setup({ syncOnLaunch: true })
    state.signedIn = false
    scheduler.start()
    await advance(LAUNCH_DELAY_MS)
    expect(begun).toEqual([])
    expect(logs).toContain('info Automatic sync (on launch) skipped: not signed in')
  })

  it('syncs every N hours, counted from the end of the last run however it was started', async () => {
    const { scheduler, begun, logs, finishRun } = setup({ syncEveryHours: 4 })
    scheduler.start()
    await advance(4 * HOUR - 1)
    expect(begun).toEqual([])
    await advance(1)
    expect(begun).toEqual([4 * HOUR])
    expect(logs).toContain('info Automatic sync (every 4 hours): starting')
    // The run takes ten minutes; the next is due four hours after it ended.
    await advance(10 * 60_000)
    finishRun()
    // The clerk syncs by hand an hour later: that run moves the schedule too.
    await advance(HOUR)
    finishRun()
    const manualEnd = 4 * HOUR + 10 * 60_000 + HOUR
    await advance(4 * HOUR - 1)
    expect(begun).toHaveLength(1)
    await advance(1)
    expect(begun).toEqual([4 * HOUR, manualEnd + 4 * HOUR])
  })

  it('never starts a run while one is going, and counts the skipped one as the last', async () => {
    const { scheduler, state, begun, logs, finishRun } = setup({ syncEveryHours: 1 })
    scheduler.start()
    // The clerk's own sync is running when the hour comes round, and for two hours more.
    state.running = true
    await advance(HOUR)
    expect(begun).toEqual([])
    expect(logs).toContain('info Automatic sync (every 1 hour) skipped: a sync is already running')
    await advance(HOUR)
    expect(begun).toEqual([])
    await advance(30 * 60_000)
    finishRun()
    await advance(HOUR)
    expect(begun).toEqual([3.5 * HOUR])
  })

  it('skips while signed out and tries again N hours later', async () => {
    const { scheduler, state, begun, logs } = setup({ syncEveryHours: 2 })
    state.signedIn = false
    scheduler.start()
    await advance(2 * HOUR)
    expect(begun).toEqual([])
    expect(logs).toContain('info Automatic sync (every 2 hours) skipped: not signed in')
    state.signedIn = true
    await advance(2 * HOUR)
    expect(begun).toEqual([4 * HOUR])
  })

  it('keeps to the wall clock when the computer slept through the due time', async () => {
    const { scheduler, begun } = setup({ syncEveryHours: 4 })
    scheduler.start()
    await advance(HOUR)
    // Asleep for five hours: the wall clock jumps, but no timer ran meanwhile (timers count awake time only).
    vi.setSystemTime(START + 6 * HOUR)
    expect(begun).toEqual([])
    await advance(MAX_WAIT_MS)
    expect(begun).toHaveLength(1)
    expect(begun[0]).toBeGreaterThanOrEqual(6 * HOUR)
    expect(begun[0]).toBeLessThanOrEqual(6 * HOUR + MAX_WAIT_MS)
  })

  it('follows the settings: an interval turned on starts counting, one turned off stops', async () => {
    const { scheduler, begun, changeSettings, finishRun } = setup()
    scheduler.start()
    await advance(HOUR)
    changeSettings({ syncEveryHours: 2 })
    // Counted from the start of the session, so the first comes two hours after launch.
    await advance(HOUR)
    expect(begun).toEqual([2 * HOUR])
    finishRun()
    changeSettings({ syncEveryHours: 0 })
    expect(vi.getTimerCount()).toBe(0)
    await advance(24 * HOUR)
    expect(begun).toHaveLength(1)
  })

  it('logs a run that cannot start and keeps the schedule', async () => {
    const { scheduler, state, begun, logs } = setup({ syncEveryHours: 1 })
    state.refuse = new Error('busy elsewhere')
    scheduler.start()
    await advance(HOUR)
    expect(logs.some((line) => line.startsWith('warn Automatic sync (every 1 hour) could not start'))).toBe(
      true,
    )
    state.refuse = undefined
    await advance(HOUR)
    expect(begun).toEqual([2 * HOUR])
  })

  it('stops for good: no launch sync and no interval after stop()', async () => {
    const { scheduler, begun } = setup({ syncOnLaunch: true, syncEveryHours: 1 })
    scheduler.start()
    scheduler.stop()
    expect(vi.getTimerCount()).toBe(0)
    await advance(5 * HOUR)
    expect(begun).toEqual([])
  })
})
