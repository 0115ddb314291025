import type { RetryPolicy } from '../api/retry-policy'
import type { AuthService } from '../auth/auth-service'
import { RosterDeskError } from '../errors'
import type { ResolvedEnvironment } from '../settings/resolve-environment'
import type { SettingsStore } from '../settings/settings-store'
import type { StartedSync, SyncService } from '../sync/sync-service'

export interface BeginSyncDeps {
  readonly auth: Pick<AuthService, 'getState'>
  readonly settings: Pick<SettingsStore, 'get'>
  readonly environment: () => ResolvedEnvironment
  readonly sync: Pick<SyncService, 'begin'>
  /** How list requests are retried (the engine's default policy unless given: the browser tests shorten it). */
  readonly retry?: Partial<RetryPolicy>
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
  const settings = deps.settings.get()
  const resolved = deps.environment()
  return deps.sync.begin({
    baseUrl: resolved.baseUrl,
    environment: resolved.environment,
    ...(resolved.tenantId === '' ? {} : { tenantId: resolved.tenantId }),
    pageSize: settings.pageSize,
    // The largest page the service serves; the settings' page size is what a refusal falls back to.
    pageSizing: 'largest-served',
    concurrency: settings.concurrency,
    trackedPayCycles: settings.trackedPayCycles,
    scope: settings.syncScope,
    limits: {
      requestTimeoutSeconds: settings.requestTimeoutSeconds,
      syncDeadlineMinutes: settings.syncDeadlineMinutes,
      maxEmployees: settings.maxEmployees,
    },
    ...(deps.retry === undefined ? {} : { retry: deps.retry }),
  })
}
