import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { environmentLabel, normalizeBaseUrl } from '../../shared/settings-rules'
import type { Settings } from '../../shared/settings-schema'
import { findViewByName, type SavedView } from '../../shared/view-schema'
import {
  cacheFoldersAt,
  cacheRootFor,
  locateCacheFolders,
  type CacheFolders,
} from '../core/cache/cache-folders'
import { CACHE_FILE_NAME, ProfileStore } from '../core/settings/profile-store'
import { MemoryKeyValueBackend } from '../core/settings/settings-store'
import { SETTINGS_FILE_NAME } from '../core/settings/settings-defaults'
import { UsageError } from './cache-command-args'
import type { PolicyInForce } from '../core/policy/policy-in-force'
import { cliPolicyRules } from './policy-flags'
import { appDataDir } from './data-dir'

/** What `--profile NAME` stands for: the app's settings of that profile and the cache it fills. */
export interface CliProfile {
  readonly name: string
  readonly settings: Settings
  /** The profile's cache file where it was when the profile was read. */
  readonly db: string
  /**
   * Looks the cache file up again, just before a sync opens it: the app may have moved it to the cache root since
   * (decision 046). `mayCreate` says whether its folder may be made: only at the cache root, since a folder gone
   * from the data folder was moved away, and making it again would start an empty cache the app then reads.
   */
  readonly locateDb: () => { readonly path: string; readonly mayCreate: boolean }
  /** The profile's service address, or undefined for Demo (the app's built-in sandbox, which the CLI lacks). */
  readonly baseUrl: string | undefined
  /** The views saved in the app for this profile (`--view NAME`), by name. */
  readonly views: readonly SavedView[]
}

/** The app's folders as the CLI finds them: the data folder (settings) and each profile's cache. */
export interface AppFolders {
  readonly dataDir: string
  readonly caches: CacheFolders
}

/**
 * The app's data folder (`appDataDir`) and where each profile's cache is, by the app's own rule (decision 046): on
 * Windows under `%LOCALAPPDATA%\RosterDesk` unless the app has not moved it yet, else in the data folder. A
 * data folder named by `--data-dir` or `ROSTERDESK_USER_DATA_DIR` holds its caches too, as the app's does.
 */
export function appFolders(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string = homedir(),
  exists: (path: string) => boolean = existsSync,
): AppFolders {
  const dataDir = appDataDir(flag, env, platform, home)
  const defaultDataDir = appDataDir(
    undefined,
    { ...env, ROSTERDESK_USER_DATA_DIR: undefined },
    platform,
    home,
  )
  const cacheRoot = cacheRootFor({ dataDir, defaultDataDir, platform, env, home })
  return { dataDir, caches: locateCacheFolders(exists, dataDir, cacheRoot) }
}

/**
 * Reads profile `name` (ignoring case) from the app's settings file, read-only: the same ProfileStore and
 * migrations as the app, over an in-memory copy, so the CLI never rewrites the app's file. With the machine
 * `policy`, exactly as the app has it: its profiles exist (even before the app first ran) and its locked values
 * and network are in the settings read.
 */
export function readCliProfile(
  name: string,
  { dataDir, caches }: AppFolders,
  policy?: PolicyInForce,
): CliProfile {
  const store = readProfileStore(dataDir, policy, (rules) => {
    if (!rules.isManaged(name))
      throw new UsageError(`--profile: no RosterDesk settings found in ${dataDir} (see --data-dir).`)
  })
  const profiles = store.list()
  const wanted = name.trim().toLowerCase()
  const profile = profiles.find((candidate) => candidate.name.toLowerCase() === wanted)
  if (profile === undefined) {
    throw new UsageError(
      `--profile: no profile named "${name}". Profiles: ${profiles.map((p) => p.name).join(', ')}.`,
    )
  }
  const { settings } = profile
  return {
    name: profile.name,
    settings,
    db: join(caches.cacheDir(profile.id), CACHE_FILE_NAME),
    locateDb: () => {
      const dir = caches.cacheDir(profile.id)
      return {
        path: join(dir, CACHE_FILE_NAME),
        mayCreate: dir === cacheFoldersAt(caches.root).cacheDir(profile.id),
      }
    },
    baseUrl: settings.environment === 'demo' ? undefined : settings.baseUrls[settings.environment],
    views: store.views.list(profile.id),
  }
}

/**
 * The app's profiles, read-only over an in-memory copy of its settings file as `readCliProfile` reads one (the
 * machine policy's profiles too); `missing` is called with the policy's rules when there is no settings file.
 */
function readProfileStore(
  dataDir: string,
  policy: PolicyInForce | undefined,
  missing: (rules: ReturnType<typeof cliPolicyRules>) => void,
): ProfileStore {
  const rules = cliPolicyRules(policy)
  let stored: unknown
  try {
    stored = JSON.parse(readFileSync(join(dataDir, SETTINGS_FILE_NAME), 'utf8'))
  } catch {
    missing(rules)
  }
  const backend = new MemoryKeyValueBackend()
  if (typeof stored === 'object' && stored !== null) {
    for (const [key, value] of Object.entries(stored)) backend.set(key, value)
  }
  return new ProfileStore(backend, rules)
}

/**
 * Every profile of the app's settings and the active one's id (`cli diagnostics`), read as `readCliProfile` reads
 * one; without a settings file, the machine policy's profiles only (or the first start's default).
 */
export function readCliProfiles(
  folders: AppFolders,
  policy?: PolicyInForce,
): { readonly profiles: ReturnType<ProfileStore['list']>; readonly activeId: string } {
  const store = readProfileStore(folders.dataDir, policy, () => undefined)
  return { profiles: store.list(), activeId: store.activeId }
}

/**
 * `--view NAME`: a view saved in the app for the profile named by `--profile` (any case). An unknown name is a
 * usage error that lists the profile's views, so a scheduled job's log says what to type instead.
 */
export function findCliView(name: string, profile: CliProfile | undefined): SavedView {
  if (profile === undefined) {
    throw new UsageError('--view needs --profile NAME: views are saved per profile in the app.')
  }
  const view = findViewByName(profile.views, name)
  if (view !== undefined) return view
  throw new UsageError(
    profile.views.length === 0
      ? `--view: profile "${profile.name}" has no saved views (save one in the app with "Save view…").`
      : `--view: no view named "${name}" in profile "${profile.name}". Saved views: ${profile.views.map((v) => v.name).join(', ')}.`,
  )
}

/** Flags that name a source: the service address, the tenant, the environment an export's About sheet names. */
export interface SourceFlags {
  readonly baseUrl?: string | undefined
  readonly tenant?: string | undefined
  readonly environment?: string | undefined
}

/**
 * Refuses `--profile` with flags that name another source than the profile's (decision 039): the app asks the
 * clerk what to do with the saved employees, the CLI cannot, so it names the profile's source and the two ways
 * out. Demo's address is not the profile's to compare (the CLI lacks the built-in sandbox and needs --base-url).
 */
export function refuseOtherSource(profile: CliProfile, flags: SourceFlags): void {
  const { settings } = profile
  const label = environmentLabel(settings.environment)
  const problems: string[] = []
  if (
    flags.baseUrl !== undefined &&
    profile.baseUrl !== undefined &&
    normalizeBaseUrl(flags.baseUrl) !== normalizeBaseUrl(profile.baseUrl)
  ) {
    problems.push('--base-url')
  }
  if (
    flags.tenant !== undefined &&
    settings.environment !== 'demo' &&
    flags.tenant.trim() !== settings.tenantId.trim()
  ) {
    problems.push('--tenant')
  }
  if (flags.environment !== undefined) {
    const named = flags.environment.trim().toLowerCase()
    if (named !== settings.environment && named !== label.toLowerCase()) problems.push('--environment')
  }
  if (problems.length === 0) return
  const where =
    profile.baseUrl === undefined
      ? `${label} (the app's built-in sample data)`
      : `${label} at ${profile.baseUrl}${settings.tenantId === '' ? '' : ` (tenant ${settings.tenantId})`}`
  throw new UsageError(
    `--profile: "${profile.name}" reads ${where}; ${problems.join(' and ')} ${problems.length === 1 ? 'names' : 'name'} ` +
      "another source, and its saved employees must not be mixed with or labelled as another source's. " +
      'Either give --db FILE (without --profile) for a separate cache, or create a new profile for that source ' +
      'in the app (Manage profiles) and use --profile with its name.',
  )
}
