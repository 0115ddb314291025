import type { ProfileList } from '../../../shared/domain'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { ProfileStore } from '../settings/profile-store'

export interface ProfileHandlerDeps {
  readonly profiles: ProfileStore
  /** Closes the active profile's services (cancelling a sync or export) and opens the other's. */
  readonly switchProfile: (id: string) => Promise<void>
  /** Removes a profile that is not active, with its cache and secrets. */
  readonly deleteProfile: (id: string) => Promise<void>
  /** Tells the renderer the list changed. */
  readonly changed: () => void
}

export type ProfileChannel =
  'profiles:list' | 'profiles:switch' | 'profiles:create' | 'profiles:rename' | 'profiles:delete'

/** What the header's switcher shows: each profile's name, environment and tenant, and which is active. */
export function profileList(profiles: ProfileStore): ProfileList {
  return {
    activeId: profiles.activeId,
    profiles: profiles.list().map(({ id, name, settings }) => ({
      id,
      name,
      environment: settings.environment,
      tenantId: settings.tenantId,
    })),
  }
}

/** The `profiles:*` channels; names are checked by the ProfileStore with the shared rule. */
export function createProfileHandlers(deps: ProfileHandlerDeps): Pick<InvokeHandlers, ProfileChannel> {
  const list = async () => profileList(deps.profiles)
  return {
    'profiles:list': list,
    'profiles:switch': async (id) => {
      await deps.switchProfile(id)
      return list()
    },
    'profiles:create': async (name) => {
      deps.profiles.create(name)
      deps.changed()
      return list()
    },
    'profiles:rename': async (id, name) => {
      deps.profiles.rename(id, name)
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
