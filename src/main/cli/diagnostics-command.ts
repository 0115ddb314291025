import { existsSync, statSync } from 'node:fs'
import { cacheKeyFilePath, readCacheKeyFile } from '../core/secrets/cache-key-file'
import type { CacheKey } from '../core/sqlite/cache-key'
import { dirname, resolve } from 'node:path'
import type { ConnectionReport } from '../../shared/connection-report'
import { systemClock } from '../core/clock'
import { runConnectionCheck, connectionTarget } from '../core/connection-check/connection-check'
import { nodeProbes } from '../core/connection-check/node-probes'
import { diagnosticsFileName, writeDiagnosticsFile } from '../core/diagnostics/diagnostics-file'
import { diagnosticsProfiles } from '../core/diagnostics/diagnostics-sources'
import { toIpcError } from '../core/errors'
import { logFailure } from '../core/log/log-failure'
import { logsFolder } from '../core/log/file-log'
import { NO_POLICY } from '../core/policy/policy-in-force'
import type { Settings } from '../../shared/settings-schema'
import {
  parseCommandArgs,
  reportUsage,
  requiredOption,
  stringOption,
  UsageError,
  writeLine,
  type CacheCommandIo,
} from './cache-command-args'
import { openCliFetch, serviceNetworkInput } from './network-flags'
import { rosterDeskVersion } from './cli-session'
import { appFolders, readCliProfiles } from './profile-flag'
import { appDataDir } from './data-dir'

export const DIAGNOSTICS_USAGE =
  'Usage: diagnostics --out FILE.zip [--profile NAME] [--data-dir DIR] ' +
  `(the profile whose connection is checked: the app's active one unless named; e.g. --out "${diagnosticsFileName(new Date(0)).replace('1970-01-01', 'YYYY-MM-DD')}")`

const OPTIONS = {
  out: { type: 'string' },
  profile: { type: 'string' },
  'data-dir': { type: 'string' },
} as const

/**
 * `diagnostics`: the file Help → Save diagnostics… writes, for IT, from the command line (a scheduled job that
 * failed): the CLI's and the app's logs of the data folder, the machine policy, every profile's settings without
 * secrets and last runs, and the connection check of the profile (`--profile`, else the app's active one) over the
 * command line's network, without signing in. Prints the file's path. Exit codes: 0 written, 1 not written (its
 * reason on stderr), 2 bad usage (a missing or wrong --out, an unknown profile).
 */
export async function runDiagnosticsCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let out: string
  let folders: ReturnType<typeof appFolders>
  let profiles: ReturnType<typeof readCliProfiles>
  let checked: { readonly name: string; readonly settings: Settings } | undefined
  try {
    const values = parseCommandArgs(args, OPTIONS)
    out = resolve(requiredOption(values, 'out'))
    if (!out.toLowerCase().endsWith('.zip')) throw new UsageError(`--out: "${out}" must end in .zip.`)
    if (!existsSync(dirname(out)) || !statSync(dirname(out)).isDirectory())
      throw new UsageError(`--out: the folder ${dirname(out)} does not exist.`)
    folders = appFolders(stringOption(values, 'data-dir'), io.env, io.platform)
    profiles = readCliProfiles(folders, io.policy)
    const name = stringOption(values, 'profile')
    checked = profiles.profiles.find((profile) =>
      name === undefined
        ? profile.id === profiles.activeId
        : profile.name.toLowerCase() === name.trim().toLowerCase(),
    )
    if (name !== undefined && checked === undefined)
      throw new UsageError(
        `--profile: no profile named "${name}". Profiles: ${profiles.profiles.map((p) => p.name).join(', ')}.`,
      )
  } catch (error) {
    return reportUsage(error, io, DIAGNOSTICS_USAGE)
  }
  try {
    const written = await writeDiagnosticsFile(
      {
        runtime: 'cli',
        now: new Date(systemClock.now()),
        app: { name: 'RosterDesk', version: rosterDeskVersion() ?? 'unknown' },
        policy: io.policy ?? NO_POLICY,
        profiles: diagnosticsProfiles(
          profiles.profiles,
          profiles.activeId,
          folders.caches,
          cliCacheKey(folders.dataDir),
        ),
        connection: await cliConnection(checked, io),
        folders: { 'Saved employees': folders.caches.root, 'Data folder': folders.dataDir },
      },
      logsFolder(io.dataDir ?? appDataDir(undefined, io.env, io.platform)),
      out,
    )
    writeLine(io.stdout, written.filePath)
    return 0
  } catch (error) {
    logFailure(io.logger, 'Diagnostics failed', error)
    writeLine(io.stderr, `Diagnostics failed: ${toIpcError(error).message}`)
    return 1
  }
}

/**
 * The profile's connection check as `cli check --profile` runs it, without tokens (the list step is skipped):
 * `problem` says why there is none (Demo has no service outside the app, the network settings cannot be used).
 */
async function cliConnection(
  profile: { readonly name: string; readonly settings: Settings } | undefined,
  io: CacheCommandIo,
): Promise<{ report?: ConnectionReport; problem?: string }> {
  if (profile === undefined) return { problem: 'there is no profile to check.' }
  const { settings } = profile
  if (settings.environment === 'demo')
    return {
      problem: `profile "${profile.name}" reads Demo, the app's built-in sample data, which has no service outside the app.`,
    }
  const baseUrl = settings.baseUrls[settings.environment]
  try {
    const net = openCliFetch(serviceNetworkInput({}, profile, io, baseUrl), io)
    try {
      const report = await runConnectionCheck(
        { fetch: net.fetch, clock: systemClock, probes: nodeProbes({ net }), logger: io.logger },
        connectionTarget(
          {
            baseUrl,
            clientId: settings.clientId,
            redirectUri: settings.redirectUri,
            scopes: settings.scopes,
            tenantId: settings.tenantId,
          },
          { profile: profile.name, timeoutMs: settings.requestTimeoutSeconds * 1000 },
        ),
      )
      return { report }
    } finally {
      await net.close()
    }
  } catch (error) {
    logFailure(io.logger, 'Diagnostics: the connection check did not run', error)
    return { problem: toIpcError(error).message }
  }
}

/**
 * The CLI's cache key when it has one (`cache.key` in the data folder), to read the profiles' runs; never made
 * here, and a key file refused (others may read it) leaves the runs out rather than the file unwritten.
 */
function cliCacheKey(dataDir: string): CacheKey | undefined {
  try {
    return readCacheKeyFile(cacheKeyFilePath(dataDir))
  } catch {
    return undefined
  }
}
