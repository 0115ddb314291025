import { app, crashReporter } from 'electron'
import type { Logger } from '../../core/log/logger'
import {
  crashSummaryLine,
  recordCrash,
  summariseCrashesAtStart,
  DUMP_KEEP_DAYS,
  type CrashEvent,
} from '../../core/log/crash-records'
import { CORE_SERVICE_NAME } from './utility-process-channel'

export interface CrashReportingOptions {
  readonly logger: Logger
  /** Whether main is closing the core itself (a quit, a restart into an update): its end is no crash. */
  readonly closingCore: () => boolean
}

/**
 * Crashes kept on this machine (issue 35, point 1; decision 066), set up before `app` is ready and after the data
 * folder is chosen. `crashReporter.start` with `uploadToServer: false`: Crashpad collects every process created
 * after it (docs/api/crash-reporter.md, "start"; lib/browser/api/crash-reporter.ts passes uploadToServer to the
 * binding, which only stores), the window's renderer and the core's utility process among them (Linux hands
 * children the handler with `--enable-crash-reporter`, ElectronBrowserClient::AppendExtraCommandLineSwitches in
 * shell/browser/electron_browser_client.cc). The dumps go to `app.getPath('crashDumps')`, `<userData>/Crashpad`
 * (ElectronPathProvider, DIR_CRASH_DUMPS, in shell/common/electron_paths.cc), read only when first asked for: so
 * after `app.setPath('userData')`, which index.ts does first. Then what Electron tells at the time of a crash is
 * recorded (crash-records.ts): `render-process-gone`, which a WebContents re-emits on app with its details
 * `{ reason, exitCode }` (lib/browser/api/web-contents.ts; WebContents::EmitRenderProcessGone), and
 * `child-process-gone` for the core's utility process, `{ type: 'Utility', reason, exitCode, serviceName, name }`
 * (App::BrowserChildProcessCrashedOrKilled in shell/browser/api/electron_api_app.cc), where `name` is the fork's
 * serviceName. Returns the start's crash summaries: one log line each, the newest's time for the clerk's notice.
 */
export function startCrashReporting(options: CrashReportingOptions): { readonly noticeAt?: string } {
  const { logger } = options
  crashReporter.start({ uploadToServer: false, productName: 'RosterDesk', compress: true })
  const dataDir = app.getPath('userData')
  const versions = { appVersion: app.getVersion(), electronVersion: process.versions.electron ?? 'unknown' }
  const record = (event: Omit<CrashEvent, 'at' | 'appVersion' | 'electronVersion'>): void => {
    logger.error(
      `The ${event.process === 'renderer' ? 'window' : 'core process'} went: ${event.reason} (exit code ${event.exitCode})`,
    )
    recordCrash(dataDir, { ...event, ...versions, at: new Date().toISOString() })
  }
  app.on('render-process-gone', (_event, _webContents, details) => {
    // A page closed on purpose ends cleanly; everything else (crashed, killed, oom, …) is worth a summary.
    if (details.reason !== 'clean-exit')
      record({ process: 'renderer', reason: details.reason, exitCode: details.exitCode })
  })
  app.on('child-process-gone', (_event, details) => {
    if (details.type !== 'Utility' || details.name !== CORE_SERVICE_NAME || options.closingCore()) return
    record({ process: 'core', reason: details.reason, exitCode: details.exitCode })
  })
  try {
    const start = summariseCrashesAtStart({
      dataDir,
      dumpsDir: app.getPath('crashDumps'),
      now: Date.now(),
      ...versions,
    })
    for (const summary of start.summaries) logger.warn(crashSummaryLine(summary))
    if (start.deletedDumps > 0)
      logger.info(`Crash dumps: ${start.deletedDumps} older than ${DUMP_KEEP_DAYS} days deleted`)
    return start.noticeAt === undefined ? {} : { noticeAt: start.noticeAt }
  } catch (error) {
    logger.warn('Reading the crash records failed', error)
    return {}
  }
}
