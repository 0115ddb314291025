import type { EventChannel, IpcResult } from '../../../shared/ipc-contract'
import type { ExportFormat } from '../../../shared/domain'
import type { PrintOutcome } from '../../core/export/print-view'
import type { StoredSecretKey } from '../../core/secrets/secret-store'
import type { CallSpec, JobSpec } from '../worker/worker-protocol'

/** What the core process is told when it starts serving: everything it cannot find out for itself. */
export interface CoreProcessConfig {
  readonly appInfo: { readonly name: string; readonly version: string; readonly platform: string }
  /** The per-user data folder: the settings file and every profile's cache. */
  readonly dataDir: string
  /** Whether the shell's secret store outlives the app (false: no OS keychain, secrets in memory only). */
  readonly secretsPersistent: boolean
  /** Whether the shell can print a page ("Print…" is offered only then). */
  readonly offersPrint: boolean
}

/** What the serving job reports: once that the app core is up, then every event for the window. */
export type CoreProcessReport =
  | { readonly type: 'ready' }
  | { readonly type: 'event'; readonly channel: EventChannel; readonly payload: unknown }

/**
 * What only the shell (Electron's main process) has, asked for by the core process: the OS-encrypted secrets
 * (safeStorage exists only in main), the system browser, the native save dialog, Explorer/Finder and the printer.
 */
export type ShellCalls = {
  readonly 'secret-get': CallSpec<StoredSecretKey, string | undefined>
  readonly 'secret-set': CallSpec<{ readonly key: StoredSecretKey; readonly value: string }, null>
  readonly 'secret-delete': CallSpec<StoredSecretKey, null>
  readonly 'open-external': CallSpec<string, null>
  readonly 'choose-export-path': CallSpec<
    { readonly defaultPath: string; readonly format: ExportFormat },
    string | undefined
  >
  readonly 'reveal-file': CallSpec<string, null>
  readonly 'print-page': CallSpec<{ readonly html: string; readonly title: string }, PrintOutcome>
}

/**
 * The core process's job table (core-process.ts serves it, remote-app-core.ts runs it). `serve` runs for the
 * process's whole life: it builds the app core, reports events, asks the shell through its calls, and closes the
 * core when cancelled. Each renderer request is one `invoke` job, validated and answered by the same
 * `dispatchInvoke` the in-process app uses.
 */
export type CoreProcessJobs = {
  serve: JobSpec<CoreProcessConfig, null, CoreProcessReport, ShellCalls>
  invoke: JobSpec<{ readonly channel: string; readonly args: readonly unknown[] }, IpcResult<unknown>>
  'callback-url': JobSpec<string, boolean>
}
