import { formatLogEntry, type LogLevel, type Logger } from '../../src/main/core/log/logger'

/**
 * A Logger that keeps every entry as `level text`, formatted like the real log (an error's detail, causes and
 * stack included) but not redacted, so tests see what a caller actually handed the log.
 */
export class CaptureLogger implements Logger {
  readonly lines: string[] = []

  info(message: string, error?: unknown): void {
    this.#keep('info', message, error)
  }

  warn(message: string, error?: unknown): void {
    this.#keep('warn', message, error)
  }

  error(message: string, error?: unknown): void {
    this.#keep('error', message, error)
  }

  /** Lines that contain any of the given secrets. */
  leaking(secrets: readonly string[]): string[] {
    const present = secrets.filter((secret) => secret.length >= 4)
    return this.lines.filter((line) => present.some((secret) => line.includes(secret)))
  }

  #keep(level: LogLevel, message: string, error: unknown): void {
    this.lines.push(`${level} ${formatLogEntry(message, error)}`)
  }
}
