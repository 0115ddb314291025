import type { AuthService } from '../auth/auth-service'
import { RosterDeskError } from '../errors'
import type { StartedSync, SyncService, SyncStartOptions } from '../sync/sync-service'

export interface BeginSyncDeps {
  readonly auth: Pick<AuthService, 'getState'>
  readonly sync: Pick<SyncService, 'begin'>
  /** The session's start options now (`syncStartOptions`, the CLI's too): read once the clerk is signed in. */
  readonly options: () => SyncStartOptions
}

/**
 * Starts a sync of the current environment with the current settings: the one way a run begins in the app, whether
 * the clerk pressed Sync or the scheduler found one due, so both follow the same rules (a signed-in clerk; 'busy'
 * while a run goes). Resolves once the run is logged; its outcome comes through SyncService.onFinished.
 */
export async function beginAppSync(deps: BeginSyncDeps): Promise<StartedSync> {
  if (deps.auth.getState().status !== 'signed-in') {
    throw new RosterDeskError(
      'not-signed-in',
      'Sign in before syncing. Your cached employees stay available.',
    )
  }
  return deps.sync.begin(deps.options())
}
