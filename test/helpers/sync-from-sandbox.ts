import type { SyncRunSummary } from '../../src/shared/domain/sync'
import type { CacheDatabase } from '../../src/main/core/cache/cache-database'
import { systemClock } from '../../src/main/core/clock'
import { RosterDeskError } from '../../src/main/core/errors'
import type { SyncStartOptions } from '../../src/main/core/sync/sync-service'
import { SyncService } from '../../src/main/core/sync/sync-service'
import type { SandboxHandle } from '../../src/main/sandbox/index'

/**
 * The real sync service over `cache`, signed in with a token the sandbox issued (no refresh: a refused token
 * fails the run).
 */
export function sandboxSyncService(cache: CacheDatabase, sandbox: SandboxHandle): SyncService {
  const { accessToken } = sandbox.issueTokens()
  return new SyncService({
    cache,
    fetch,
    clock: systemClock,
    random: Math.random,
    tokens: {
      getAccessToken: async () => accessToken,
      handleUnauthorized: async () => {
        throw new RosterDeskError('not-signed-in', 'The test token was refused.')
      },
    },
  })
}

/**
 * Fills `cache` with one complete sync of the sandbox, through the real sync service (sandboxSyncService). For
 * tests about what comes after a sync: a run that does not complete fails the test.
 */
export async function syncFromSandbox(
  cache: CacheDatabase,
  sandbox: SandboxHandle,
  options: Omit<SyncStartOptions, 'baseUrl'> = { pageSize: 250 },
): Promise<SyncRunSummary> {
  const summary = await sandboxSyncService(cache, sandbox).start({ baseUrl: sandbox.baseUrl, ...options })
  if (summary.status !== 'complete')
    throw new Error(`the test sync ended ${summary.status}: ${summary.error}`)
  return summary
}
