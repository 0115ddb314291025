import type { SyncProgress } from '../../../shared/domain/sync'
import {
  checkValue,
  serviceAddressSchema,
  settingsSchema,
  syncLimitSchemas,
} from '../../../shared/settings-schema'
import { SYNC_LIMIT_DEFAULTS } from '../../../shared/settings-rules'
import type { SyncScope } from '../../../shared/settings-rules'
import type { FetchLike } from '../api/fetch-like'
import { ACTIVE_STATUS_FILTER } from '../api/list-request'
import type { RetryPolicy } from '../api/retry-policy'
import type { AccessTokenSource } from '../api/access-token-source'
import type { CacheDatabase } from '../cache/cache-database'
import type { RunSettings } from '../cache/run-log'
import type { Clock } from '../clock'
import { RosterDeskError } from '../errors'
import type { Logger } from '../log/logger'
import { DEFAULT_SETTINGS } from '../settings/settings-defaults'
import type { PageSizing } from './page-size'

export const DEFAULT_CONCURRENCY = DEFAULT_SETTINGS.concurrency
export const DEFAULT_MAX_PASSES = 3

/**
 * Everything a run talks to, built once by its owner (the app, the CLI, a test) and handed to the run, which
 * gives each part what it needs: the list client its fetch, tokens, clock and jitter; the progress meter and
 * the deadline the clock.
 */
export type SyncDependencies = SyncParts & SyncFetch

interface SyncParts {
  readonly cache: CacheDatabase
  readonly tokens: AccessTokenSource
  readonly clock: Clock
  /** [0, 1) for backoff jitter. */
  readonly random: () => number
  /** Where a failed run's error (its detail, causes and stack) goes; the summary keeps only the clerk's message. */
  readonly logger?: Logger
  /** Told each named step of the run as it is passed (`SyncCheckpoint`); the crash tests kill a run at one. */
  readonly checkpoint?: (step: SyncCheckpoint) => void
}

/**
 * The named steps of a run, in order, each told once it is done: the run logged and its file created; a page of
 * the main list staged (once a page); every list walked; the change log written; the snapshot sealed; the catalog
 * swapped to it (`committed`: from here the new employees are the cache's). A process killed at any of them
 * leaves the previous snapshot, or from `committed` on the new one, never a mix (test/e2e/crash-sync.test.ts).
 */
export const SYNC_CHECKPOINTS = [
  'run-logged',
  'page-staged',
  'lists-walked',
  'change-log-written',
  'sealed',
  'committed',
] as const
export type SyncCheckpoint = (typeof SYNC_CHECKPOINTS)[number]

/**
 * How the run's requests are sent, and so which side holds each answer to the largest page allowed
 * (`maxPageMegabytes`): the side that reads the body, once.
 */
export type SyncFetch =
  /** The run reads each body itself: its list client counts the bytes as they arrive (the CLI, a run inline). */
  | { readonly fetch: FetchLike; readonly fetchWithin?: never }
  /**
   * A fetch that reads each body where it arrives, within `maxBodyBytes`, and answers a larger one with a
   * `BodyTooLargeError` (`readBodyWithin`), which the list client words with the page and the setting: the core
   * worker's, whose host reads the body (sync-job.ts). The run does not count the bytes again.
   */
  | { readonly fetchWithin: (maxBodyBytes: number) => FetchLike; readonly fetch?: never }

/** What one run is asked to do: plain data (and the run's signal and listeners). */
export interface SyncRunOptions {
  readonly baseUrl: string
  /** The environment `baseUrl` belongs to ('demo', 'staging', …), recorded in the run log for the change history. */
  readonly environment?: string
  readonly tenantId?: string
  /** Rows asked for per page (the settings' page size); the service may serve fewer. */
  readonly pageSize: number
  /**
   * 'largest-served' (the app and the CLI): ask for a large page first and use the size the service serves,
   * falling back to `pageSize` if it refuses (page-size.ts). Default 'configured': `pageSize` only.
   */
  readonly pageSizing?: PageSizing
  /** Page requests in flight at once (setting; default 4). */
  readonly concurrency?: number
  /** Pay cycles whose filtered lists are synced into membership, so rosters work offline. */
  readonly trackedPayCycles?: readonly string[]
  /** 'active': every list of the run is asked for active employees only (statusFilter=1). Default 'all'. */
  readonly scope?: SyncScope
  /** Full passes over a list that keeps changing before the run gives up. */
  readonly maxPasses?: number
  readonly retry?: Partial<RetryPolicy>
  /** The bounds the run holds the service to (`SYNC_LIMITS`); each defaults to `SYNC_LIMIT_DEFAULTS`. */
  readonly limits?: Partial<SyncLimits>
  readonly signal?: AbortSignal
  readonly onProgress?: (progress: SyncProgress) => void
  /** Told the run id as soon as the run is logged (before any request). */
  readonly onStart?: (runId: number) => void
}

/** Whole numbers in the units the settings use (`SYNC_LIMITS`). */
export type SyncLimits = { readonly [K in keyof typeof SYNC_LIMIT_DEFAULTS]: number }

/** The options checked, with every default filled in: what the steps of a run read. */
export interface RunPlan {
  readonly pageSize: number
  readonly pageSizing: PageSizing
  readonly concurrency: number
  readonly maxPasses: number
  readonly limits: SyncLimits
  readonly trackedPayCycles: readonly string[]
  /** `statusFilter` on every list of the run; undefined for everyone. */
  readonly statusFilter: string | undefined
  /** As the run log keeps them (`sync_runs.settings`). */
  readonly settings: RunSettings
}

/**
 * Checks a run's options by the settings' own rules and words (the app and the CLI checked these values with the
 * same schemas already) and fills in the defaults. Throws a validation or config error for options that cannot
 * work, before anything is logged.
 */
export function planRun(options: SyncRunOptions): RunPlan {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY
  for (const checked of [
    checkValue(settingsSchema.shape.pageSize, options.pageSize),
    checkValue(settingsSchema.shape.concurrency, concurrency),
    checkValue(settingsSchema.shape.syncScope, options.scope ?? DEFAULT_SETTINGS.syncScope),
  ]) {
    if (!checked.ok) throw new RosterDeskError('validation', checked.problem)
  }
  if (
    options.maxPasses !== undefined &&
    (!Number.isSafeInteger(options.maxPasses) || options.maxPasses < 1)
  ) {
    throw new RosterDeskError('validation', 'The number of passes must be a whole number of at least 1.')
  }
  const address = checkValue(serviceAddressSchema, options.baseUrl)
  if (!address.ok) throw new RosterDeskError('config', `${address.problem} Check it in Settings.`)
  const limits = checkLimits(options.limits)
  const trackedPayCycles = [...new Set(options.trackedPayCycles ?? [])]
  const statusFilter = options.scope === 'active' ? ACTIVE_STATUS_FILTER : undefined
  return {
    pageSize: options.pageSize,
    pageSizing: options.pageSizing ?? 'configured',
    concurrency,
    maxPasses: options.maxPasses ?? DEFAULT_MAX_PASSES,
    limits,
    trackedPayCycles,
    statusFilter,
    settings: {
      pageSize: options.pageSize,
      concurrency,
      trackedPayCycles,
      ...(statusFilter === undefined ? {} : { statusFilter }),
      ...(options.tenantId ? { tenantId: options.tenantId } : {}),
      baseUrl: serviceAddress(options.baseUrl),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
    },
  }
}

/** The run's bounds: each given one checked by its settings field's rule, the rest their defaults. */
function checkLimits(given: Partial<SyncLimits> = {}): SyncLimits {
  const limits: Record<string, number> = { ...SYNC_LIMIT_DEFAULTS }
  for (const key of Object.keys(SYNC_LIMIT_DEFAULTS) as (keyof SyncLimits)[]) {
    const value = given[key]
    if (value === undefined) continue
    const checked = checkValue(syncLimitSchemas[key], value)
    if (!checked.ok) throw new RosterDeskError('validation', checked.problem)
    limits[key] = checked.value
  }
  return limits as SyncLimits
}

/** The base URL as the run log keeps it: never user info, which could carry a password. */
function serviceAddress(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    url.username = ''
    url.password = ''
    return url.toString().replace(/\/$/, '')
  } catch {
    return ''
  }
}
