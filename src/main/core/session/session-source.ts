import type { SyncRunSummary } from '../../../shared/domain/sync'
import type { SyncLimitSetting } from '../../../shared/settings-rules'
import type { Settings } from '../../../shared/settings-schema'
import type { RetryPolicy } from '../api/retry-policy'
import type { RunSettings } from '../cache/run-log'
import type { ExportContext } from '../export/export-runner'
import type { SyncStartOptions } from '../sync/sync-service'

/** The settings a sync runs by: the profile's (the app), or the command line's over the profile's (the CLI). */
export type SyncSettings = Pick<
  Settings,
  'pageSize' | 'concurrency' | 'trackedPayCycles' | 'syncScope' | SyncLimitSetting
>

/**
 * Where a session's syncs read from and how, as its host resolved them now: the app from the active profile's
 * settings (`resolveEnvironment`), the CLI from its flags over the profile's settings (service-flags.ts).
 */
export interface SessionSource {
  readonly settings: SyncSettings
  /** The service: `environment` ('demo', 'staging', …) is absent only when nothing names it (a bare --base-url). */
  readonly service: { readonly environment?: string; readonly baseUrl: string; readonly tenantId: string }
}

/**
 * The options every sync starts with, the app's (the Sync button, the scheduler) and the CLI's alike: the service
 * and the environment it belongs to (recorded in the run log, which names the rows' source), the settings' page
 * size, concurrency, pay cycles, scope and limits.
 */
export function syncStartOptions(source: SessionSource, retry?: Partial<RetryPolicy>): SyncStartOptions {
  const { settings, service } = source
  return {
    baseUrl: service.baseUrl,
    ...(service.environment === undefined ? {} : { environment: service.environment }),
    ...(service.tenantId === '' ? {} : { tenantId: service.tenantId }),
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
    ...(retry === undefined ? {} : { retry }),
  }
}

/** What an export's context is made of. */
export interface ExportContextFacts {
  /** The last complete sync, and what its run log recorded of where it read from. */
  readonly lastComplete: SyncRunSummary | undefined
  readonly run: RunSettings | undefined
  /** The session's source now; absent when the host knows none (the CLI's --db without --profile). */
  readonly source: SessionSource | undefined
  /** What the command line names the source as (the CLI's --environment, --tenant), over everything else. */
  readonly named?: { readonly environment?: string; readonly tenantId?: string }
  readonly profile?: string
  readonly appVersion?: string
}

/**
 * Every export's context, the app's and the CLI's: where the sync that filled the cache read from (its run log
 * entry, decision 039), not today's setting, so a file made after the settings changed still names the data's
 * real origin; the session's source only for what the run log did not record, then the address synced from.
 */
export function exportContextOf(facts: ExportContextFacts): ExportContext {
  const { run, source, named } = facts
  return {
    ...(facts.profile === undefined ? {} : { profile: facts.profile }),
    environment:
      named?.environment ?? run?.environment ?? source?.service.environment ?? run?.baseUrl ?? 'not recorded',
    tenantId: named?.tenantId ?? run?.tenantId ?? source?.service.tenantId ?? '',
    syncedAt: facts.lastComplete ? new Date(facts.lastComplete.endedAt) : null,
    ...(run?.statusFilter === undefined ? {} : { statusFilter: run.statusFilter }),
    ...(facts.appVersion === undefined ? {} : { appVersion: facts.appVersion }),
  }
}
