import type { AuthLogger } from '../../../src/main/core/auth/auth-logger'

/** An AuthLogger that keeps every line, so tests can check what was (and was not) logged. */
export class CaptureLogger implements AuthLogger {
  readonly lines: string[] = []

  info(message: string): void {
    this.lines.push(`info ${message}`)
  }

  warn(message: string): void {
    this.lines.push(`warn ${message}`)
  }

  /** Lines that contain any of the given secrets. */
  leaking(secrets: readonly string[]): string[] {
    const present = secrets.filter((secret) => secret.length >= 4)
    return this.lines.filter((line) => present.some((secret) => line.includes(secret)))
  }
}
