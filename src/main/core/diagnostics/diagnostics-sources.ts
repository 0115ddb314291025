import { join } from 'node:path'
import type { Settings } from '../../../shared/settings-schema'
import type { CacheFolders } from '../cache/cache-folders'
import { recentSyncRuns } from '../cache/saved-employee-count'
import { CACHE_FILE_NAME } from '../settings/profile-store'
import type { CacheKey } from '../sqlite/cache-key'
import { DIAGNOSTICS_RUNS, type DiagnosticsProfile } from './diagnostics-parts'

/** A profile as the app's profile store (or the CLI's read of it) lists it. */
export interface ListedProfile {
  readonly id: string
  readonly name: string
  readonly settings: Settings
}

/**
 * Every profile as a diagnostics file describes it, with its last DIAGNOSTICS_RUNS finished runs read from its
 * catalog (read-only, beside a session that may hold it open) where `caches` says it lives.
 */
export function diagnosticsProfiles(
  profiles: readonly ListedProfile[],
  activeId: string | undefined,
  caches: CacheFolders,
  /** The user's cache key, which the catalogs are encrypted with; undefined: runs not read. */
  key: CacheKey | undefined,
): DiagnosticsProfile[] {
  return profiles.map((profile) => ({
    id: profile.id,
    name: profile.name,
    active: profile.id === activeId,
    settings: profile.settings,
    runs: recentSyncRuns(join(caches.cacheDir(profile.id), CACHE_FILE_NAME), key, DIAGNOSTICS_RUNS),
  }))
}
