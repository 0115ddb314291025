import { app } from 'electron'
import { openFileLog, type FileLog } from '../../core/log/file-log'

/**
 * The main process's log: `<logsDir>/main.log`, 5 MB then rotated to main.1.log … main.3.log, every line
 * redacted; echoed to the terminal in development only. Electron's own logs folder unless the caller names one.
 * A GUI app started from the Start menu or the Dock has no stderr, so this file is the log support asks for.
 */
export function createMainLogger(logsDir: string = app.getPath('logs')): FileLog {
  return openFileLog({ logsDir, console: !app.isPackaged })
}
