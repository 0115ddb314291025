import type { Clock } from '../clock'
import type { InvokeHandlers } from '../ipc/dispatch'
import { createAppHandlers, type AppHandlerDeps } from './app-handlers'
import { createAuthHandlers, type AuthHandlerDeps } from './auth-handlers'
import { createDiagnosticsHandlers, type DiagnosticsHandlerDeps } from './diagnostics-handlers'
import { createChangesHandlers, type ChangesHandlerDeps } from './changes-handlers'
import { createEmployeesHandlers, type EmployeesHandlerDeps } from './employees-handlers'
import { createExportHandlers, type ExportHandlerDeps } from './export-handlers'
import { createNetworkHandlers, type NetworkHandlerDeps } from './network-handlers'
import { createProfileHandlers, type ProfileHandlerDeps } from './profile-handlers'
import { createSettingsHandlers, settingsViewOf, type SettingsHandlerDeps } from './settings-handlers'
import { createSyncHandlers, type SyncHandlerDeps } from './sync-handlers'
import { createUpdateHandlers } from './update-handlers'
import { createViewHandlers, type ViewHandlerDeps } from './view-handlers'

/** What the channels that answer from the active profile's services need (every domain but profiles and views). */
export interface HandlerDeps
  extends
    AppHandlerDeps,
    AuthHandlerDeps,
    SettingsHandlerDeps,
    SyncHandlerDeps,
    EmployeesHandlerDeps,
    ChangesHandlerDeps,
    ExportHandlerDeps,
    DiagnosticsHandlerDeps,
    Omit<NetworkHandlerDeps, 'settingsView' | 'systemLocale'> {
  /** The whole clock: Test connection times its steps with it; the other domains read only `now`. */
  readonly clock: Clock
}

/**
 * One handler per contract channel, one file per channel domain (`<domain>-handlers.ts`), put together here.
 * Arguments arrive validated by dispatchInvoke; handlers translate between the contract and the services and add
 * the rules that belong to the app rather than to one service (a sync needs a signed-in user; the save location
 * comes from main's dialog, never from the renderer). Each domain reads its services through `deps` at every
 * call, so getters there (createAppCore's, over the active profile's session) answer from whichever is current.
 */
export function createHandlers(
  deps: HandlerDeps,
  profiles: ProfileHandlerDeps,
  views: ViewHandlerDeps,
): InvokeHandlers {
  return {
    ...createAppHandlers(deps),
    ...createAuthHandlers(deps),
    ...createSettingsHandlers(deps),
    ...createSyncHandlers(deps),
    ...createEmployeesHandlers(deps),
    ...createChangesHandlers(deps),
    ...createExportHandlers(deps),
    ...createDiagnosticsHandlers(deps),
    ...createNetworkHandlers(networkDeps(deps)),
    ...createProfileHandlers(profiles),
    ...createViewHandlers(views),
    ...createUpdateHandlers(),
  }
}

/**
 * The network handlers' view of `deps`, read through its getters at every call (the active profile's services).
 * Built whole here, never spread: a spread would read each getter once, and keep the first profile's sign-in.
 */
function networkDeps(deps: HandlerDeps): NetworkHandlerDeps {
  return {
    settings: deps.settings,
    get sync() {
      return deps.sync
    },
    get auth() {
      return deps.auth
    },
    fetch: deps.fetch,
    clock: deps.clock,
    demoEnvironment: deps.demoEnvironment,
    profileName: deps.profileName,
    network: deps.network,
    settingsView: () => settingsViewOf(deps),
    systemLocale: deps.appInfo.systemLocale,
  }
}
