import { dirname, resolve } from 'node:path'
import type { AccessTokenSource } from '../core/api/access-token-source'
import type { FetchLike } from '../core/api/fetch-like'
import { RosterDeskError, toIpcError } from '../core/errors'
import { logFailure } from '../core/log/log-failure'
import { mkdirOwnerOnly } from '../core/owner-only'
import type { Logger } from '../core/log/logger'
import type { NodeFetch } from '../core/net/node-fetch'
import { DEFAULT_SETTINGS } from '../core/settings/settings-defaults'
import type { SessionServices } from '../core/session/session-services'
import type { SyncSettings } from '../core/session/session-source'
import type { SyncRunSummary } from '../../shared/domain/sync'
import { numbersAsTextText, shortenedValuesText } from '../../shared/shortened-values'
import { PAGE_SIZE_SETTING } from '../../shared/settings-rules'
import { settingsSchema } from '../../shared/settings-schema'
import {
  listOption,
  parseCommandArgs,
  reportUsage,
  requiredOption,
  stringOption,
  UsageError,
  writeLine,
} from './cache-command-args'
import type { CacheCommandIo } from './cache-command-args'
import {
  NETWORK_OPTIONS,
  NETWORK_USAGE,
  openCliFetch,
  serviceNetworkInput,
  type CliNetworkInput,
} from './network-flags'
import {
  cliTokenSource,
  parseServiceFlags,
  SERVICE_OPTIONS,
  syncLimitFlag,
  type ServiceFlags,
} from './service-flags'
import { cliServiceSource, openCliSession } from './cli-session'
import { settingFlag } from './setting-flags'
import { terminalText } from './terminal-text'

export const SYNC_USAGE =
  'Usage: sync (--profile NAME [--data-dir DIR] | --base-url URL --client-id ID --redirect-uri URI --db FILE) ' +
  '[--tenant ID] [--page-size N] ' +
  '[--concurrency N] [--pay-cycle ID]... [--sync-scope all|active] [--request-timeout SECONDS] [--run-deadline MINUTES] ' +
  `[--max-employees N] [--token-file FILE] [--json] ${NETWORK_USAGE} (client secret in ROSTERDESK_CLIENT_SECRET; ` +
  'tokens from --token-file or ROSTERDESK_ACCESS_TOKEN / ROSTERDESK_REFRESH_TOKEN; ' +
  `--page-size: ${PAGE_SIZE_SETTING.help})`

const OPTIONS = {
  ...SERVICE_OPTIONS,
  db: { type: 'string' },
  'page-size': { type: 'string' },
  concurrency: { type: 'string' },
  'pay-cycle': { type: 'string', multiple: true },
  'sync-scope': { type: 'string' },
  'request-timeout': { type: 'string' },
  'run-deadline': { type: 'string' },
  'max-employees': { type: 'string' },
  json: { type: 'boolean' },
  ...NETWORK_OPTIONS,
} as const

/** Exit code of a run stopped by SIGINT/SIGTERM, as shells expect after an interrupt. */
export const EXIT_CANCELLED = 130

interface SyncArgs {
  /** Which service, and the profile when --profile named one (service-flags.ts, shared with `check`). */
  service: ServiceFlags
  db: string
  /** True when --db came from --profile (the app's cache for that profile). */
  fromProfile: boolean
  /**
   * The sync's settings: page size, concurrency, pay cycles, scope ('active' asks the service for active employees
   * only) and limits (the app's "Advanced" settings), each the flag, else the profile's setting, else the default.
   */
  settings: SyncSettings
  json: boolean
  /** --proxy, --ca-file and the profile's Settings → Network, for `openCliFetch`. */
  network: CliNetworkInput
}

/**
 * `sync`: one complete sync of the employee list into the cache at --db. With --json, stdout carries exactly
 * one JSON object: {status, totalCount, stored, pages, requests, durationMs, truncatedFields?, numbersTooLarge?, numbersTooSmall?, error?}. SIGINT/SIGTERM cancel the
 * run cleanly (the cache keeps its previous snapshot). Exit codes: 0 complete, 1 failed, 2 bad usage,
 * 130 cancelled.
 */
export async function runSyncCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let parsed: SyncArgs
  let net: NodeFetch
  try {
    parsed = parseSyncArgs(args, io)
  } catch (error) {
    return reportUsage(error, io, SYNC_USAGE)
  }
  try {
    net = openCliFetch(parsed.network, io)
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(error, io, SYNC_USAGE)
    return reportFailure(io, parsed.json, error)
  }
  const fetch = net.fetch

  let session: SessionServices | null = null
  let signals = 0
  const onSignal = (): void => {
    signals++
    // A second Ctrl+C means "now": the cache is safe either way, a killed run never touches the snapshot.
    if (signals > 1) process.exit(EXIT_CANCELLED)
    session?.sync.cancel()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    const { tokens, tenantId } = await tokenSource(parsed, io.env, io.logger, fetch)
    const profile = parsed.service.profile
    let db = parsed.db
    if (parsed.fromProfile && profile !== undefined) {
      // Looked up again now, after the sign-in: the app may have moved the cache meanwhile (decision 046). Moved
      // after this, the open or the sync's writer lock fails at the old place, which is never made again.
      const located = profile.locateDb()
      db = located.path
      // A profile's cache folder may not exist yet (a profile the app has not opened); --db's must.
      if (located.mayCreate) mkdirOwnerOnly(dirname(db))
    }
    // The session as the app composes it, with the inline runners: the same start options as the app's syncs.
    session = openCliSession(
      {
        db,
        appCache: parsed.fromProfile,
        connection: { fetch, tokens },
        source: cliServiceSource(parsed.service, parsed.settings, tenantId),
        ...(profile === undefined ? {} : { profile: profile.name }),
      },
      io,
    )
    const stopRetryLines = reportRetries(io, session)
    const run = session.sync.start(session.startOptions()).finally(stopRetryLines)
    if (signals > 0) session.sync.cancel()
    const summary = await run
    report(io, parsed.json, summary)
    return summary.status === 'complete' ? 0 : summary.status === 'cancelled' ? EXIT_CANCELLED : 1
  } catch (error) {
    return reportFailure(io, parsed.json, error)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await session?.close()
    await net.close()
  }
}

/**
 * The sync's progress on stderr, as far as a clerk must know while waiting: the cause when a request is first tried
 * again ("Retrying in 2 s: The payroll service had a problem (HTTP 500): “…”"), once per retrying request. Returns
 * the unsubscription.
 */
function reportRetries(io: CacheCommandIo, session: SessionServices): () => void {
  let said: string | undefined
  return session.sync.onProgress((progress) => {
    const retry = progress.retry
    // Progress without a retry means the service answers again: a later first retry is said again.
    if (retry === undefined) said = undefined
    if (retry === undefined || retry.attempt !== 1 || retry.cause === undefined) return
    const line = `Retrying in ${retry.retryInSeconds} s: ${retry.cause}`
    if (line === said) return
    said = line
    writeLine(io.stderr, terminalText(line))
  })
}

/** A run that could not start or failed outside the sync's own summary: logged, one line (or one JSON object), exit 1. */
function reportFailure(io: CacheCommandIo, json: boolean, error: unknown): number {
  logFailure(io.logger, 'Sync failed', error)
  const message = toIpcError(error).message
  if (json) {
    writeLine(
      io.stdout,
      JSON.stringify({
        status: 'failed',
        totalCount: 0,
        stored: 0,
        pages: 0,
        requests: 0,
        durationMs: 0,
        error: message,
      }),
    )
  } else {
    writeLine(io.stderr, `Sync failed: ${message}`)
  }
  return 1
}

function parseSyncArgs(args: readonly string[], io: CacheCommandIo): SyncArgs {
  const values = parseCommandArgs(args, OPTIONS)
  const fields = settingsSchema.shape
  // --profile fills in what the app's settings of that profile say; a flag given as well wins.
  const service = parseServiceFlags(values, io.env, io.platform, {
    command: 'sync from',
    required: true,
    policy: io.policy,
  })
  const profile = service.profile
  const payCycles = listOption(values, 'pay-cycle')
  const db = stringOption(values, 'db') ?? profile?.db ?? requiredOption(values, 'db')
  return {
    service,
    db: resolve(db),
    fromProfile: profile !== undefined && stringOption(values, 'db') === undefined,
    settings: {
      pageSize: settingFlag(
        'page-size',
        fields.pageSize,
        stringOption(values, 'page-size') ?? profile?.settings.pageSize ?? DEFAULT_SETTINGS.pageSize,
      ),
      concurrency: settingFlag(
        'concurrency',
        fields.concurrency,
        stringOption(values, 'concurrency') ?? profile?.settings.concurrency ?? DEFAULT_SETTINGS.concurrency,
      ),
      trackedPayCycles: settingFlag(
        'pay-cycle',
        fields.trackedPayCycles,
        payCycles.length > 0 ? payCycles : (profile?.settings.trackedPayCycles ?? []),
      ),
      syncScope: settingFlag(
        'sync-scope',
        fields.syncScope,
        stringOption(values, 'sync-scope') ??
          profile?.settings.syncScope ??
          service.policyProfile?.syncScope ??
          DEFAULT_SETTINGS.syncScope,
      ),
      requestTimeoutSeconds: syncLimitFlag(values, profile, 'request-timeout', 'requestTimeoutSeconds'),
      syncDeadlineMinutes: syncLimitFlag(values, profile, 'run-deadline', 'syncDeadlineMinutes'),
      maxEmployees: syncLimitFlag(values, profile, 'max-employees', 'maxEmployees'),
    },
    json: values['json'] === true,
    network: serviceNetworkInput(values, profile, io, service.baseUrl),
  }
}

/** The tokens for this run (service-flags.ts): a sync needs some. */
async function tokenSource(
  args: SyncArgs,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  fetch: FetchLike,
): Promise<{ tokens: AccessTokenSource; tenantId: string }> {
  const found = await cliTokenSource(args.service, env, logger, fetch)
  if (found !== undefined) return found
  throw new RosterDeskError(
    'not-signed-in',
    'No tokens: pass --token-file (written by the login command) or set ROSTERDESK_ACCESS_TOKEN.',
  )
}

function report(io: CacheCommandIo, json: boolean, summary: SyncRunSummary): void {
  if (json) {
    const { status, totalCount, stored, pages, requests, durationMs, error } = summary
    const line: Record<string, unknown> = { status, totalCount, stored, pages, requests, durationMs }
    if (summary.truncatedFields !== undefined) line['truncatedFields'] = summary.truncatedFields
    if (summary.numbersTooLarge !== undefined) line['numbersTooLarge'] = summary.numbersTooLarge
    if (summary.numbersTooSmall !== undefined) line['numbersTooSmall'] = summary.numbersTooSmall
    if (status !== 'complete') line['error'] = error ?? 'The sync did not complete.'
    writeLine(io.stdout, JSON.stringify(line))
    return
  }
  if (summary.status !== 'complete') {
    writeLine(io.stderr, `Sync ${summary.status}: ${summary.error ?? 'the sync did not complete.'}`)
    return
  }
  const changes = summary.changes
  const changeText =
    changes === undefined
      ? ''
      : ` Changes: ${changes.added} added, ${changes.removed} removed, ${changes.changed} changed.`
  // The limit itself is in the log's warning (ROSTERDESK_LOG_LEVEL=warn); the summary line stays one sentence each.
  const shortenedText =
    summary.truncatedFields === undefined
      ? ''
      : ` ${shortenedValuesText(summary.truncatedFields)} to the longest field allowed (ending with “…”).`
  const numbersText = numbersAsTextText(summary.numbersTooLarge, summary.numbersTooSmall)
  writeLine(
    io.stdout,
    `Synced ${summary.stored} employees (${summary.pages} pages, ${summary.requests} requests) in ` +
      `${(summary.durationMs / 1000).toFixed(1)} s.${changeText}${shortenedText}` +
      (numbersText === '' ? '' : ` ${numbersText}`),
  )
}
