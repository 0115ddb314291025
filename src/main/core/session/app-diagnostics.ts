import type { ConnectionReport } from '../../../shared/connection-report'
import type { CacheFolders } from '../cache/cache-folders'
import type { Clock } from '../clock'
import { writeDiagnosticsFile, type DiagnosticsWritten } from '../diagnostics/diagnostics-file'
import type { ShellFacts } from '../diagnostics/diagnostics-parts'
import { diagnosticsProfiles } from '../diagnostics/diagnostics-sources'
import { toIpcError } from '../errors'
import { logsFolder } from '../log/file-log'
import type { Logger } from '../log/logger'
import type { SettingsStore } from '../settings/settings-store'
import type { CacheKey } from '../sqlite/cache-key'

export interface AppDiagnosticsDeps {
  readonly appInfo: { readonly name: string; readonly version: string; readonly systemLocale?: string }
  /** The data folder: its `logs` holds the app's main.log and the CLI's cli.log (logsFolder). */
  readonly dataDir: string
  readonly caches: CacheFolders
  /** The user's cache key: the profiles' runs are read from their encrypted catalogs. */
  readonly cacheKey: CacheKey
  readonly settings: SettingsStore
  readonly clock: Pick<Clock, 'now'>
  readonly logger: Logger
  /** What only main knows (the install kind, the update state); absent under plain Node. */
  readonly shellFacts?: (() => Promise<ShellFacts>) | undefined
}

/**
 * Help → Save diagnostics… as the app core writes it: every profile with its runs, the machine policy, the active
 * profile's connection check run now, main's facts, the logs of the data folder; then `writeDiagnosticsFile`.
 * A check or main's facts that fail leave their part saying why; the file is written anyway.
 */
export function appDiagnosticsWriter(
  deps: AppDiagnosticsDeps,
  /** The active profile's Test connection (`network:check`, what "Copy report" copies). */
  check: () => Promise<ConnectionReport>,
): (filePath: string) => Promise<DiagnosticsWritten> {
  return async (filePath) => {
    const profiles = deps.settings.profiles
    const [connection, shell] = await Promise.all([
      check().then(
        (report) => ({ report }),
        (error: unknown) => ({ problem: toIpcError(error).message }),
      ),
      deps.shellFacts?.().catch((error: unknown) => {
        deps.logger.warn('Diagnostics: main did not say the install kind and update state', error)
        return undefined
      }),
    ])
    const written = await writeDiagnosticsFile(
      {
        runtime: 'app',
        now: new Date(deps.clock.now()),
        app: deps.appInfo,
        shell,
        policy: deps.settings.policy.inForce,
        profiles: diagnosticsProfiles(profiles.list(), profiles.activeId, deps.caches, deps.cacheKey),
        connection,
        folders: { 'Saved employees': deps.caches.root, 'Data folder': deps.dataDir },
      },
      logsFolder(deps.dataDir),
      filePath,
    )
    deps.logger.info(
      `Diagnostics saved: ${written.entries.length} files, ${written.replaced} values replaced`,
    )
    return written
  }
}
