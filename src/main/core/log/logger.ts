import { describeError } from './describe-error'
import { redactSecrets } from './redact'

export const LOG_LEVELS = ['info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * The one logger every part of RosterDesk takes: core, the CLI and the Electron main process. A message says what
 * happened in words that carry no secret and no personal data (no tokens, codes, callback queries, argument
 * values or employee fields). `error`, when given, adds what support needs to find out why: a RosterDeskError's
 * `detail`, the cause chain and the stack.
 */
export interface Logger {
  info(message: string, error?: unknown): void
  warn(message: string, error?: unknown): void
  error(message: string, error?: unknown): void
}

export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
}

/**
 * One entry as text, before redaction: the message, then the error's description on indented lines (with its
 * stack frames unless `frames` is false).
 */
export function formatLogEntry(message: string, error?: unknown, frames = true): string {
  if (error === undefined) return message
  return [message, ...describeError(error, frames).map((line) => `  ${line}`)].join('\n')
}

/**
 * A Logger over `write`, which receives each entry formatted and passed whole through redactSecrets (message,
 * detail, causes and stack alike; the stack left out when `frames` is false). A failing `write` (a closed stderr,
 * a full disk) is swallowed: the log must never be the reason a sync or a sign-in fails.
 */
export function createLogger(write: (level: LogLevel, text: string) => void, frames = true): Logger {
  const at =
    (level: LogLevel) =>
    (message: string, error?: unknown): void => {
      try {
        write(level, redactSecrets(formatLogEntry(message, error, frames)))
      } catch {
        // Nowhere left to report it.
      }
    }
  return { info: at('info'), warn: at('warn'), error: at('error') }
}

/** True when an entry at `level` passes a threshold of `minimum`. */
export function isAtLeast(level: LogLevel, minimum: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(minimum)
}

/** The level a setting names (case and spaces ignored), or undefined for anything else. */
export function parseLogLevel(text: string | undefined): LogLevel | undefined {
  const wanted = text?.trim().toLowerCase()
  return LOG_LEVELS.find((level) => level === wanted)
}

/**
 * One entry as a log line: UTC timestamp, level, text. Continuation lines (an error's description) follow as they
 * are, indented, so each entry starts with a timestamp and a reader or a grep can tell entries apart.
 */
export function formatLogLine(date: Date, level: string, text: string): string {
  return `${date.toISOString()} ${level.toUpperCase().padEnd(5)} ${text}`
}
