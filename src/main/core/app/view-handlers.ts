import type { Clock } from '../clock'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { ViewStore } from '../settings/view-store'

export interface ViewHandlerDeps {
  readonly views: ViewStore
  /** The profile whose views the menu shows: the active one, read at each call (it changes with a switch). */
  readonly activeProfileId: () => string
  /** Whether a profile still exists (a current view sent for a deleted one is dropped). */
  readonly profileExists: (id: string) => boolean
  readonly clock: Pick<Clock, 'now'>
}

export type ViewChannel =
  'views:list' | 'views:save' | 'views:rename' | 'views:delete' | 'views:get-current' | 'views:set-current'

/**
 * The `views:*` channels: the active profile's saved views, and each profile's view on screen. States arrive
 * checked by the contract's viewStateSchema; names are checked by the ViewStore with the shared rule. Column
 * names are not checked against the cache here: a view outlives syncs, and whoever applies it drops columns the
 * data no longer has (the table) or says which one is missing (an export).
 */
export function createViewHandlers(deps: ViewHandlerDeps): Pick<InvokeHandlers, ViewChannel> {
  const list = async () => deps.views.list(deps.activeProfileId())
  return {
    'views:list': list,
    'views:save': async (name, state, replace) => {
      deps.views.save(deps.activeProfileId(), { name, state, replace, savedAt: new Date(deps.clock.now()) })
      return list()
    },
    'views:rename': async (id, name) => {
      deps.views.rename(deps.activeProfileId(), id, name)
      return list()
    },
    'views:delete': async (id) => {
      deps.views.delete(deps.activeProfileId(), id)
      return list()
    },
    'views:get-current': async () => {
      const profileId = deps.activeProfileId()
      return { profileId, state: deps.views.current(profileId) ?? null }
    },
    'views:set-current': async (profileId, state) => {
      if (!deps.profileExists(profileId)) return false
      deps.views.setCurrent(profileId, state)
      return true
    },
  }
}
