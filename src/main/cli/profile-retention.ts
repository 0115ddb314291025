import { systemClock } from '../core/clock'
import { deleteExpiredCaches, personalDataRulesOf } from '../core/cache/personal-data'
import { NO_POLICY } from '../core/policy/policy-in-force'
import { writeLine, type CacheCommandIo } from './cache-command-args'

/**
 * The machine policy's `personalData.deleteUnsyncedAfterDays` in the CLI, as the app applies it at start: before a
 * command opens a profile's cache (`--profile NAME`, the app's own cache for that profile), the cache and any copy
 * set aside beside it are deleted when their last complete sync is older than the days allowed (personal-data.ts,
 * the app's function), logged, and said once on stderr. A cache named by `--db FILE` is the script's own file
 * and is never deleted by the CLI. `profileCacheFile` is the profile's cache file (`CliProfile.db`), or
 * undefined when the command reads no profile's cache.
 */
export function expireProfileCache(
  io: Pick<CacheCommandIo, 'stderr' | 'logger' | 'policy'>,
  profileName: string,
  profileCacheFile: string | undefined,
): void {
  if (profileCacheFile === undefined) return
  const swept = deleteExpiredCaches(
    personalDataRulesOf(io.policy ?? NO_POLICY),
    [{ profileId: `"${profileName}"`, catalog: profileCacheFile }],
    { clock: systemClock, logger: io.logger },
  )
  if (swept.notice !== undefined) writeLine(io.stderr, swept.notice)
}
