import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveFormatLocale } from '../../../shared/locale-format'
import { signOutDeletedNotice } from '../../../shared/policy-view'
import type { CacheFolders } from '../cache/cache-folders'
import { encryptPlainCaches } from '../cache/encrypt-plain-caches'
import { deleteSetAside, readSetAside } from '../cache/set-aside-cache'
import type { Clock } from '../clock'
import { ExportMemory } from '../export/export-memory'
import { tightenOlderInstallOnce } from '../owner-only'
import { deleteProfileSecrets } from '../secrets/secret-store'
import { CACHE_FILE_NAME, FIRST_PROFILE_ID } from '../settings/profile-store'
import { MemoryKeyValueBackend } from '../settings/settings-store'
import type { CacheKey } from '../sqlite/cache-key'
import type { CacheKeyKept } from '../secrets/app-cache-key'
import type { Logger } from '../log/logger'
import type { SecretVault } from '../secrets/secret-store'
import type { KeyValueBackend, SettingsStore } from '../settings/settings-store'
import { sweepExportFolder, sweepLeftovers } from './leftovers'
import type { ProfileSession } from './open-session'
import {
  clearSavedEmployees,
  clearUnreadableCaches,
  deleteExpiredCaches,
  type PersonalDataRules,
} from './personal-data'

/**
 * What the app core does with the profiles' saved employees outside a session: at start, before any cache opens
 * (settleCachesAtStart), and when a profile is deleted or signed out of under the policy's clearOnSignOut.
 */

/** The part of the app core's dependencies (create-app-core.ts, AppCoreDeps) these use. */
export interface SavedEmployeesDeps {
  readonly appInfo: { readonly systemLocale?: string }
  readonly dataDir: string
  readonly cacheKey: CacheKey
  readonly cacheKeyKept?: CacheKeyKept
  readonly settings: SettingsStore
  readonly secrets: SecretVault
  readonly logger: Logger
  readonly uiState?: KeyValueBackend
  readonly tempDir?: string
}

/**
 * Before any cache opens: each profile's caches an earlier version wrote in clear are encrypted with the user's key
 * (encrypt-plain-caches.ts; one that cannot be, e.g. held by a running `cli sync`, is left for the profile's open,
 * which tries again), then the organisation's retention rule (personal-data.ts), then what a crash left. Returns
 * the clerk's notices (the retention's, if it deleted any).
 */
export function settleCachesAtStart(
  deps: SavedEmployeesDeps,
  caches: CacheFolders,
  clock: Clock,
  personalData: PersonalDataRules,
): string[] {
  const profiles = deps.settings.profiles.list()
  if (deps.cacheKeyKept !== 'memory') {
    for (const profile of profiles) encryptProfileCaches(deps, caches, profile.id)
  }
  const retention = deleteExpiredCaches(
    personalData,
    profiles.map((profile) => ({
      profileId: profile.id,
      catalog: join(caches.cacheDir(profile.id), CACHE_FILE_NAME),
    })),
    { clock, key: deps.cacheKey, logger: deps.logger },
  )
  sweepAtStart(deps, caches)
  return retention.notice === undefined ? [] : [retention.notice]
}

/** One profile's plain caches encrypted (at start); a failure is logged, the profile's open tries again. */
function encryptProfileCaches(deps: SavedEmployeesDeps, caches: CacheFolders, id: string): void {
  try {
    const report = encryptPlainCaches(caches.cacheDir(id), deps.cacheKey, { logger: deps.logger })
    if (report.encrypted.length > 0)
      deps.logger.info(
        `Start: profile ${id}'s saved employees encrypted (${report.encrypted.length} file(s))`,
      )
  } catch (error) {
    deps.logger.warn(`Start: profile ${id}'s saved employees could not be encrypted yet`, error)
  }
}

/**
 * Sweeps what an earlier run left: the caches no key of this start opens (clearUnreadableCaches), then
 * (leftovers.ts) print pages and deleted profiles' folders, then takes others' rights off what older versions
 * wrote with the umask's modes (owner-only.ts), then the part files in each profile's last export folder in the
 * background (it may be a slow network share); "earlier" is before this process started.
 */
function sweepAtStart(deps: SavedEmployeesDeps, caches: CacheFolders): void {
  if (deps.cacheKeyKept === 'memory')
    clearUnreadableCaches(deps.settings.profiles.list(), caches, deps.cacheKey, deps.logger)
  const startedAt = performance.timeOrigin
  const profiles = deps.settings.profiles
  sweepLeftovers({
    tempDir: deps.tempDir ?? tmpdir(),
    cacheRoots: [caches.root, deps.dataDir],
    wasDeleted: (id) => profiles.wasDeleted(id),
    startedAt,
    logger: deps.logger,
  })
  const tightened = tightenOlderInstallOnce(deps.dataDir, [caches.root])
  if (tightened > 0)
    deps.logger.info(`Start: ${tightened} folder(s) and file(s) made readable by this account only`)
  for (const folder of new ExportMemory(deps.uiState ?? new MemoryKeyValueBackend()).folders())
    void sweepExportFolder({ folder, startedAt, logger: deps.logger }).catch(() => undefined)
}

/**
 * Removes a profile that is not active, and its data with it: the saved employees (the whole folder, snapshots
 * and change files included, and any set aside) and every secret it had, then its entry in the settings and its
 * last export folder. The data goes first: a deletion that fails half way leaves the profile listed, to be deleted
 * again, never a folder of employees no profile names (those an older version left are swept at start,
 * leftovers.ts). Nothing has these open.
 */
export async function deleteProfile(
  deps: SavedEmployeesDeps,
  caches: CacheFolders,
  id: string,
): Promise<void> {
  const profiles = deps.settings.profiles
  profiles.checkDeletable(id)
  const cacheDir = caches.cacheDir(id)
  rmSync(caches.profileDir(id), { recursive: true, force: true })
  deleteSetAside(cacheDir)
  await deleteProfileSecrets(deps.secrets, id, FIRST_PROFILE_ID)
  profiles.delete(id)
  new ExportMemory(deps.uiState ?? new MemoryKeyValueBackend()).forget(id)
}

/**
 * The machine policy's `personalData.clearOnSignOut`, after a sign-out deleted the tokens: the active session is
 * closed (a sync or an export running is cancelled and waited for, as a profile switch does), the profile's
 * saved employees and any set aside are deleted, and the session opens again, empty. When there were any,
 * `notices` (what the policy view tells the clerk once) gets one saying how many went, and whose.
 */
export async function clearOnSignOut(
  deps: SavedEmployeesDeps,
  caches: CacheFolders,
  active: () => ProfileSession,
  withSessionClosed: (work: () => void) => Promise<void>,
  notices: string[],
): Promise<void> {
  const id = active().profileId
  const deletes = {
    saved: active().employeeCount(),
    setAside: readSetAside(caches.cacheDir(id))?.employeeCount ?? 0,
  }
  await withSessionClosed(() => clearSavedEmployees(caches.cacheDir(id)))
  const profile = deps.settings.profiles.get(id)
  const locale = resolveFormatLocale(profile.settings.formatLocale, deps.appInfo.systemLocale)
  const notice = signOutDeletedNotice(deletes, profile.name, locale)
  if (deletes.saved + deletes.setAside > 0 && !notices.includes(notice)) notices.push(notice)
  deps.logger.info(
    `Machine policy: deleted profile ${id}'s saved employees at sign-out (personalData.clearOnSignOut)`,
  )
}
