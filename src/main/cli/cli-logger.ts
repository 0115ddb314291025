import { join } from 'node:path'
import { logsFolder, openFileLog } from '../core/log/file-log'
import {
  createLogger,
  formatLogLine,
  isAtLeast,
  parseLogLevel,
  type LogLevel,
  type Logger,
} from '../core/log/logger'

/** The environment variable that sets how much the CLI logs: info, warn or error (the default). */
export const CLI_LOG_LEVEL_VARIABLE = 'ROSTERDESK_LOG_LEVEL'

/** The CLI's log file in the data folder's logs, beside the app's main.log. */
export const CLI_LOG_FILE_NAME = 'cli.log'

/** Where the CLI keeps whole entries, stacks included: opened at the first entry it takes. */
export interface CliLogFile {
  readonly path: string
  /** Opens the file's logger (creating the folder, owner-only); throws when it cannot. */
  open(): Logger
}

/** The CLI's log file in `dataDir` (the app's data folder the command uses). */
export function cliLogFile(dataDir: string): CliLogFile {
  const logsDir = logsFolder(dataDir)
  return {
    path: join(logsDir, CLI_LOG_FILE_NAME),
    open: () => openFileLog({ logsDir, console: false, fileName: CLI_LOG_FILE_NAME, level: 'warn' }).logger,
  }
}

/**
 * The CLI's log: stderr, one timestamped entry per line with its level, redacted like the app's log file, never a
 * stack frame (a scheduled job's stderr is read by people and scripts). Errors only by default, so it keeps its
 * one line per failure a script can read; ROSTERDESK_LOG_LEVEL=warn adds each failure's detail, =info every
 * sign-in step. Every warning and error, whole with its stack, also goes to `file` (cli.log, opened at the first
 * such entry, so a run that logs nothing creates nothing); an error on stderr names that file. A file that cannot
 * be opened is given up on and stderr carries on alone.
 */
export function createCliLogger(
  stderr: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
  now: () => Date = () => new Date(),
  file?: CliLogFile,
): Logger {
  const minimum = parseLogLevel(env[CLI_LOG_LEVEL_VARIABLE]) ?? 'error'
  let opened: Logger | undefined
  let fileFailed = file === undefined
  const toFile = (level: LogLevel): Logger | undefined => {
    if (fileFailed || !isAtLeast(level, 'warn')) return undefined
    try {
      opened ??= file?.open()
    } catch {
      fileFailed = true
    }
    return opened
  }
  const terminal = createLogger((level, text) => {
    if (isAtLeast(level, minimum)) stderr.write(`${formatLogLine(now(), level, text)}\n`)
  }, false)
  const at =
    (level: LogLevel) =>
    (message: string, error?: unknown): void => {
      const kept = toFile(level)
      kept?.[level](message, error)
      const where =
        kept !== undefined && level === 'error' && file !== undefined
          ? ` (the full entry is in ${file.path})`
          : ''
      terminal[level](`${message}${where}`, error)
    }
  return { info: at('info'), warn: at('warn'), error: at('error') }
}
