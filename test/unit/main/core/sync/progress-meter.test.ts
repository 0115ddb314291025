import { describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import type { SyncProgress } from '../../../../../src/shared/domain/sync'
import {
  ETA_MIN_MEASURED_MS,
  PROGRESS_INTERVAL_MS,
  ProgressMeter,
} from '../../../../../src/main/core/sync/progress-meter'
import { fakeClock } from '../../../../helpers/sync-fakes'

/** `count` rows whose own payCycleId is `cycle` (none when undefined). */
function rows(count: number, cycle?: string): EmployeeRow[] {
  return Array.from({ length: count }, (_, i) => ({
    UUID: `u-${cycle ?? 'none'}-${i}`,
    ...(cycle === undefined ? {} : { payCycleId: cycle }),
  }))
}

function meter(tracked: readonly string[] = []) {
  const time = fakeClock()
  const events: SyncProgress[] = []
  const progress = new ProgressMeter(7, time.clock, tracked, (event) => events.push(event))
  return { progress, events, time, last: () => events.at(-1)! }
}

describe('ProgressMeter', () => {
  it('puts the main list and every tracked pay-cycle list on one scale, estimated until each is sized', () => {
    const { progress, last, time } = meter(['A', 'B'])
    progress.passStarted(undefined, 1, 1_000)
    expect(last()).toMatchObject({ phase: 'listing', rows: 0, rowsTotal: 1_000, fraction: 0 })
    // Half the list: 40% of its rows name A and 20% B, so A and B are guessed at 400 and 200 rows.
    time.advance(PROGRESS_INTERVAL_MS)
    progress.pageArrived(undefined, [...rows(200, 'A'), ...rows(100, 'B'), ...rows(200, 'C')], 500)
    expect(last().fraction).toBeCloseTo(500 / 1_600)
    time.advance(PROGRESS_INTERVAL_MS)
    progress.pageArrived(undefined, [...rows(200, 'A'), ...rows(100, 'B'), ...rows(200, 'C')], 1_000)
    expect(last()).toMatchObject({ rows: 1_000, rowsTotal: 1_000 })
    expect(last().fraction).toBeCloseTo(1_000 / 1_600)

    // The bar goes on where the main list left it, instead of starting again for each pay cycle.
    progress.startPayCycle()
    expect(last()).toMatchObject({ phase: 'pay-cycles', rows: 1_000 })
    expect(last().fraction).toBeCloseTo(1_000 / 1_600)
    progress.passStarted('A', 1, 400)
    progress.pageArrived('A', rows(400, 'A'))
    expect(last().fraction).toBeCloseTo(1_400 / 1_600)
    progress.startPayCycle()
    // B turns out larger than guessed: its real size replaces the guess.
    progress.passStarted('B', 1, 250)
    expect(last().fraction).toBeCloseTo(1_400 / 1_650)
    progress.pageArrived('B', rows(250, 'B'))
    expect(last().fraction).toBe(1)
    progress.committing()
    expect(last()).toMatchObject({ phase: 'committing', fraction: 1, rows: 1_000 })
  })

  it('guesses a pay-cycle list as large as the main list when rows do not name their pay cycle', () => {
    const { progress, last } = meter(['A', 'B'])
    expect(progress.snapshot().fraction).toBeUndefined()
    progress.passStarted(undefined, 1, 300)
    progress.pageArrived(undefined, rows(300), 300)
    // An upper bound (a filtered list is part of the whole), so the bar can only jump forward later.
    expect(last().fraction).toBeCloseTo(300 / 900)
    progress.startPayCycle()
    progress.passStarted('A', 1, 30)
    expect(last().fraction).toBeCloseTo(300 / 630)
  })

  it('counts a repeated pass as more work, and calls it checking for changes', () => {
    const { progress, last } = meter()
    progress.passStarted(undefined, 1, 100)
    progress.pageArrived(undefined, rows(100), 100)
    expect(last().fraction).toBe(1)
    progress.passStarted(undefined, 2, 100)
    expect(last()).toMatchObject({ phase: 'reconciling', fraction: 0.5 })
  })

  it('gives time remaining only after the first measured seconds, from the row rate on the injected clock', () => {
    const { progress, last, time } = meter(['A'])
    progress.passStarted(undefined, 1, 10_000)
    for (let second = 1; second < ETA_MIN_MEASURED_MS / 1000; second++) {
      time.advance(1_000)
      progress.pageArrived(undefined, rows(400, 'A'), 400 * second)
      expect(last().etaSeconds).toBeUndefined()
      expect(last().rowsPerSecond).toBe(400)
    }
    time.advance(1_000)
    progress.pageArrived(undefined, rows(400, 'A'), 2_000)
    // 2,000 of 10,000 rows plus the pay cycle's guessed 10,000: 18,000 rows to go at 400 rows/s.
    expect(last()).toMatchObject({ rows: 2_000, rowsPerSecond: 400, etaSeconds: 45 })
    // Half the rate, twice the time: the estimate follows the clock, not the wall.
    time.advance(5_000)
    progress.pageArrived(undefined, rows(400, 'A'), 2_400)
    expect(last()).toMatchObject({ rowsPerSecond: 240, etaSeconds: Math.ceil(17_600 / 240) })
    progress.committing()
    expect(last().etaSeconds).toBeUndefined()
  })

  it('leaves retry waits out of the measured rate, so one early wait does not read as minutes left', () => {
    const { progress, last, time } = meter()
    progress.passStarted(undefined, 1, 10_000)
    time.advance(1_000)
    progress.retrying({ reason: 'rate-limited', attempt: 1, delayMs: 8_000, failure: 'busy' })
    expect(last().rowsPerSecond).toBe(0)
    time.advance(8_000)
    progress.pageArrived(undefined, rows(400), 400)
    // One second of asking, eight of waiting: 400 rows in one measured second.
    expect(last()).toMatchObject({ rowsPerSecond: 400 })
    expect(last().etaSeconds).toBeUndefined()
    time.advance(4_000)
    progress.pageArrived(undefined, rows(400), 800)
    // Five measured seconds (thirteen on the clock): 160 rows/s, so 9,200 rows take under a minute, not 150 s.
    expect(last()).toMatchObject({ rowsPerSecond: 160, etaSeconds: Math.ceil(9_200 / 160) })
  })

  it('shows a retry at once whatever the throttle, without a time remaining, and clears it with the next page', () => {
    const { progress, events, last, time } = meter()
    progress.passStarted(undefined, 1, 1_000)
    time.advance(10_000)
    progress.pageArrived(undefined, rows(100), 100)
    progress.pageArrived(undefined, rows(100), 200)
    const before = events.length
    progress.retrying({ reason: 'rate-limited', attempt: 2, delayMs: 7_200, failure: 'busy' })
    expect(events).toHaveLength(before + 1)
    expect(last()).toMatchObject({
      rows: 200,
      fraction: 0.2,
      retry: { reason: 'rate-limited', retryInSeconds: 8, attempt: 2, cause: 'busy' },
    })
    expect(last().etaSeconds).toBeUndefined()
    progress.pageArrived(undefined, rows(100), 300)
    expect(events).toHaveLength(before + 2)
    expect(last().retry).toBeUndefined()
    expect(last().etaSeconds).toBeGreaterThan(0)
  })

  it('reports a few times a second however many pages arrive, always the first and last of a pass', () => {
    const { progress, events, time } = meter()
    progress.passStarted(undefined, 1, 2_000)
    for (let page = 1; page <= 20; page++) {
      time.advance(10)
      progress.pageArrived(undefined, rows(100), page * 100)
    }
    // The pass's start, its first page, then at most one page per 100 ms of clock, and its last page.
    expect(events.map((event) => event.rows)).toEqual([0, 100, 1_100, 2_000])
  })
})
