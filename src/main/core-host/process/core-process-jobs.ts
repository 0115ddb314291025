import type { EventChannel, IpcResult } from '../../../shared/ipc-contract'
import type { SavedFileKind } from '../../../shared/domain/export'
import type { ShellFacts } from '../../core/diagnostics/diagnostics-parts'
import type { PrintOutcome } from '../../core/export/print-view'
import type { ClipboardContent } from '../../core/export/copy-rows'
import type { AppCoreDeps } from '../../core/session/create-app-core'
import type { StoredSecretKey } from '../../core/secrets/secret-store'
import type { NetworkToApply, ProxyChoice, ProxySource } from '../../core/settings/network-settings'
import type { CertificateSummary } from '../../../shared/connection-report'
import type { RefusedCertificate } from './electron-net-fetch'
import type { CallSpec, JobSpec } from '../worker/worker-protocol'

/** What the core process is told when it starts serving: everything it cannot find out for itself. */
export interface CoreProcessConfig {
  /** `systemLocale`: the computer's regional formats (Electron's `app.getSystemLocale()`), for `app:get-info`. */
  readonly appInfo: AppCoreDeps['appInfo']
  /** The per-user data folder: the settings file, and the caches unless `cacheRoot` names another folder. */
  readonly dataDir: string
  /**
   * Where the caches live (on Windows the local app data folder, `cacheRootFor`); caches still under `dataDir`
   * are moved there before the app core opens any (decision 046). Absent: `dataDir`.
   */
  readonly cacheRoot?: string
  /** Whether the shell's secret store outlives the app (false: no OS keychain, secrets in memory only). */
  readonly secretsPersistent: boolean
  /** Whether the shell can print a page ("Print…" is offered only then). */
  readonly offersPrint: boolean
  /**
   * Whether main holds this process's network session (the app): the process then applies each profile's network
   * settings through main and uses Electron's `net` when it has it. False under plain Node (tests, benchmarks).
   */
  readonly usesShellNetwork: boolean
  /**
   * Whether the OS hands this app its private-use sign-in scheme (a packaged app registers it; `npm start` does
   * not): when false, a sign-in set to that redirect is refused, naming the loopback one. Absent: true.
   */
  readonly receivesSchemeCallbacks?: boolean
  /**
   * Whether the app is packaged (Electron's `app.isPackaged`): a packaged app reads the machine policy from the
   * machine's locations only, never from ROSTERDESK_POLICY_FILE. Absent: not packaged (tests, plain Node).
   */
  readonly packaged?: boolean
  /**
   * Set when this process replaces one that stopped unexpectedly: it does not sync on launch, since a run it
   * started could end it the same way, and again at every restart (a sync is the clerk's to try again).
   */
  readonly replacesStopped?: boolean
}

/**
 * What the serving job reports: once that the app core is up, then every event for the window. Before that,
 * `moving-caches` when the caches move to the cache root (decision 046: a copy across volumes can take minutes,
 * which main's start timer does not count) and `caches-settled` once the move is over; `sync-started` as each
 * sync run begins.
 */
export type CoreProcessReport =
  | { readonly type: 'ready' }
  | { readonly type: 'moving-caches' }
  | { readonly type: 'caches-settled' }
  /** A sync run began (logged): main ends it for the window should this process stop before its summary. */
  | { readonly type: 'sync-started'; readonly runId: number }
  | { readonly type: 'event'; readonly channel: EventChannel; readonly payload: unknown }

/** What main applied to the core process's session for a profile's network settings. */
export interface NetworkApplied {
  readonly proxyMode: ProxyChoice['mode']
  /** Which level of the precedence the proxy choice came from. */
  readonly source: ProxySource
  /** How many extra trusted certificates are in force. */
  readonly extraCertificates: number
  /** Why the extra certificates file is not used (missing, unreadable, no certificate), when it is not. */
  readonly problem?: string
}

/** What main's verify proc saw for a host: the chain last presented, and the issuer of a chain refused. */
export interface CoreNetworkFacts {
  readonly certificates?: CertificateSummary[]
  readonly refused?: RefusedCertificate
}

/**
 * What only the shell (Electron's main process) has, asked for by the core process: the OS-encrypted secrets
 * (safeStorage exists only in main), the system browser, the native save dialog, Explorer/Finder, the printer and
 * the clipboard.
 */
export type ShellCalls = {
  readonly 'secret-get': CallSpec<StoredSecretKey, string | undefined>
  readonly 'secret-set': CallSpec<{ readonly key: StoredSecretKey; readonly value: string }, null>
  readonly 'secret-delete': CallSpec<StoredSecretKey, null>
  readonly 'open-external': CallSpec<string, null>
  readonly 'choose-export-path': CallSpec<
    { readonly defaultPath: string; readonly format: SavedFileKind },
    string | undefined
  >
  readonly 'reveal-file': CallSpec<string, null>
  /** What only main knows for a diagnostics file: the install kind and the update state (never a secret). */
  readonly 'shell-facts': CallSpec<null, ShellFacts>
  readonly 'print-page': CallSpec<{ readonly html: string; readonly title: string }, PrintOutcome>
  /** Writes the system clipboard: the table's Copy, as text and an HTML table in one write. */
  readonly 'clipboard-write': CallSpec<ClipboardContent, null>
  /** Applies the active profile's network settings to the core process's own session (proxy, certificates). */
  readonly 'network-apply': CallSpec<NetworkToApply, NetworkApplied>
  /** The route Electron resolved for a URL (`ses.resolveProxy`): "DIRECT", "PROXY host:port". */
  readonly 'network-resolve-proxy': CallSpec<string, string>
  /** The verify proc's record for a host: the chain seen, the issuer of a refused one. */
  readonly 'network-facts': CallSpec<string, CoreNetworkFacts>
  /** The proxies (host:port) whose sign-in main remembers: names only, never the credentials. */
  readonly 'network-remembered-proxies': CallSpec<null, string[]>
  /** Forgets the sign-in remembered for one proxy (host:port). */
  readonly 'network-forget-proxy': CallSpec<string, null>
  /** The native open dialog for a PEM file: its path, or undefined when cancelled. */
  readonly 'network-choose-certificates': CallSpec<null, string | undefined>
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
