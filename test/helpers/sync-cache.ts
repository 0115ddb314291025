import type { SyncRunSummary } from '../../src/shared/domain/sync'
import type { CacheDatabase } from '../../src/main/core/cache/cache-database'
import { runSync } from '../../src/main/core/sync/sync-engine'
import type { SyncRunOptions } from '../../src/main/core/sync/sync-engine'
import { FakeTokens, fakeClock } from './sync-fakes'
import type { FakeListService } from './sync-fakes'

/** Small pages, a few in flight: runs over the fakes' few hundred employees still take several pages. */
export const FAKE_SYNC_OPTIONS = {
  baseUrl: 'https://payroll.example',
  pageSize: 10,
  concurrency: 3,
} as const satisfies SyncRunOptions

/** One run of the real sync engine against `service`, with fresh tokens, a clock that never waits and no jitter. */
export function syncFromFake(
  cache: CacheDatabase,
  service: FakeListService,
  options: Partial<SyncRunOptions> = {},
): Promise<SyncRunSummary> {
  return runSync(
    { cache, fetch: service.fetch, tokens: new FakeTokens(), clock: fakeClock().clock, random: () => 0.5 },
    { ...FAKE_SYNC_OPTIONS, ...options },
  )
}
