import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { systemClock } from '../../../../../src/main/core/clock'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { runSync } from '../../../../../src/main/core/sync/sync-engine'
import type { SyncRunOptions } from '../../../../../src/main/core/sync/sync-engine'
import type { SandboxHandle, SandboxOptions } from '../../../../../src/main/sandbox/index'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { rawSnapshot } from '../../../../helpers/raw-snapshot'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * A sync scoped to active employees (`statusFilter=1`) against the sandbox service, which filters as the spec says:
 * the envelope's totalCount counts the active employees only, so the walker's completeness proof is made for that
 * set, and holds while the list changes under it.
 */
describe('runSync with scope "active"', () => {
  let dir: string
  let cleanup: () => void
  let cache: CacheDatabase
  let sandbox: SandboxHandle | undefined
  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir())
    cache = openCacheDatabase(join(dir, 'cache.db'), { key: TEST_CACHE_KEY })
  })
  afterEach(async () => {
    await sandbox?.close()
    cache.close()
    cleanup()
  })

  /** Syncs from a fresh sandbox, noting every list request's query. */
  async function sync(options: SandboxOptions, run: Partial<SyncRunOptions> = {}) {
    sandbox = await startTestSandbox({ size: 900, seed: 3, ...options })
    const { accessToken } = sandbox.issueTokens()
    const queries: URLSearchParams[] = []
    const summary = await runSync(
      {
        cache,
        fetch: (input, init) => {
          queries.push(new URL(input).searchParams)
          return fetch(input, init)
        },
        tokens: {
          getAccessToken: async () => accessToken,
          handleUnauthorized: async () => {
            throw new RosterDeskError('not-signed-in', 'The test token was refused.')
          },
        },
        clock: systemClock,
        random: Math.random,
      },
      { baseUrl: sandbox.baseUrl, pageSize: 50, concurrency: 3, scope: 'active', ...run },
    )
    return { summary, queries, sandbox }
  }

  const storedUuids = (): string[] =>
    rawSnapshot(cache.currentSnapshot())
      .prepare('SELECT uuid FROM employees ORDER BY uuid')
      .pluck()
      .all() as string[]
  const activeUuids = (service: SandboxHandle): string[] =>
    service
      .allEmployees()
      .filter((row) => row['employeeStatus'] === 'Active')
      .map((row) => String(row['UUID']))
      .sort()

  it('stores exactly the active employees, asks every list with statusFilter=1 and logs the scope', async () => {
    const { summary, queries, sandbox: service } = await sync({}, { trackedPayCycles: ['PC-2026-11-A'] })
    const active = activeUuids(service)
    expect(active.length).toBeLessThan(900)
    expect(summary).toMatchObject({ status: 'complete', totalCount: active.length, stored: active.length })
    expect(storedUuids()).toEqual(active)
    // The main list and the pay cycle's list alike.
    expect(queries.length).toBeGreaterThan(summary.pages)
    expect(queries.every((query) => query.getAll('statusFilter').join() === '1')).toBe(true)
    expect(queries.some((query) => query.get('payCycleId') === 'PC-2026-11-A')).toBe(true)
    const members = rawSnapshot(cache.currentSnapshot())
      .prepare("SELECT count(*) FROM pay_cycle_members WHERE pay_cycle_id = 'PC-2026-11-A'")
      .pluck()
      .get()
    const wanted = service
      .allEmployees()
      .filter((row) => row['employeeStatus'] === 'Active' && row['payCycleId'] === 'PC-2026-11-A').length
    expect(members).toBe(wanted)
    expect(cache.runs.log.settingsOf(summary.id)).toMatchObject({ statusFilter: '1' })
  })

  it('proves the active set complete while employees are added and removed mid-sync', async () => {
    const { summary, sandbox: service } = await sync({
      behaviours: { churn: { add: 4, remove: 3, listRequests: 6 } },
    })
    expect(summary.status).toBe('complete')
    const active = activeUuids(service)
    expect(summary.totalCount).toBe(active.length)
    expect(storedUuids()).toEqual(active)
    // The churn broke the first pass's proof, and a later pass made it.
    const passes = rawSnapshot(cache.currentSnapshot()).prepare(
      "SELECT value FROM snapshot_info WHERE key = 'passes'",
    )
    expect(Number(passes.pluck().get())).toBeGreaterThan(1)
  })

  it('keeps everyone, and logs no scope, without it', async () => {
    const { summary, queries, sandbox: service } = await sync({}, { scope: 'all' })
    expect(summary).toMatchObject({ status: 'complete', stored: service.employeeCount() })
    expect(queries.some((query) => query.has('statusFilter'))).toBe(false)
    expect(cache.runs.log.settingsOf(summary.id)).not.toHaveProperty('statusFilter')
  })
})
