import { describe, expect, it } from 'vitest'
import type { SyncRunSummary } from '../../src/shared/domain/sync'
import type { FetchLike } from '../../src/main/core/api/fetch-like'
import { systemClock } from '../../src/main/core/clock'
import { LARGE_PAGE_REQUEST } from '../../src/main/core/sync/page-size'
import { runSync } from '../../src/main/core/sync/sync-engine'
import type { SyncRunOptions } from '../../src/main/core/sync/sync-engine'
import { parseCliArgs } from '../../src/main/sandbox/cli-args'
import type { SandboxBehavioursPatch, SandboxHandle } from '../../src/main/sandbox/index'
import { useSandboxPerTest } from '../helpers/sandbox'
import { useTempCache } from '../helpers/temp-cache'

/**
 * The sync asks the sandbox for a large page and reads the list at the size it serves (`--max-page-size`), or
 * falls back to the settings' page size when a large one is refused (`--refuse-large-limit`) and remembers that.
 */

const SIZE = 2_500

interface Sent {
  readonly page: number
  readonly limit: number
  readonly status: number
}

describe('sync page size against the sandbox', () => {
  const temp = useTempCache('rosterdesk-e2e-page-size-')
  const startSandbox = useSandboxPerTest()
  let sent: Sent[] = []

  async function start(behaviours: SandboxBehavioursPatch): Promise<SandboxHandle> {
    return startSandbox({ size: SIZE, seed: 13, behaviours })
  }

  async function sync(handle: SandboxHandle, options: Partial<SyncRunOptions> = {}): Promise<SyncRunSummary> {
    sent = []
    const { accessToken } = handle.issueTokens()
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init)
      const query = new URL(url).searchParams
      sent.push({
        page: Number(query.get('page')),
        limit: Number(query.get('limit')),
        status: response.status,
      })
      return response
    }
    const summary = await runSync(
      {
        cache: temp.cache,
        fetch: recording,
        tokens: { getAccessToken: async () => accessToken, handleUnauthorized: async () => accessToken },
        clock: systemClock,
        random: Math.random,
      },
      { baseUrl: handle.baseUrl, pageSize: 100, pageSizing: 'largest-served', concurrency: 4, ...options },
    )
    expect(summary.error).toBeUndefined()
    expect(summary).toMatchObject({ status: 'complete', totalCount: SIZE, stored: SIZE })
    expect(temp.cache.employeeCount()).toBe(SIZE)
    return summary
  }

  it('reads the list at the largest page the sandbox serves, in as many requests as that takes', async () => {
    const handle = await start({ maxPageSize: 700 })
    const before = handle.stats().listRequests
    const summary = await sync(handle)
    // 4 pages of 700: page 1 and the three guessed alongside it asked at 5,000 (the guesses, served at 700, are
    // asked again), pages 2 to 4 at 700, and page 1 again.
    expect(summary).toMatchObject({ pages: 4, requests: 8 })
    expect(handle.stats().listRequests - before).toBe(8)
    expect(sent.slice(0, 4).map((r) => r.limit)).toEqual(Array(4).fill(LARGE_PAGE_REQUEST))
    expect(sent.slice(4).map((r) => [r.page, r.limit])).toEqual([
      [2, 700],
      [3, 700],
      [4, 700],
      [1, 700],
    ])
    expect(temp.cache.currentSnapshot()?.info('page_limit')).toBe('700')

    // The next sync guesses at 700 from the start: 5 requests, none wasted.
    expect(await sync(handle)).toMatchObject({ pages: 4, requests: 5 })
    // The client before: the settings' 100 per page, 25 pages and page 1 again.
    expect(await sync(handle, { pageSizing: 'configured' })).toMatchObject({ pages: 25, requests: 26 })
  })

  it('falls back to the settings’ page size when the sandbox refuses a large limit, and remembers it', async () => {
    const handle = await start({ maxPageSize: null, refuseLargeLimit: 1_000 })
    const first = await sync(handle, { pageSize: 250 })
    expect(first.pages).toBe(10)
    const refused = sent.filter((r) => r.status === 400)
    expect(refused.map((r) => r.limit)).toEqual(Array(4).fill(LARGE_PAGE_REQUEST))
    expect(sent.filter((r) => r.status === 200).every((r) => r.limit === 250)).toBe(true)
    expect(temp.cache.currentSnapshot()?.info('refused_page_limit')).toBe(String(LARGE_PAGE_REQUEST))

    const next = await sync(handle, { pageSize: 250 })
    expect(next).toMatchObject({ pages: 10, requests: 11 })
    expect(sent.every((r) => r.status === 200 && r.limit === 250)).toBe(true)
  })

  it('takes both behaviours on the sandbox’s command line', () => {
    const parsed = parseCliArgs(['--max-page-size', '700', '--refuse-large-limit', '1000'])
    expect(parsed).not.toBe('help')
    expect(parsed === 'help' ? undefined : parsed.behaviours).toMatchObject({
      maxPageSize: 700,
      refuseLargeLimit: 1000,
    })
  })
})
