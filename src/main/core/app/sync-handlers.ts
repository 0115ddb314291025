import type { AuthService } from '../auth/auth-service'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { ResolvedEnvironment } from '../settings/resolve-environment'
import type { SettingsStore } from '../settings/settings-store'
import type { SyncService } from '../sync/sync-service'
import { beginAppSync } from './begin-sync'

export interface SyncHandlerDeps {
  readonly auth: AuthService
  readonly settings: SettingsStore
  readonly environment: () => ResolvedEnvironment
  readonly sync: SyncService
}

export type SyncChannel = 'sync:start' | 'sync:cancel' | 'sync:get-status'

/** The `sync:*` channels: a run begins as every run in the app does (beginAppSync), and is cancelled or watched. */
export function createSyncHandlers(deps: SyncHandlerDeps): Pick<InvokeHandlers, SyncChannel> {
  return {
    'sync:start': async () => {
      // Answers once the run is logged; its outcome reaches the renderer only as `sync:finished`.
      const { runId } = await beginAppSync(deps)
      return { runId }
    },
    'sync:cancel': async () => deps.sync.cancel(),
    'sync:get-status': async () => deps.sync.getStatus(),
  }
}
