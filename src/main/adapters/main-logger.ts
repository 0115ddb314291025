import { createLogger, type AppLogger } from '../core/log/redact'

/** Main-process log: stderr with a timestamp; the OS captures it for packaged apps. No row data, no secrets. */
export function createMainLogger(): AppLogger {
  return createLogger((level, line) => {
    process.stderr.write(`${new Date().toISOString()} ${level.toUpperCase()} ${line}\n`)
  })
}
