import electronLog from 'electron-log/node'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../owner-only'
import { describeError } from './describe-error'
import { rotateLogFiles } from './log-rotation'
import { createLogger, formatLogLine, type LogLevel, type Logger } from './logger'
import { redactSecrets } from './redact'

export const LOG_FILE_NAME = 'main.log'
/** Past this size main.log becomes main.1.log; with LOG_KEEP copies the folder stays under 20 MB. */
export const LOG_MAX_BYTES = 5 * 1024 * 1024
export const LOG_KEEP = 3

/**
 * Where the logs live inside the data folder, the app's and the CLI's (Electron's own `logs` path differs per OS;
 * this one is one place).
 */
export function logsFolder(userData: string): string {
  return join(userData, 'logs')
}

export interface FileLogOptions {
  /** The folder the log lives in (the app: Electron's `app.getPath('logs')`). */
  readonly logsDir: string
  /** Also write to the terminal (development). */
  readonly console: boolean
  readonly fileName?: string
  readonly maxBytes?: number
  /** How many older copies (main.1.log …) to keep. */
  readonly keep?: number
  /** The lowest level written; info by default. */
  readonly level?: LogLevel
}

export interface FileLog {
  readonly logger: Logger
  readonly logFilePath: string
  readonly logsDir: string
}

let created = 0

/**
 * A log file support can be sent: electron-log's file transport, size-limited and rotated, every line redacted
 * and formatted by the rules in this folder. This is electron-log's Node flavour on purpose: `electron-log/main`
 * registers ipcMain listeners the moment it is imported, and (in development) forwards every line to the
 * renderer; the renderer does not log through electron-log, so that would only be an extra door. Nothing here
 * catches errors globally either: the process decides what an uncaught error means. The folder, when this creates
 * it, is 0700 and each log file 0600 (owner-only.ts; electron-log would make the folder 0755).
 */
export function openFileLog(options: FileLogOptions): FileLog {
  const logFilePath = join(options.logsDir, options.fileName ?? LOG_FILE_NAME)
  mkdirOwnerOnly(options.logsDir)
  const keep = options.keep ?? LOG_KEEP
  const level = options.level ?? 'info'
  // A logger of its own, so the library's default instance (and anything configured on it) stays untouched.
  const log = electronLog.create({ logId: `rosterdesk-file-log-${++created}` })

  // Redacts at the transport too, so a line that reaches electron-log other than through `logger` is covered.
  log.hooks.push((message) => ({ ...message, data: redactLogData(message.data) }))
  const format = ({ data, message }: { data: unknown[]; message: { date: Date; level: string } }) => [
    formatLogLine(message.date, message.level, data.map(String).join(' ')),
  ]

  const { file, console: terminal } = log.transports
  file.level = level
  file.resolvePathFn = () => logFilePath
  // electron-log works out path variables from the app's name even though resolvePathFn ignores them; naming it
  // spares a search for package.json that, if it found none, would make every write throw and be dropped.
  file.setAppName('RosterDesk')
  file.maxSize = options.maxBytes ?? LOG_MAX_BYTES
  file.format = format
  file.writeOptions = { flag: 'a', mode: OWNER_FILE_MODE, encoding: 'utf8' }
  file.archiveLogFn = (oldFile) => {
    try {
      rotateLogFiles(oldFile.path, keep)
    } catch {
      // Cannot rotate (a copy held open on Windows): emptying the file keeps the size limit, losing old lines.
      oldFile.clear()
    }
  }
  terminal.level = options.console ? level : false
  terminal.format = format
  for (const name of ['ipc', 'remote'] as const) {
    const transport = log.transports[name] as { level: unknown } | undefined
    if (transport) transport.level = false
  }

  return {
    logger: createLogger((entryLevel, text) => log[entryLevel](text)),
    logFilePath,
    logsDir: options.logsDir,
  }
}

/**
 * What electron-log's hook does to the values of any entry: each becomes redacted text (an Error described like
 * the logger describes one), so nothing reaches a transport unredacted whoever logged it.
 */
export function redactLogData(data: readonly unknown[]): string[] {
  return data.map((value) => {
    if (typeof value === 'string') return redactSecrets(value)
    if (value instanceof Error) return redactSecrets(describeError(value).join('\n  '))
    return redactSecrets(inspect(value, { depth: 4, breakLength: Infinity }))
  })
}
