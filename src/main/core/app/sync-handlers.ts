import type { InvokeHandlers } from '../ipc/dispatch'
import type { StartedSync, SyncService } from '../sync/sync-service'

export interface SyncHandlerDeps {
  readonly sync: SyncService
  /** Begins a sync as every run in the app begins (the session's beginAppSync). */
  readonly beginSync: () => Promise<StartedSync>
}

export type SyncChannel = 'sync:start' | 'sync:cancel' | 'sync:get-status'

/** The `sync:*` channels: a run begins as every run in the app does (`beginSync`), and is cancelled or watched. */
export function createSyncHandlers(deps: SyncHandlerDeps): Pick<InvokeHandlers, SyncChannel> {
  return {
    'sync:start': async () => {
      // Answers once the run is logged; its outcome reaches the renderer only as `sync:finished`.
      const { runId } = await deps.beginSync()
      return { runId }
    },
    'sync:cancel': async () => deps.sync.cancel(),
    'sync:get-status': async () => deps.sync.getStatus(),
  }
}
