import { join } from 'node:path'
import type { Settings } from '../../../shared/settings-schema'
import { newProfileName, setAsideRename, type IdentityChoice } from '../../../shared/source-identity'
import { hasCurrentSnapshot } from '../cache/saved-employee-count'
import {
  deleteSetAside,
  readSetAside,
  restoreSetAside,
  setAsideCache,
  type SetAsideInfo,
} from '../cache/set-aside-cache'
import type { Clock } from '../clock'
import { RosterDeskError } from '../errors'
import type { CacheFolders } from '../cache/cache-folders'
import type { CacheKey } from '../sqlite/cache-key'
import { CACHE_FILE_NAME } from '../settings/profile-store'
import type { SettingsStore } from '../settings/settings-store'
import type { ProfileSession } from './open-session'

/** What changing a profile's data identity needs from the app core that owns the session. */
export interface IdentityChangeDeps {
  /** Where each profile's employee cache lives (decision 046). */
  readonly caches: CacheFolders
  /** The key of every cache file (another profile's catalog is read with it). */
  readonly cacheKey: CacheKey
  readonly settings: SettingsStore
  readonly clock: Clock
  /** The active profile's session now. */
  readonly session: () => ProfileSession
  /** Closes the active session, runs `work`, and opens the active profile's session again (also when it threw). */
  readonly withSessionClosed: (work: () => void) => Promise<void>
  readonly switchProfile: (id: string) => Promise<void>
  /** Tells the renderer the profile list changed. */
  readonly changed: () => void
}

/** The identity-change actions of decision 039, over the app core's current session. */
export interface IdentityActions {
  changeIdentity(choice: IdentityChoice, settings: Settings): Promise<void>
  setAsideOf(id: string): SetAsideInfo | undefined
  restoreSetAside(id: string): Promise<void>
}

/**
 * Changing a profile's environment, service address or tenant, the two ways a clerk may choose (decision 039):
 * `new-profile` leaves this profile as it was and switches to a new one holding `settings`; `set-aside` moves
 * this profile's saved employees aside (with whose they were, when, and how many; an earlier set-aside copy is
 * replaced), saves `settings`, renames a profile named after its old environment (`setAsideRename`; never one the
 * machine policy manages, which keeps its policy name) and opens
 * the profile empty until it syncs. Restoring puts the set-aside employees back (the settings stay the new ones;
 * the screen and exports name the rows' real source from their run log).
 */
export function identityActions(deps: IdentityChangeDeps): IdentityActions {
  const profiles = deps.settings.profiles
  const cacheDirOf = (id: string) => deps.caches.cacheDir(id)
  const setAsideOf = (id: string): SetAsideInfo | undefined => {
    const dir = cacheDirOf(id)
    const info = readSetAside(dir)
    if (info === undefined) return undefined
    // A complete sync since (the CLI's too, which does not delete it) ends the chance to restore: deleted now.
    const session = deps.session()
    const synced =
      id === session.profileId
        ? session.sync.getStatus().lastComplete !== undefined
        : hasCurrentSnapshot(join(dir, CACHE_FILE_NAME), deps.cacheKey)
    if (!synced) return info
    deleteSetAside(dir)
    return undefined
  }
  return {
    async changeIdentity(choice, settings) {
      if (choice === 'new-profile') {
        const name = newProfileName(
          settings.environment,
          profiles.list().map((p) => p.name),
        )
        const created = profiles.create(name, settings.environment)
        profiles.saveSettings(created.id, settings)
        await deps.switchProfile(created.id)
        return
      }
      const session = deps.session()
      if (session.sync.isRunning) {
        throw new RosterDeskError(
          'busy',
          'Settings cannot change while a sync is running. Wait or cancel it.',
        )
      }
      const status = session.sync.getStatus()
      const info: SetAsideInfo = {
        ...status.source,
        setAsideAt: new Date(deps.clock.now()).toISOString(),
        employeeCount: status.employeeCount,
      }
      const id = profiles.activeId
      const current = profiles.list().find((p) => p.id === id)
      // A profile the machine policy manages keeps its policy name (it cannot be renamed: ProfileStore.rename).
      const renamed =
        current === undefined || profiles.isManaged(id)
          ? undefined
          : setAsideRename(
              current.name,
              deps.settings.get().environment,
              settings.environment,
              profiles
                .list()
                .filter((p) => p.id !== id)
                .map((p) => p.name),
            )
      await deps.withSessionClosed(() => {
        // One set-aside copy per profile: an earlier one is replaced (the confirmation said so).
        setAsideCache(cacheDirOf(id), info)
        profiles.saveSettings(id, settings)
        if (renamed !== undefined) profiles.rename(id, renamed)
      })
      deps.settings.notifyChanged()
      deps.changed()
    },
    setAsideOf,
    async restoreSetAside(id) {
      if (setAsideOf(id) === undefined) throw noneSetAside()
      if (id !== profiles.activeId) {
        if (!restoreSetAside(cacheDirOf(id))) throw noneSetAside()
        return
      }
      if (deps.session().sync.isRunning) {
        throw new RosterDeskError('busy', 'Wait for the sync to end (or cancel it) before restoring.')
      }
      let restored = false
      await deps.withSessionClosed(() => {
        restored = restoreSetAside(cacheDirOf(id))
      })
      if (!restored) throw noneSetAside()
    },
  }
}

function noneSetAside(): RosterDeskError {
  return new RosterDeskError('not-found', 'This profile has no employees set aside to restore.')
}
