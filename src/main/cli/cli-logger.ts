import { createLogger, formatLogLine, isAtLeast, parseLogLevel, type Logger } from '../core/log/logger'

/** The environment variable that sets how much the CLI logs: info, warn or error (the default). */
export const CLI_LOG_LEVEL_VARIABLE = 'ROSTERDESK_LOG_LEVEL'

/**
 * The CLI's log: stderr, one timestamped entry per line with its level, redacted like the app's log file. Errors
 * only by default (an unexpected failure, with its stack), so a scheduled job's stderr keeps its one line per
 * failure a script can read; ROSTERDESK_LOG_LEVEL=warn adds each failure's detail, =info every sign-in step.
 */
export function createCliLogger(
  stderr: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
  now: () => Date = () => new Date(),
): Logger {
  const minimum = parseLogLevel(env[CLI_LOG_LEVEL_VARIABLE]) ?? 'error'
  return createLogger((level, text) => {
    if (isAtLeast(level, minimum)) stderr.write(`${formatLogLine(now(), level, text)}\n`)
  })
}
