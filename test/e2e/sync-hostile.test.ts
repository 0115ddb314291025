import { describe, expect, it } from 'vitest'
import type { SyncRunSummary } from '../../src/shared/domain/sync'
import type { FetchLike } from '../../src/main/core/api/fetch-like'
import type { Clock } from '../../src/main/core/clock'
import { systemClock } from '../../src/main/core/clock'
import { runSync } from '../../src/main/core/sync/sync-engine'
import type { SyncRunOptions } from '../../src/main/core/sync/sync-engine'
import type { SandboxBehavioursPatch, SandboxHandle } from '../../src/main/sandbox/index'
import { useSandboxPerTest } from '../helpers/sandbox'
import { useTempCache } from '../helpers/temp-cache'
import { fingerprintCache } from '../helpers/cache-test-helpers'
import { rawSnapshot } from '../helpers/raw-snapshot'

/**
 * The sync engine against a hostile sandbox (issue 12), one behaviour at a time. Each fault a retry cannot fix
 * ends the run at once with the page, the row and the field in the message, after a bounded number of requests,
 * and the previous cache byte for byte as it was; the transient ones (a stall that ends) still complete.
 */

const SIZE = 1200
const PAGE_SIZE = 100
const CONCURRENCY = 4

interface Harness {
  readonly sandbox: SandboxHandle
  /** List requests the sandbox received since the last call of `sync`. */
  readonly listRequests: () => number
  /** The same, by the page asked for. */
  readonly pageRequests: (page: number) => number
  readonly sync: (options?: Partial<SyncRunOptions>, clock?: Clock) => Promise<SyncRunSummary>
}

describe('sync against a hostile service', () => {
  const temp = useTempCache('rosterdesk-e2e-hostile-')
  const startSandbox = useSandboxPerTest()

  async function start(): Promise<Harness> {
    const handle = await startSandbox({ size: SIZE, seed: 12 })
    const { accessToken } = handle.issueTokens()
    let base = handle.stats()
    const tokens = {
      getAccessToken: async () => accessToken,
      handleUnauthorized: async () => accessToken,
    }
    return {
      sandbox: handle,
      listRequests: () => handle.stats().listRequests - base.listRequests,
      pageRequests: (page) =>
        (handle.stats().listPages[String(page)] ?? 0) - (base.listPages[String(page)] ?? 0),
      sync: (options = {}, clock = systemClock) => {
        base = handle.stats()
        return runSync(
          { cache: temp.cache, fetch: fetch as FetchLike, tokens, clock, random: Math.random },
          {
            baseUrl: handle.baseUrl,
            pageSize: PAGE_SIZE,
            concurrency: CONCURRENCY,
            retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 3 },
            ...options,
          },
        )
      },
    }
  }

  /**
   * A first sync fills the cache; with `behaviours` switched on the next one fails with `message`; the catalog
   * (but for the new failed run), the snapshot pointer and the snapshot file's bytes are unchanged.
   */
  async function expectRefused(
    behaviours: SandboxBehavioursPatch,
    message: RegExp,
    options: Partial<SyncRunOptions> = {},
  ): Promise<{ summary: SyncRunSummary; harness: Harness }> {
    const harness = await start()
    const first = await harness.sync()
    expect(first.status).toBe('complete')
    const before = fingerprintCache(temp.cache.path)
    harness.sandbox.setBehaviours(behaviours)
    const summary = await harness.sync(options)
    expect(summary.error).toMatch(message)
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'service' })
    const after = fingerprintCache(temp.cache.path)
    expect(after.catalog).toBe(before.catalog)
    expect(after.snapshotPath).toBe(before.snapshotPath)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.runs.slice(0, before.runs.length)).toEqual(before.runs)
    expect(temp.cache.lastCompleteRun()?.id).toBe(first.id)
    expect(temp.cache.employeeCount()).toBe(SIZE)
    return { summary, harness }
  }

  it('refuses a claim of a billion employees at page 1, over the ceiling', async () => {
    const { harness } = await expectRefused(
      { lieTotalCount: 1_000_000_000 },
      /claims 1,000,000,000 employees in its employee list \(page 1, field “totalCount”\), more than the 5,000,000 RosterDesk is set to accept/,
    )
    // Page 1 and the pages guessed alongside it; nothing sized by the claim.
    expect(harness.listRequests()).toBeLessThanOrEqual(CONCURRENCY)
  })

  it('stops a billion-employee claim allowed by the ceiling a handful of requests past the real end', async () => {
    const { harness, summary } = await expectRefused(
      { lieTotalCount: 1_000_000_000 },
      /on page 13, the page holds 0 rows where "totalCount" 1000000000 and "limit" 100 mean 100: the service claims employees it does not list.*field “totalCount”/,
      { limits: { maxEmployees: 1_000_000_000 } },
    )
    // Twelve real pages, then at most one round of requests in flight when page 13 came back empty.
    expect(harness.listRequests()).toBeGreaterThanOrEqual(13)
    expect(harness.listRequests()).toBeLessThanOrEqual(12 + CONCURRENCY + 1)
    expect(summary.durationMs).toBeLessThan(10_000)
  })

  it('names the page, row and field of a row without a UUID, at once', async () => {
    const { harness } = await expectRefused(
      { missingUuid: { page: 3, row: 17 } },
      /on page 3, row 17 \(employee 217 of the list\), the row has no UUID\. Asking again gives the same answer.*administrator \(field “UUID”\)/,
    )
    // No retries: page 3 was asked for once, and the run stopped within one round of requests.
    expect(harness.listRequests()).toBeLessThanOrEqual(3 + CONCURRENCY)
  })

  it('names a UUID listed twice in one page, at once', async () => {
    const { harness } = await expectRefused(
      { duplicateUuid: { page: 1, row: 7 } },
      /on page 1, row 7 \(employee 7 of the list\), the row carries the same UUID \S+ as row 1/,
    )
    expect(harness.listRequests()).toBeLessThanOrEqual(CONCURRENCY)
  })

  it('names a UUID listed twice on every pass after two passes, not as a list that kept changing', async () => {
    const { harness, summary } = await expectRefused(
      { duplicateUuid: { page: 5, row: 3 } },
      /lists the employee with UUID \S+ twice in its employee list \(again on page 5, row 3, field “UUID”\), the same way in 2 full passes/,
    )
    expect(summary.error).not.toMatch(/kept changing/)
    // Two passes of 12 pages and page 1 again (the second starts from that page 1): 25 requests, not 37.
    expect(harness.listRequests()).toBe(25)
  })

  it('reads an envelope whose counts are strings of digits', async () => {
    const harness = await start()
    harness.sandbox.setBehaviours({ numericStrings: true })
    const summary = await harness.sync()
    expect(summary).toMatchObject({ status: 'complete', totalCount: SIZE, stored: SIZE, pages: 12 })
    expect(temp.cache.employeeCount()).toBe(SIZE)
  })

  it('refuses a 300 MB page while it streams in, without reading it all', async () => {
    const started = Date.now()
    const { harness } = await expectRefused(
      { oversizedPage: { page: 4, megabytes: 300 } },
      /answered page 4 of the employee list with more than 8 MB, the most RosterDesk accepts for one page.*Lower the page size in Settings/,
      { limits: { maxPageMegabytes: 8 } },
    )
    // Never retried: other lanes go on while page 4 streams, but no page is asked for twice (page 1's second
    // look aside): at most the pass's 12 pages and that look, however far the other lanes got meanwhile.
    expect(harness.pageRequests(4)).toBe(1)
    for (let page = 2; page <= SIZE / PAGE_SIZE; page++)
      expect(harness.pageRequests(page)).toBeLessThanOrEqual(1)
    expect(harness.listRequests()).toBeLessThanOrEqual(SIZE / PAGE_SIZE + 1)
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it('keeps an oversized field cut to the longest allowed, ending with “…”, and counts it in the summary', async () => {
    const harness = await start()
    harness.sandbox.setBehaviours({ oversizedField: { page: 2, row: 5, characters: 200_000 } })
    const summary = await harness.sync()
    expect(summary).toMatchObject({ status: 'complete', stored: SIZE, truncatedFields: 1 })
    const notes = rawSnapshot(temp.cache.currentSnapshot())
      .prepare(
        "SELECT json_extract(row_json, '$.notes') FROM employees WHERE json_extract(row_json, '$.notes') IS NOT NULL",
      )
      .pluck()
      .all() as string[]
    expect(notes).toHaveLength(1)
    expect(notes[0]).toHaveLength(10_000)
    expect(notes[0]!.endsWith('…')).toBe(true)
  })

  for (const mode of ['headers', 'silent'] as const) {
    it(`retries a page that stalls once (${mode}) after the request timeout, and completes`, async () => {
      const harness = await start()
      harness.sandbox.setBehaviours({ stall: { page: 6, mode, requests: 1 } })
      const summary = await harness.sync({ limits: { requestTimeoutSeconds: 1 } })
      expect(summary).toMatchObject({ status: 'complete', stored: SIZE })
      expect(summary.durationMs).toBeGreaterThanOrEqual(1000)
      expect(harness.listRequests()).toBe(12 + 1 + 1)
    })
  }

  it('ends a run whose page never stops stalling after the bounded attempts, saying so', async () => {
    const harness = await start()
    await harness.sync()
    const before = fingerprintCache(temp.cache.path)
    harness.sandbox.setBehaviours({ stall: { page: 6, mode: 'headers', requests: 1000 } })
    const summary = await harness.sync({ limits: { requestTimeoutSeconds: 1 } })
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'timeout' })
    expect(summary.error).toMatch(/did not answer within 1 second.*tried 3 times/)
    expect(summary.durationMs).toBeLessThan(10_000)
    const after = fingerprintCache(temp.cache.path)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.catalog).toBe(before.catalog)
  })

  it('stops a run past its deadline before its next request, keeping the cache', async () => {
    const harness = await start()
    await harness.sync()
    const before = fingerprintCache(temp.cache.path)
    // A clock that jumps two minutes once page 5 has been asked for: the deadline is one minute.
    let jumped = 0
    const clock: Clock = { now: () => Date.now() + jumped, sleep: systemClock.sleep }
    harness.sandbox.setBehaviours({ latencyMs: 5 })
    const watching = setInterval(() => {
      if (harness.listRequests() >= 5) jumped = 120_000
    }, 1)
    const summary = await harness
      .sync({ concurrency: 1, limits: { syncDeadlineMinutes: 1 } }, clock)
      .finally(() => clearInterval(watching))
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'service' })
    expect(summary.error).toMatch(
      /did not finish within the 1 minute it may take.*raise “Longest sync” in Settings/,
    )
    expect(harness.listRequests()).toBeLessThan(12)
    const after = fingerprintCache(temp.cache.path)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.catalog).toBe(before.catalog)
  })
})
