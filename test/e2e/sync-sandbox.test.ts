import { describe, expect, it } from 'vitest'
import type { SyncRunSummary } from '../../src/shared/domain/sync'
import type { FetchLike } from '../../src/main/core/api/fetch-like'
import { TENANT_HEADER } from '../../src/main/core/api/list-client'
import { silentLogger } from '../../src/main/core/log/logger'
import { TokenManager } from '../../src/main/core/auth/token-manager'
import { systemClock } from '../../src/main/core/clock'
import { MemorySecretStore } from '../../src/main/core/secrets/secret-store'
import { runSync } from '../../src/main/core/sync/sync-engine'
import type { SyncRunOptions } from '../../src/main/core/sync/sync-engine'
import type { SandboxBehavioursPatch, SandboxHandle, TokenStyle } from '../../src/main/sandbox/index'
import { useSandboxPerTest } from '../helpers/sandbox'
import { useTempCache } from '../helpers/temp-cache'
import { fingerprintCache } from '../helpers/cache-test-helpers'
import { rawSnapshot } from '../helpers/raw-snapshot'

/**
 * The sync engine against the sandbox, one switchable behaviour at a time: each either ends in a cache holding
 * exactly the sandbox's employees, or (for faults a retry cannot fix) in a failed run with a clear message and
 * the previous cache exactly as it was.
 */

const SIZE = 1200
const PAGE_SIZE = 100

interface Harness {
  readonly sandbox: SandboxHandle
  readonly sync: (options?: Partial<SyncRunOptions>, fetchImpl?: FetchLike) => Promise<SyncRunSummary>
  readonly requests: Array<{ url: string; headers: Headers }>
}

describe('sync against the sandbox', () => {
  const temp = useTempCache('rosterdesk-e2e-sync-')
  const startSandbox = useSandboxPerTest()

  async function start(
    behaviours: SandboxBehavioursPatch = {},
    tokens: { style?: TokenStyle; withExpiry?: boolean } = {},
  ): Promise<Harness> {
    const handle = await startSandbox({
      size: SIZE,
      seed: 11,
      behaviours: { tokenStyle: tokens.style ?? 'snake', ...behaviours },
    })
    const { clientId, clientSecret, redirectUri } = handle.credentials
    const manager = new TokenManager({
      fetch,
      clock: systemClock,
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      environment: () => ({ baseUrl: handle.baseUrl, clientId, redirectUri }),
      clientSecret: async () => clientSecret,
      onSignedOut: () => undefined,
    })
    const issued = handle.issueTokens()
    await manager.store(
      {
        accessToken: issued.accessToken,
        refreshToken: issued.refreshToken,
        ...(tokens.withExpiry === false ? {} : { expiresInSeconds: issued.expiresIn }),
      },
      { baseUrl: handle.baseUrl, clientId },
    )
    const requests: Harness['requests'] = []
    const recording: FetchLike = async (url, init) => {
      if (url.includes('/employees/list')) requests.push({ url, headers: new Headers(init?.headers) })
      return fetch(url, init)
    }
    return {
      sandbox: handle,
      requests,
      sync: (options = {}, fetchImpl = recording) =>
        runSync(
          { cache: temp.cache, fetch: fetchImpl, tokens: manager, clock: systemClock, random: Math.random },
          {
            baseUrl: handle.baseUrl,
            pageSize: PAGE_SIZE,
            concurrency: 4,
            retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 10 },
            ...options,
          },
        ),
    }
  }

  /** The cache holds exactly the sandbox's employees, every field as served. */
  function expectCacheEqualsSandbox(summary: SyncRunSummary, handle: SandboxHandle): void {
    expect(summary.error).toBeUndefined()
    expect(summary.status).toBe('complete')
    const expected = handle.allEmployees().sort(byUuid)
    expect(summary.totalCount).toBe(expected.length)
    expect(summary.stored).toBe(expected.length)
    const stored = rawSnapshot(temp.cache.currentSnapshot())
      .prepare('SELECT row_json FROM employees')
      .pluck()
      .all()
      .map((json) => JSON.parse(String(json)) as Record<string, unknown>)
      .sort(byUuid)
    expect(stored).toEqual(expected)
    expect(temp.cache.employeeCount()).toBe(expected.length)
  }

  /** A failed run: clear message, one new run logged, and the previous cache untouched. */
  async function expectFailureLeavesCache(
    harness: Harness,
    fail: () => Promise<SyncRunSummary>,
    message: RegExp,
  ) {
    const first = await harness.sync()
    expect(first.status).toBe('complete')
    const before = fingerprintCache(temp.cache.path)
    const summary = await fail()
    expect(summary.status).toBe('failed')
    expect(summary.error).toMatch(message)
    const after = fingerprintCache(temp.cache.path)
    expect(after.catalog).toBe(before.catalog)
    expect(after.snapshotPath).toBe(before.snapshotPath)
    expect(after.snapshotLogical).toBe(before.snapshotLogical)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.runs.slice(0, before.runs.length)).toEqual(before.runs)
    expect(after.runs).toHaveLength(before.runs.length + 1)
    expect(temp.cache.runs.lastRun()).toMatchObject({ status: 'failed', error: summary.error })
    expect(temp.cache.lastCompleteRun()?.id).toBe(first.id)
  }

  it('completes with the service’s page size when it serves fewer rows than asked', async () => {
    const harness = await start({ maxPageSize: 70 })
    const summary = await harness.sync({ pageSize: 500 })
    expectCacheEqualsSandbox(summary, harness.sandbox)
    expect(summary.pages).toBe(Math.ceil(SIZE / 70))
  })

  for (const style of ['snake', 'camel', 'wrapped', 'no-expiry'] as const) {
    it(`renews expiring tokens mid-sync (token style ${style})`, async () => {
      const harness = await start({}, { style, withExpiry: style !== 'no-expiry' })
      let lists = 0
      const expiring: FetchLike = async (url, init) => {
        if (url.includes('/employees/list') && ++lists === 4) harness.sandbox.expireAccessTokens()
        return fetch(url, init)
      }
      const summary = await harness.sync({}, expiring)
      expectCacheEqualsSandbox(summary, harness.sandbox)
      expect(harness.sandbox.stats().refreshes).toBe(1)
    })
  }

  it('waits out 429s as Retry-After asks', async () => {
    const harness = await start({ faults: { rateLimit: 0.2, rateLimitRetryAfterSeconds: 1 } })
    const summary = await harness.sync()
    expectCacheEqualsSandbox(summary, harness.sandbox)
    expect(harness.sandbox.stats().faultsInjected).toBeGreaterThan(0)
    expect(summary.durationMs).toBeGreaterThanOrEqual(1000)
  })

  it('retries HTML 5xx pages and truncated JSON until the pages are whole', async () => {
    const harness = await start({ faults: { serverErrorHtml: 0.15, truncatedJson: 0.15 } })
    const summary = await harness.sync()
    expectCacheEqualsSandbox(summary, harness.sandbox)
    expect(harness.sandbox.stats().faultsInjected).toBeGreaterThan(2)
    expect(summary.requests).toBeGreaterThan(summary.pages + 1)
  })

  it('ends with exactly the service’s set when employees are added mid-sync', async () => {
    const harness = await start({ churn: { add: 3, remove: 0, listRequests: 8 } })
    const summary = await harness.sync()
    expectCacheEqualsSandbox(summary, harness.sandbox)
    expect(summary.totalCount).toBe(SIZE + 24)
  })

  it('ends with exactly the service’s set when employees are removed mid-sync', async () => {
    const harness = await start({ churn: { add: 0, remove: 2, listRequests: 8 } })
    const summary = await harness.sync()
    expectCacheEqualsSandbox(summary, harness.sandbox)
    expect(summary.totalCount).toBe(SIZE - 16)
  })

  it('ends with exactly the service’s set when additions and removals leave the count unchanged', async () => {
    const harness = await start({ churn: { add: 2, remove: 2, listRequests: 8 } })
    const summary = await harness.sync()
    expectCacheEqualsSandbox(summary, harness.sandbox)
  })

  it('sends the tenant header where the service requires it', async () => {
    const harness = await start({ tenantRequired: true })
    const summary = await harness.sync({ tenantId: harness.sandbox.credentials.tenantId })
    expectCacheEqualsSandbox(summary, harness.sandbox)
    for (const request of harness.requests) {
      expect(request.headers.get(TENANT_HEADER)).toBe(harness.sandbox.credentials.tenantId)
      expect(request.headers.get('accept')).toBe('application/json')
      expect(request.headers.get('authorization')).toMatch(/^Bearer \S+$/)
    }
  })

  it('fails on a wrong tenant (403) and keeps the previous cache', async () => {
    const harness = await start()
    await expectFailureLeavesCache(
      harness,
      () => harness.sync({ tenantId: 'someone-else' }),
      /refused access to tenant “someone-else” \(HTTP 403\)/,
    )
  })

  it('fails when the service requires a tenant and none is set, saying so', async () => {
    const harness = await start()
    await expectFailureLeavesCache(
      harness,
      () => {
        harness.sandbox.setBehaviours({ tenantRequired: true })
        return harness.sync()
      },
      /HTTP 403.*header is required.*tenant ID/,
    )
  })

  it('fails on 400 without retrying and keeps the previous cache', async () => {
    const harness = await start()
    const malformed: FetchLike = (url, init) => fetch(`${url}&page=2`, init)
    const listBefore = () => harness.sandbox.stats().listRequests
    let requestsBefore = 0
    await expectFailureLeavesCache(
      harness,
      () => {
        requestsBefore = listBefore()
        return harness.sync({ concurrency: 1 }, malformed)
      },
      /rejected RosterDesk’s request for the employee list \(HTTP 400\): “page was given more than once”/,
    )
    expect(listBefore() - requestsBefore).toBe(1)
  })

  it('fails when the service refuses to renew the sign-in and keeps the previous cache', async () => {
    const harness = await start()
    await expectFailureLeavesCache(
      harness,
      () => {
        harness.sandbox.setBehaviours({ rejectRefresh: true })
        harness.sandbox.expireAccessTokens()
        return harness.sync()
      },
      /Sign in again/,
    )
  })

  it('fails when the renewal answer cannot be read and keeps the previous cache', async () => {
    const harness = await start()
    await expectFailureLeavesCache(
      harness,
      () => {
        harness.sandbox.setBehaviours({ tokenStyle: 'unrecognised' })
        harness.sandbox.expireAccessTokens()
        return harness.sync()
      },
      /sign-in answer has no access token RosterDesk recognises/,
    )
  })

  it('fails, saying by how many, when the list never holds still, and keeps the previous cache', async () => {
    const harness = await start()
    await expectFailureLeavesCache(
      harness,
      () => {
        harness.sandbox.setBehaviours({ churn: { add: 1, remove: 0, listRequests: 100_000 } })
        return harness.sync()
      },
      /kept changing.*after 3 full passes.*\(\d+ missing\)/,
    )
  })
})

function byUuid(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return String(a['UUID']).localeCompare(String(b['UUID']))
}
