import type { AppInfo } from '../../../shared/domain/app-info'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { SettingsStore } from '../settings/settings-store'

export interface AppHandlerDeps {
  readonly appInfo: Omit<AppInfo, 'environment'>
  readonly settings: SettingsStore
}

export type AppChannel = 'app:get-info'

/** The `app:*` channel: the app's name, version and platform, with the environment the settings name now. */
export function createAppHandlers(deps: AppHandlerDeps): Pick<InvokeHandlers, AppChannel> {
  return {
    'app:get-info': async () => ({ ...deps.appInfo, environment: deps.settings.get().environment }),
  }
}
