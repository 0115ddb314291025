import type { ProfileList } from '../../../shared/domain/profiles'
import type { Settings } from '../../../shared/settings-schema'
import type { SetAsideInfo } from '../cache/set-aside-cache'
import { RosterDeskError } from '../errors'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { ProfileStore } from '../settings/profile-store'

export interface ProfileHandlerDeps {
  readonly profiles: ProfileStore
  /** How many employees a profile's cache holds; undefined when it cannot be read. */
  readonly employeeCount: (id: string) => number | undefined
  /** The tenant a profile's settings sign in to (Demo's is its sandbox's, whatever the setting says). */
  readonly tenantOf: (settings: Settings) => string
  /** Closes the active profile's services (cancelling a sync or export) and opens the other's. */
  readonly switchProfile: (id: string) => Promise<void>
  /** Removes a profile that is not active, with its cache and secrets. */
  readonly deleteProfile: (id: string) => Promise<void>
  /** A profile's saved employees set aside by an identity change (decision 039), if any. */
  readonly setAsideOf?: (id: string) => SetAsideInfo | undefined
  /** Puts a profile's set-aside employees back as its saved employees ('not-found' when there are none). */
  readonly restoreSetAside?: (id: string) => Promise<void>
  /** Tells the renderer the list changed. */
  readonly changed: () => void
}

export type ProfileChannel =
  | 'profiles:list'
  | 'profiles:switch'
  | 'profiles:create'
  | 'profiles:rename'
  | 'profiles:delete'
  | 'profiles:restore-set-aside'

/**
 * What the header's switcher and "Manage profiles" show: each profile's name, environment, tenant and saved
 * employees, whether the machine policy manages it, and which is active.
 */
export function profileList(
  profiles: ProfileStore,
  {
    employeeCount,
    tenantOf,
    setAsideOf,
  }: Pick<ProfileHandlerDeps, 'employeeCount' | 'tenantOf' | 'setAsideOf'>,
): ProfileList {
  return {
    activeId: profiles.activeId,
    profiles: profiles.list().map(({ id, name, settings }) => {
      const count = employeeCount(id)
      const setAside = setAsideOf?.(id)
      return {
        id,
        name,
        environment: settings.environment,
        tenantId: tenantOf(settings),
        ...(count === undefined ? {} : { employeeCount: count }),
        ...(setAside === undefined ? {} : { setAside }),
        ...(profiles.policy.isManaged(name) ? { managedByPolicy: true } : {}),
      }
    }),
  }
}

/** The `profiles:*` channels; names are checked by the ProfileStore with the shared rule. */
export function createProfileHandlers(deps: ProfileHandlerDeps): Pick<InvokeHandlers, ProfileChannel> {
  const list = async () => profileList(deps.profiles, deps)
  return {
    'profiles:list': list,
    'profiles:switch': async (id) => {
      await deps.switchProfile(id)
      return list()
    },
    'profiles:create': async (name, options) => {
      deps.profiles.create(name, options?.environment)
      deps.changed()
      return list()
    },
    'profiles:rename': async (id, name) => {
      deps.profiles.rename(id, name)
      deps.changed()
      return list()
    },
    'profiles:restore-set-aside': async (id) => {
      deps.profiles.get(id)
      if (deps.restoreSetAside === undefined || deps.setAsideOf?.(id) === undefined) {
        throw new RosterDeskError('not-found', 'This profile has no employees set aside to restore.')
      }
      await deps.restoreSetAside(id)
      deps.changed()
      return list()
    },
    'profiles:delete': async (id) => {
      await deps.deleteProfile(id)
      deps.changed()
      return list()
    },
  }
}
