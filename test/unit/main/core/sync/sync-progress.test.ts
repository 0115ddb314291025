import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SyncProgress } from '../../../../../src/shared/domain/sync'
import type { FetchLike } from '../../../../../src/main/core/api/fetch-like'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { Clock } from '../../../../../src/main/core/clock'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { ETA_MIN_MEASURED_MS } from '../../../../../src/main/core/sync/progress-meter'
import { runSync } from '../../../../../src/main/core/sync/sync-engine'
import type { SyncRunOptions } from '../../../../../src/main/core/sync/sync-engine'
import type { SandboxBehavioursPatch, SandboxHandle } from '../../../../../src/main/sandbox/index'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { useTestSandbox } from '../../../../helpers/sandbox'
import { fakeClock } from '../../../../helpers/sync-fakes'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * Progress as the real sync engine reports it against the sandbox service: one fraction across the main list
 * and the pay-cycle lists, time remaining from the injected clock, and retry states from real 429s and 5xxs.
 * Time moves only when the test says (per request, or by a retry's wait), so every figure is deterministic.
 */

interface Seen {
  readonly progress: SyncProgress
  /** Milliseconds of the injected clock since the run started. */
  readonly elapsedMs: number
}

const sandbox = useTestSandbox({ size: 3_000 })

describe('sync progress against the sandbox', () => {
  let cache: CacheDatabase
  let cleanup: () => void
  beforeEach(() => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    cache = openCacheDatabase(join(temp.dir, 'cache.db'), { key: TEST_CACHE_KEY })
  })
  afterEach(() => {
    sandbox().setBehaviours({ latencyMs: 0, faults: { rateLimit: 0, serverErrorHtml: 0 } })
    cache.close()
    cleanup()
  })

  /**
   * One run with `msPerRequest` of clock time per list request. `onSleep` runs when the client waits to retry
   * (the test's chance to heal the service); `onRequest` before each request (its chance to break it).
   */
  async function sync(
    options: Partial<SyncRunOptions> & {
      msPerRequest?: number
      onRequest?: (index: number, service: SandboxHandle) => void
      onSleep?: (service: SandboxHandle) => void
      fetch?: FetchLike
    } = {},
  ) {
    const { msPerRequest = 0, onRequest, onSleep, fetch: through, ...runOptions } = options
    const service = sandbox()
    const time = fakeClock()
    const started = time.clock.now()
    const clock: Clock = {
      now: time.clock.now,
      sleep: async (ms, signal) => {
        onSleep?.(service)
        await time.clock.sleep(ms, signal)
      },
    }
    let requests = 0
    const base = through ?? ((input, init) => fetch(input, init))
    const timed: FetchLike = (input, init) => {
      onRequest?.(++requests, service)
      time.advance(msPerRequest)
      return base(input, init)
    }
    const { accessToken } = service.issueTokens()
    const seen: Seen[] = []
    const summary = await runSync(
      {
        cache,
        fetch: timed,
        clock,
        random: () => 0.5,
        tokens: {
          getAccessToken: async () => accessToken,
          handleUnauthorized: async () => {
            throw new RosterDeskError('not-signed-in', 'The test token was refused.')
          },
        },
      },
      {
        baseUrl: service.baseUrl,
        pageSize: 100,
        concurrency: 1,
        ...runOptions,
        onProgress: (progress) => seen.push({ progress, elapsedMs: time.clock.now() - started }),
      },
    )
    return { summary, seen, sleeps: time.sleeps }
  }

  it('moves one bar across the main list and every tracked pay cycle, never back and never restarting', async () => {
    const tracked = ['PC-MONTHLY', 'PC-2026-11-A']
    const { summary, seen } = await sync({ trackedPayCycles: tracked, concurrency: 3 })
    expect(summary.status).toBe('complete')
    const progress = seen.map((s) => s.progress)
    const phases = [...new Set(progress.map((p) => p.phase))]
    expect(phases).toEqual(['listing', 'pay-cycles', 'committing'])

    const fractions = progress.flatMap((p) => (p.fraction === undefined ? [] : [p.fraction]))
    expect(fractions.length).toBeGreaterThan(5)
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!)
    expect(progress.at(-1)).toMatchObject({ phase: 'committing', fraction: 1, rows: 3_000, rowsTotal: 3_000 })

    // When the main list is in, the bar stands at its share of everything the run reads.
    const members = sandbox()
      .allEmployees()
      .filter((row) => tracked.includes(String(row['payCycleId']))).length
    const listed = progress.filter((p) => p.phase === 'listing').at(-1)!
    expect(listed.rows).toBe(3_000)
    expect(listed.fraction).toBeCloseTo(3_000 / (3_000 + members), 6)
    const cycles = progress.filter((p) => p.phase === 'pay-cycles')
    expect(cycles[0]!.fraction).toBeCloseTo(listed.fraction!, 6)
    expect(cycles.at(-1)!.fraction).toBe(1)
  })

  it.each([250, 500])(
    'says how long is left only after the first seconds, from the row rate on the injected clock (%i ms a page)',
    async (msPerRequest) => {
      const { summary, seen } = await sync({ msPerRequest })
      expect(summary).toMatchObject({ status: 'complete', pages: 30, requests: 31 })
      const listing = seen.filter((s) => s.progress.phase === 'listing' && s.progress.rows > 0)
      const early = listing.filter((s) => s.elapsedMs < ETA_MIN_MEASURED_MS)
      const later = listing.filter((s) => s.elapsedMs >= ETA_MIN_MEASURED_MS)
      expect(early.length).toBeGreaterThan(0)
      expect(later.length).toBeGreaterThan(3)
      for (const s of early) expect(s.progress.etaSeconds).toBeUndefined()
      for (const s of later) {
        // Each request costs msPerRequest of clock, and the requests still to come (the pages not yet in, less
        // the one already sent, plus the second look at page 1) are what is left: the estimate is close to it.
        const truth = (((3_000 - s.progress.rows) / 100) * msPerRequest) / 1000
        expect(s.progress.etaSeconds).toBeDefined()
        expect(Math.abs(s.progress.etaSeconds! - truth)).toBeLessThanOrEqual(1 + 0.2 * truth)
      }
    },
  )

  it('shows "rate-limited" before the list is even sized, for the Retry-After, and clears it with the first page', async () => {
    sandbox().setBehaviours({ faults: { rateLimit: 1, rateLimitRetryAfterSeconds: 8 } })
    const { summary, seen, sleeps } = await sync({
      onSleep: (service) => service.setBehaviours({ faults: { rateLimit: 0 } }),
    })
    expect(summary).toMatchObject({ status: 'complete', stored: 3_000 })
    expect(sleeps).toEqual([8_000])
    const [first, second] = seen.map((s) => s.progress)
    expect(first).toMatchObject({
      phase: 'listing',
      rows: 0,
      retry: { reason: 'rate-limited', retryInSeconds: 8, attempt: 1 },
    })
    expect(first!.fraction).toBeUndefined()
    expect(second!.retry).toBeUndefined()
    expect(second!.rowsTotal).toBe(3_000)
    expect(seen.filter((s) => s.progress.retry !== undefined)).toHaveLength(1)
  })

  it('shows a retry mid-list at once though progress is throttled, then clears it with the next page', async () => {
    // The clock stands still between requests, so the throttle lets through only what must be shown.
    const { summary, seen } = await sync({
      onRequest: (index, service) => {
        if (index === 12) service.setBehaviours({ faults: { rateLimit: 1, rateLimitRetryAfterSeconds: 3 } })
      },
      onSleep: (service) => service.setBehaviours({ faults: { rateLimit: 0 } }),
    })
    expect(summary.status).toBe('complete')
    const progress = seen.map((s) => s.progress)
    expect(progress.length).toBeLessThan(10)
    const at = progress.findIndex((p) => p.retry !== undefined)
    expect(progress[at]).toMatchObject({
      rows: 1_100,
      retry: { reason: 'rate-limited', retryInSeconds: 3, attempt: 1 },
    })
    expect(progress[at]!.fraction).toBeCloseTo(1_100 / 3_000)
    expect(progress[at + 1]!.retry).toBeUndefined()
    expect(progress[at + 1]!.rows).toBe(1_200)
  })

  it.each([
    {
      reason: 'server-error',
      behaviours: { faults: { serverErrorHtml: 1 } } satisfies SandboxBehavioursPatch,
      fetch: undefined,
      cause: /^The payroll service had a problem \(HTTP 50[23]\)\. Try again in a few minutes\.$/,
    },
    {
      reason: 'network',
      behaviours: {} satisfies SandboxBehavioursPatch,
      // What undici throws when the connection drops; the first request only.
      fetch: ((): FetchLike => {
        let failed = false
        return (input, init) => {
          if (failed) return fetch(input, init)
          failed = true
          return Promise.reject(new TypeError('fetch failed'))
        }
      })(),
      cause: /^RosterDesk could not reach the payroll service\./,
    },
  ] as const)(
    'names a $reason retry with its backoff, then completes',
    async ({ reason, behaviours, fetch, cause }) => {
      sandbox().setBehaviours(behaviours)
      const { summary, seen, sleeps } = await sync({
        ...(fetch === undefined ? {} : { fetch }),
        onSleep: (service) => service.setBehaviours({ faults: { serverErrorHtml: 0 } }),
      })
      expect(summary.status).toBe('complete')
      // Equal jitter with random() = 0.5 on a 500 ms base: 375 ms, shown as "1 s".
      expect(sleeps).toEqual([375])
      // The cause, in the failure's words, from the first retry on (issue 32).
      expect(seen[0]!.progress.retry).toEqual({
        reason,
        retryInSeconds: 1,
        attempt: 1,
        cause: expect.stringMatching(cause),
        // Of how many attempts, the cause's code and the service's host, for the line to say (issue 33).
        attempts: 8,
        code: reason === 'network' ? 'network' : 'service',
        host: new URL(sandbox().baseUrl).host,
      })
      expect(seen[1]!.progress.retry).toBeUndefined()
    },
  )
})
