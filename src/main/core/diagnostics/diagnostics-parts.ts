import { release } from 'node:os'
import { basename } from 'node:path'
import type { ConnectionReport } from '../../../shared/connection-report'
import type { SyncRunSummary } from '../../../shared/domain/sync'
import type { Settings } from '../../../shared/settings-schema'
import { environmentLabel } from '../../../shared/settings-rules'
import { freeBytes, formatBytes } from '../disk-full'
import type { PolicyInForce } from '../policy/policy-in-force'
import { policyWithoutSecrets } from '../policy/policy-secrets'

/** How many finished sync runs per profile a diagnostics file holds. */
export const DIAGNOSTICS_RUNS = 20

/** What only the shell knows of the app: Electron's main process answers; absent under plain Node and the CLI. */
export interface ShellFacts {
  /** "MSI", "per-machine", "per-user", "unpackaged" (shell/window-and-startup/msi-install.ts decides). */
  readonly installKind: string
  /** The updater's state in words (update-state.ts's `updateStateText`). */
  readonly updateState: string
}

/** One profile as a diagnostics file describes it. */
export interface DiagnosticsProfile {
  readonly id: string
  readonly name: string
  readonly active: boolean
  readonly settings: Settings
  /** Its finished runs, newest first (at most DIAGNOSTICS_RUNS); undefined when its catalog cannot be read. */
  readonly runs: readonly SyncRunSummary[] | undefined
}

/** What a diagnostics file is made of, gathered by the app core or the CLI (diagnostics-sources.ts). */
export interface DiagnosticsSources {
  readonly runtime: 'app' | 'cli'
  readonly now: Date
  readonly app: {
    readonly name: string
    readonly version: string
    readonly systemLocale?: string | undefined
  }
  readonly shell?: ShellFacts | undefined
  readonly policy: PolicyInForce
  readonly profiles: readonly DiagnosticsProfile[]
  /** The active (or named) profile's connection check; undefined when it could not run, `problem` says why. */
  readonly connection: { readonly report?: ConnectionReport; readonly problem?: string }
  /** The folders whose free space is shown: where the caches live, the data folder. */
  readonly folders: Readonly<Record<string, string>>
}

/** Versions, the OS, its language and region, the install kind, the update state and disk space, as text. */
export function summaryText(sources: DiagnosticsSources): string {
  const versions = process.versions as NodeJS.ProcessVersions & { electron?: string; chrome?: string }
  const intl = Intl.DateTimeFormat().resolvedOptions()
  const lines = [
    `${sources.app.name} ${sources.app.version} (${sources.runtime === 'app' ? 'the app' : 'the command line'})`,
    `Written: ${sources.now.toISOString()}`,
    `Electron: ${versions.electron ?? 'not in this runtime'}`,
    `Chromium: ${versions.chrome ?? 'not in this runtime'}`,
    `Node: ${process.versions.node}`,
    `OS: ${process.platform} ${process.arch}, release ${release()}`,
    `Language and region: ${intl.locale}${sources.app.systemLocale === undefined ? '' : `, regional formats ${sources.app.systemLocale}`}, time zone ${intl.timeZone}`,
    `Install kind: ${sources.shell?.installKind ?? (sources.runtime === 'cli' ? 'command line, run from source' : 'not known here')}`,
    `Updates: ${sources.shell?.updateState ?? 'not known here'}`,
    '',
    'Free disk space:',
    ...Object.entries(sources.folders).map(([what, folder]) => {
      const free = freeBytes(folder)
      return `  ${what} (${folder}): ${free === undefined ? 'not known' : formatBytes(free)}`
    }),
  ]
  return `${lines.join('\n')}\n`
}

/** The machine policy in force: its source, its values without the client secret, or why it was not applied. */
export function policyJson(policy: PolicyInForce): unknown {
  return {
    source: policy.source ?? null,
    problem: policy.problem === undefined ? null : policy.problem.message,
    policy: policy.policy === undefined ? null : policyWithoutSecrets(policy.policy),
  }
}

/**
 * Each profile's settings a diagnostics file shows: where it connects and how, never a secret (secrets are not
 * settings), a proxy's credentials, a saved view or search, or the client certificate's names (a person's).
 */
export function profileJson(profile: DiagnosticsProfile): unknown {
  const s = profile.settings
  return {
    name: profile.name,
    active: profile.active,
    environment: environmentLabel(s.environment),
    address: s.environment === 'demo' ? 'the built-in sample data' : s.baseUrls[s.environment],
    clientId: s.clientId,
    tenant: s.tenantId,
    redirectUri: s.redirectUri,
    scopes: s.scopes,
    syncScope: s.syncScope,
    pageSize: s.pageSize,
    concurrency: s.concurrency,
    requestTimeoutSeconds: s.requestTimeoutSeconds,
    syncDeadlineMinutes: s.syncDeadlineMinutes,
    networkMode: s.proxyMode,
    proxy: withoutCredentials(s.proxyUrl),
    proxyBypass: s.proxyBypass,
    pacFile: withoutCredentials(s.pacUrl),
    certificateFile: s.extraCertificatesFile === '' ? '' : basename(s.extraCertificatesFile),
    clientCertificate: s.clientCertificateSubject === '' ? 'none' : 'chosen',
  }
}

/** A profile's runs: status, counts, durations and errors; a change report's counts, never its employees. */
export function runsJson(profile: DiagnosticsProfile): unknown {
  return {
    profile: profile.name,
    runs:
      profile.runs === undefined
        ? 'The run log could not be read.'
        : profile.runs.map((run) => ({
            status: run.status,
            startedAt: run.startedAt,
            endedAt: run.endedAt,
            durationMs: run.durationMs,
            employees: run.totalCount,
            stored: run.stored,
            pages: run.pages,
            requests: run.requests,
            ...(run.error === undefined ? {} : { error: run.error }),
            ...(run.errorCode === undefined ? {} : { errorCode: run.errorCode }),
            ...(run.changes === undefined
              ? {}
              : {
                  changes: {
                    added: run.changes.added,
                    removed: run.changes.removed,
                    changed: run.changes.changed,
                  },
                }),
          })),
  }
}

/** An address without a user name or password in it. */
export function withoutCredentials(address: string): string {
  return address.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1')
}
