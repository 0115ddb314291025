import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '../core/clock'
import { isRosterDeskError, RosterDeskError } from '../core/errors'
import { CACHE_KEY_FILE_NAME, cacheKeyFilePath } from '../core/secrets/cache-key-file'
import type { CacheKey } from '../core/sqlite/cache-key'
import { exportRulesOf } from '../core/policy/export-rules'
import { ExportRecord, exportRecordDays } from '../core/export-record/export-record'
import { NO_POLICY } from '../core/policy/policy-in-force'
import { inlineRunners } from '../core/session/session-runners'
import {
  openSessionServices,
  type SessionConnection,
  type SessionServices,
} from '../core/session/session-services'
import type { SessionSource, SyncSettings } from '../core/session/session-source'
import type { CacheCommandIo } from './cache-command-args'
import type { CliProfile } from './profile-flag'
import type { ServiceFlags } from './service-flags'

/** What a CLI command's session is opened over: its cache, and what the command knows of its source. */
export interface CliSessionOptions {
  readonly db: string
  /** A command that reads a cache never creates one. */
  readonly mustExist?: boolean
  /**
   * `db` is the cache the app fills for `--profile` (not an explicit --db): one that does not open with the CLI's
   * key (the app's key is in its keychain) is refused with what to do, never set aside or otherwise touched.
   */
  readonly appCache?: boolean
  /** The fetch and tokens of a command that reaches the service (`sync`). */
  readonly connection?: SessionConnection
  /** The source the command resolved (`cliServiceSource`, `cliProfileSource`); absent: none (a bare --db). */
  readonly source?: SessionSource
  /** The profile named by --profile, which an export names. */
  readonly profile?: string
  /** What --environment and --tenant name an export's source as. */
  readonly named?: { readonly environment?: string; readonly tenantId?: string }
}

/**
 * A CLI command's session: core's one composition of a session (`openSessionServices`, as the app's session is
 * built) with the inline runners (or a test's, `io.runners`), the system's clock and jitter, the machine policy's
 * export rules and the app's version, so the CLI's syncs start with the app's options and its exports say what the
 * app's say. Close it when done.
 */
export function openCliSession(options: CliSessionOptions, io: CacheCommandIo): SessionServices {
  const key = io.cacheKey()
  try {
    return openCliSessionWith(key, options, io)
  } catch (error) {
    if (options.appCache !== true || !isRosterDeskError(error) || error.code !== 'damaged-cache') throw error
    throw new RosterDeskError('damaged-cache', appCacheLockedMessage(options.profile ?? '', io), {
      detail: error.detail ?? error.message,
      cause: error,
    })
  }
}

/**
 * What the CLI says when the app's cache of a `--profile` does not open with its key: the app keeps its key in the
 * keychain, which a command line cannot read (or the cache is damaged); nothing was changed, and how to go on.
 */
function appCacheLockedMessage(profile: string, io: CacheCommandIo): string {
  const file = io.dataDir === undefined ? CACHE_KEY_FILE_NAME : cacheKeyFilePath(io.dataDir)
  return (
    `The saved employees of profile "${profile}" cannot be opened with the command line's key (${file}): the app ` +
    'keeps their key in this computer’s keychain, which the command line cannot read (or they are damaged). ' +
    'Nothing was changed; give --db FILE for a cache of the command line’s own.'
  )
}

function openCliSessionWith(key: CacheKey, options: CliSessionOptions, io: CacheCommandIo): SessionServices {
  const appVersion = rosterDeskVersion()
  return openSessionServices({
    db: {
      path: options.db,
      key,
      ...(options.mustExist === undefined ? {} : { mustExist: options.mustExist }),
      ...(options.appCache === true ? { keepDamaged: true } : {}),
    },
    ...(options.connection === undefined ? {} : { connection: options.connection }),
    clock: systemClock,
    random: Math.random,
    logger: io.logger,
    runners: io.runners ?? inlineRunners,
    ...(io.syncCheckpoint === undefined ? {} : { checkpoint: io.syncCheckpoint }),
    exportRules: exportRulesOf(io.policy ?? NO_POLICY),
    ...(io.dataDir === undefined
      ? {}
      : {
          exportRecord: new ExportRecord({
            dataDir: io.dataDir,
            runtime: 'cli',
            clock: systemClock,
            ...exportRecordDays(io.policy ?? NO_POLICY),
            logger: io.logger,
          }),
        }),
    source: () => options.source,
    about: () => ({
      ...(options.profile === undefined ? {} : { profile: options.profile }),
      ...(appVersion === undefined ? {} : { appVersion }),
      ...(options.named === undefined ? {} : { named: options.named }),
    }),
  })
}

/**
 * The source of a command that reaches the service: the service flags over the profile's settings
 * (service-flags.ts), the sync's settings as the command resolved them, the tenant its tokens are for, and the
 * environment the profile (else the machine policy's profile for this address) names, as the app records it.
 */
export function cliServiceSource(
  service: ServiceFlags,
  settings: SyncSettings,
  tenantId: string,
): SessionSource {
  const environment = service.profile?.settings.environment ?? service.policyProfile?.environment
  return {
    settings,
    service: { ...(environment === undefined ? {} : { environment }), baseUrl: service.baseUrl, tenantId },
  }
}

/** The source of a profile the app keeps (`--profile NAME` of a reading command): its own settings. */
export function cliProfileSource(profile: CliProfile): SessionSource {
  const { settings } = profile
  return {
    settings,
    service: {
      environment: settings.environment,
      baseUrl: profile.baseUrl ?? '',
      tenantId: settings.tenantId,
    },
  }
}

let version: string | undefined | null = null

/** RosterDesk's version, as the app reports it (app.getVersion() reads the same package.json); undefined if unread. */
export function rosterDeskVersion(): string | undefined {
  if (version !== null) return version
  try {
    const parsed: unknown = JSON.parse(
      readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
    )
    const found =
      typeof parsed === 'object' && parsed !== null ? (parsed as { version?: unknown }).version : undefined
    version = typeof found === 'string' ? found : undefined
  } catch {
    version = undefined
  }
  return version
}
