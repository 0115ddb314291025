import { existsSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { retentionNotice } from '../../../shared/policy-view'
import { lastSavedAt, writerIsActive } from '../cache/cache-age'
import type { CacheKey } from '../sqlite/cache-key'
import { errorCode } from '../cache/cache-move'
import { savedEmployeeCount } from '../cache/saved-employee-count'
import { deleteSetAside, setAsideDir } from '../cache/set-aside-cache'
import type { Clock } from '../clock'
import { fsyncDirectory } from '../durable-fs'
import type { Logger } from '../log/logger'
import type { CacheFolders } from '../cache/cache-folders'
import { CACHE_FILE_NAME } from '../settings/profile-store'
import type { PolicyInForce } from '../policy/policy-in-force'

const DAY_MS = 24 * 60 * 60 * 1000

/** The machine policy's rules for personal data (`personalData` in policy-schema.ts), the same for every profile. */
export interface PersonalDataRules {
  /** Saved employees (set-aside copies included) whose last complete sync is older than this are deleted at start. */
  readonly deleteUnsyncedAfterDays: number | undefined
  /** Signing out of a profile also deletes its saved employees. */
  readonly clearOnSignOut: boolean
}

/** The personal-data rules in force: the policy's, or none (nothing deleted for its age or at sign-out). */
export function personalDataRulesOf(inForce: PolicyInForce): PersonalDataRules {
  const rules = inForce.policy?.personalData
  return {
    deleteUnsyncedAfterDays: rules?.deleteUnsyncedAfterDays,
    clearOnSignOut: rules?.clearOnSignOut ?? false,
  }
}

export interface RetentionSweepDeps {
  readonly clock: Pick<Clock, 'now'>
  /** The key of every cache file: a catalog that does not open with it counts from its file's time. */
  readonly key: CacheKey
  readonly logger: Pick<Logger, 'info' | 'warn'>
  /**
   * How a cache folder and its set-aside copy are deleted: the real deletions by default; a test gives one that
   * fails as Windows does while another process has the SQLite file open (EBUSY).
   */
  readonly remove?: {
    readonly cache: (cacheDir: string) => void
    readonly setAside: (cacheDir: string) => void
  }
}

const REMOVE = { cache: removeCacheFolder, setAside: deleteSetAside } as const

/**
 * One cache the sweep looks at: a profile's catalog file (its folder is the cache, `profileCacheDir`; its
 * set-aside copy, if any, is that folder's sibling), named in the log by its profile.
 */
export interface SweptCache {
  readonly profileId: string
  readonly catalog: string
}

/** What a sweep deleted: how many caches and set-aside copies, and the clerk's one notice (undefined: none). */
export interface RetentionSweep {
  readonly deletedCaches: number
  readonly deletedSetAside: number
  readonly notice: string | undefined
}

/**
 * `personalData.deleteUnsyncedAfterDays`: deletes each cache, and each set-aside copy beside it (decision 039),
 * whose last complete sync is older than the days allowed (a cache never synced completely counts from its
 * catalog file's time). Run where nothing has these caches open: the app core before it opens the active
 * profile's session, and only there (the CLI cannot tell whether the app has a cache open: decision 043). A cache a live process is writing (a CLI sync)
 * is left for the next start, and so is one whose deletion fails (never failing the start). Each deletion is
 * logged with the profile, the count and the age, never an employee's data.
 */
export function deleteExpiredCaches(
  rules: PersonalDataRules,
  caches: readonly SweptCache[],
  deps: RetentionSweepDeps,
): RetentionSweep {
  const days = rules.deleteUnsyncedAfterDays
  if (days === undefined) return { deletedCaches: 0, deletedSetAside: 0, notice: undefined }
  const cutoff = deps.clock.now() - days * DAY_MS
  let deletedCaches = 0
  let deletedSetAside = 0
  for (const { profileId, catalog: catalogPath } of caches) {
    const cacheDir = dirname(catalogPath)
    const expired = (catalog: string, what: string): boolean => {
      const savedAt = lastSavedAt(catalog, deps.key)
      if (savedAt === undefined || savedAt >= cutoff) return false
      if (writerIsActive(catalog)) {
        deps.logger.warn(
          `Machine policy: profile ${profileId}'s ${what} is being synced; kept until the next start`,
        )
        return false
      }
      const count = savedEmployeeCount(catalog, deps.key)
      deps.logger.info(
        `Machine policy: deleting profile ${profileId}'s ${what} (${count ?? 'unknown number of'} employees, ` +
          `last synced ${new Date(savedAt).toISOString()}): personalData.deleteUnsyncedAfterDays is ${days}`,
      )
      return true
    }
    // A deletion that fails (EBUSY: another process has the file open) keeps the cache for the next start and is
    // logged by its error code only (the message holds the path); the start goes on.
    const deleted = (what: string, remove: (dir: string) => void): boolean => {
      try {
        remove(cacheDir)
        return true
      } catch (error) {
        deps.logger.warn(
          `Machine policy: profile ${profileId}'s ${what} could not be deleted (${errorCode(error) ?? 'unknown error'}); kept until the next start`,
        )
        return false
      }
    }
    const remove = deps.remove ?? REMOVE
    const asideExpired = expired(join(setAsideDir(cacheDir), basename(catalogPath)), 'set-aside employees')
    if (asideExpired && deleted('set-aside employees', remove.setAside)) deletedSetAside += 1
    if (expired(catalogPath, 'saved employees') && deleted('saved employees', remove.cache))
      deletedCaches += 1
  }
  const deleted = deletedCaches + deletedSetAside
  return {
    deletedCaches,
    deletedSetAside,
    notice: deleted > 0 ? retentionNotice(days) : undefined,
  }
}

/**
 * Deletes a profile's saved employees: its whole cache folder (catalog, snapshots, change logs) and any copy set
 * aside beside it, the removal made durable; the next open finds the profile empty. Nothing may have it open.
 */
export function clearSavedEmployees(cacheDir: string): void {
  removeCacheFolder(cacheDir)
  deleteSetAside(cacheDir)
}

/** Deletes a cache folder (not its set-aside copy), the removal made durable (its parent folder synced). */
function removeCacheFolder(cacheDir: string): void {
  rmSync(cacheDir, { recursive: true, force: true })
  fsyncDirectory(dirname(cacheDir))
}

/**
 * With a key of this start only (no keychain, no key file allowed), every profile's saved employees written at an
 * earlier start cannot be read: they are deleted (set-aside copies too) rather than set aside at each start, except
 * a cache a live process is writing (a `cli sync`, with its own key) and one `key` opens (encrypted at this start,
 * from an earlier version's plain cache), left as they are.
 */
export function clearUnreadableCaches(
  profiles: ReadonlyArray<{ readonly id: string }>,
  caches: Pick<CacheFolders, 'cacheDir'>,
  key: CacheKey,
  logger: Pick<Logger, 'info' | 'warn'>,
): void {
  for (const profile of profiles) {
    const dir = caches.cacheDir(profile.id)
    const catalog = join(dir, CACHE_FILE_NAME)
    if (writerIsActive(catalog)) continue
    if (existsSync(catalog) && savedEmployeeCount(catalog, key) !== undefined) continue
    try {
      clearSavedEmployees(dir)
    } catch (error) {
      logger.warn(`Cache key: could not delete profile ${profile.id}'s unreadable saved employees`, error)
    }
  }
  logger.info('Cache key: kept in memory only (no keychain); saved employees are synced again at each start')
}
