import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { constants as osConstants } from 'node:os'
import { join } from 'node:path'

/**
 * Electron's crashReporter and Crashpad as far as RosterDesk's shell relies on them (read at electron/electron
 * 96f3996d8d):
 * - `crashReporter.start(options)` (lib/browser/api/crash-reporter.ts, `start`): throws "submitURL must be specified
 *   when uploadToServer is true" when uploadToServer is not false and no submitURL is given; else the handler starts
 *   and collects every process created after it (docs/api/crash-reporter.md, `start`): a process made before start
 *   is not monitored and leaves no dump.
 * - Dumps go to `app.getPath('crashDumps')`, `<userData>/Crashpad` when first asked for (ElectronPathProvider,
 *   DIR_CRASH_DUMPS, in shell/common/electron_paths.cc; PathService keeps the first answer, so a later
 *   `setPath('userData')` does not move it), as Crashpad's `completed/<uuid>.dmp` with uploads off.
 * - A crash is what Chromium calls one (a SIGSEGV, SIGABRT, … of the process): process.crash() writes through a null
 *   pointer (ElectronBindings::Crash, shell/common/api/electron_bindings.cc), SIGSEGV; a SIGKILL or SIGTERM ends a
 *   process with no chance to dump.
 */
export class StandInCrashpad {
  #started: { readonly uploadToServer: boolean; readonly beforeReady: boolean } | undefined
  /** Processes created after start, which the handler watches: 'renderer:<webContentsId>', 'utility:<pid>'. */
  readonly #monitored = new Set<string>()
  readonly dumps: string[] = []

  constructor(
    private readonly crashDumps: () => string,
    private readonly isReady: () => boolean,
  ) {}

  get started(): { readonly uploadToServer: boolean; readonly beforeReady: boolean } | undefined {
    return this.#started
  }

  readonly module = {
    start: (options: { submitURL?: string; uploadToServer?: boolean } = {}): void => {
      const uploadToServer = options.uploadToServer ?? true
      if (uploadToServer && !options.submitURL)
        throw new Error('submitURL must be specified when uploadToServer is true')
      this.#started = { uploadToServer, beforeReady: !this.isReady() }
      // The handler's database lives in crashDumps: asking for it fixes the path (PathService).
      this.crashDumps()
    },
    getUploadToServer: (): boolean => this.#started?.uploadToServer ?? false,
    getLastCrashReport: () => null,
    getUploadedReports: () => [],
    addExtraParameter: () => undefined,
    removeExtraParameter: () => undefined,
    getParameters: () => ({}),
  }

  /** A process is created: watched when the handler runs already. */
  created(id: string): void {
    if (this.#started !== undefined) this.#monitored.add(id)
  }

  /** A process `id` ended by `signal`: a dump when it is a crash of a watched process. The dump's name, if any. */
  ended(id: string, signal: NodeJS.Signals | null): string | undefined {
    if (signal === null || !CRASH_SIGNALS.has(signal) || !this.#monitored.has(id)) return undefined
    const folder = join(this.crashDumps(), 'completed')
    mkdirSync(folder, { recursive: true })
    const name = `${randomUUID()}.dmp`
    writeFileSync(join(folder, name), 'MDMP stand-in dump')
    this.dumps.push(name)
    return name
  }
}

/** The signals Chromium's GetTerminationStatus (base/process/kill_posix.cc) counts as a crash. */
const CRASH_SIGNALS = new Set<NodeJS.Signals>([
  'SIGSEGV',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGILL',
  'SIGTRAP',
  'SIGSYS',
])

/**
 * Chromium's reason for a child process's end, as `child-process-gone` and `render-process-gone` give it
 * (base/process/kill_posix.cc, GetTerminationStatus, named by Electron's TerminationStatus converter): a crash
 * signal is 'crashed', SIGKILL/SIGTERM/SIGINT 'killed', any other non-zero exit 'abnormal-exit'; the exit code is
 * the signal's number for a signal.
 */
export function goneDetails(
  code: number | null,
  signal: NodeJS.Signals | null,
): { reason: string; exitCode: number } | undefined {
  if (signal !== null) {
    const exitCode = osConstants.signals[signal]
    if (CRASH_SIGNALS.has(signal)) return { reason: 'crashed', exitCode }
    return {
      reason: ['SIGKILL', 'SIGTERM', 'SIGINT'].includes(signal) ? 'killed' : 'abnormal-exit',
      exitCode,
    }
  }
  return code === null || code === 0 ? undefined : { reason: 'abnormal-exit', exitCode: code }
}
