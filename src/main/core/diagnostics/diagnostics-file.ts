import { chmod, open } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { connectionReportText } from '../../../shared/connection-report'
import { PartFile } from '../durable-fs'
import { diskFullError, isDiskFull } from '../disk-full'
import { RosterDeskError } from '../errors'
import { OWNER_FILE_MODE } from '../owner-only'
import { DiagnosticsRedactor, REDACTION_KINDS } from './diagnostics-redact'
import { coreRestartsFor, crashSummariesFor, DIAGNOSTICS_LOG_DAYS, readRecentLogs } from './diagnostics-logs'
import {
  DIAGNOSTICS_RUNS,
  policyJson,
  profileJson,
  runsJson,
  summaryText,
  type DiagnosticsSources,
} from './diagnostics-parts'
import { zipArchive, type ZipEntry } from './zip-file'

/** The name the save dialog (and `cli diagnostics`'s help) proposes: "RosterDesk diagnostics 2026-12-08.zip". */
export function diagnosticsFileName(now: Date): string {
  return `RosterDesk diagnostics ${now.toISOString().slice(0, 10)}.zip`
}

/** What was written: the file, and how many values the second redaction replaced. */
export interface DiagnosticsWritten {
  readonly filePath: string
  readonly replaced: number
  readonly entries: readonly string[]
}

/** The parts a diagnostics file holds, as text, before the redaction. */
function parts(sources: DiagnosticsSources, logsDir: string): Array<{ name: string; text: string }> {
  const logs = readRecentLogs(logsDir, sources.now)
  const crashes = crashSummariesFor(logs)
  const restarts = coreRestartsFor(logs)
  const { report, problem } = sources.connection
  return [
    { name: 'summary.txt', text: summaryText(sources) },
    { name: 'policy.json', text: json(policyJson(sources.policy)) },
    { name: 'profiles.json', text: json(sources.profiles.map(profileJson)) },
    { name: 'sync-runs.json', text: json(sources.profiles.map(runsJson)) },
    {
      name: 'connection-report.txt',
      text: `${report === undefined ? `No connection report: ${problem ?? 'the check did not run.'}` : connectionReportText(report)}\n`,
    },
    {
      name: 'crashes.txt',
      text: [
        'Crash summaries:',
        ...(crashes.length === 0 ? ['  none in the logs kept'] : crashes.map((line) => `  ${line}`)),
        '',
        'The core process’s stops and restarts:',
        ...(restarts.length === 0 ? ['  none in the logs kept'] : restarts.map((line) => `  ${line}`)),
        '',
      ].join('\n'),
    },
    ...logs.map((log) => ({ name: `logs/${log.name}`, text: `${log.text}\n` })),
  ]
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

/** README.txt: what the file holds, what was left out, and how many values were replaced (by kind). */
function readme(
  sources: DiagnosticsSources,
  names: readonly string[],
  redactor: DiagnosticsRedactor,
): string {
  const replaced = redactor.replaced()
  const byKind = REDACTION_KINDS.filter((kind) => (replaced.get(kind) ?? 0) > 0).map(
    (kind) => `${replaced.get(kind)} ${kind}`,
  )
  return [
    `RosterDesk diagnostics, written ${sources.now.toISOString()} by ${sources.runtime === 'app' ? 'the app (Help → Save diagnostics…)' : 'the command line (cli diagnostics)'}.`,
    'Nothing was sent anywhere: this file is for the person who helps you (IT, support).',
    '',
    'What is in it:',
    '  summary.txt            versions (RosterDesk, Electron, Chromium, Node), the OS, its language and region,',
    '                         the install kind, the update state, free disk space where the caches live',
    '  policy.json            the machine policy in force: its source and values (no client secret)',
    '  profiles.json          each profile’s settings: address, environment, client ID, tenant, network mode,',
    '                         proxy (without credentials), certificate file name',
    `  sync-runs.json         each profile’s last ${DIAGNOSTICS_RUNS} sync runs: status, counts, durations, errors`,
    '  connection-report.txt  the connection check of the profile, as “Copy report” gives it',
    '  crashes.txt            crash summaries and the core process’s restarts found in the logs',
    `  logs/                  the logs of today and the last ${DIAGNOSTICS_LOG_DAYS} days`,
    '',
    'What was left out:',
    '  employee data (names, UUIDs, e-mails, pay, any value of a row), the saved employees themselves,',
    '  sign-in tokens, client secrets, proxy passwords, the cache key, Authorization headers,',
    '  saved views and searches, the client certificate’s names, and crash dumps.',
    '',
    `Values replaced by a second check (anything that looked like a credential, a token, an e-mail, a UUID or an IBAN): ${redactor.total()}${byKind.length === 0 ? '' : ` (${byKind.join(', ')})`}.`,
    '',
    `Files: ${names.join(', ')}`,
    '',
  ].join('\n')
}

/**
 * Writes a diagnostics zip at `filePath` (0600, through a part file beside it, so no half-written zip is ever
 * left under that name and the part file never outlives the write): README.txt and the parts, every text
 * redacted again by DiagnosticsRedactor with `keep` (values shown on purpose: client IDs, tenants). A full disk
 * is said as such; another failure is a 'storage' error naming the folder.
 */
export async function writeDiagnosticsFile(
  sources: DiagnosticsSources,
  logsDir: string,
  filePath: string,
): Promise<DiagnosticsWritten> {
  const keep = new Set<string>()
  for (const profile of sources.profiles) {
    for (const value of [profile.settings.clientId, profile.settings.tenantId])
      if (value !== '') keep.add(value)
  }
  const redactor = new DiagnosticsRedactor(keep)
  const redacted = parts(sources, logsDir).map(({ name, text }) => ({ name, text: redactor.text(text) }))
  const names = ['README.txt', ...redacted.map((part) => part.name)]
  const entries: ZipEntry[] = [
    { name: 'README.txt', data: Buffer.from(readme(sources, names, redactor), 'utf8') },
    ...redacted.map(({ name, text }) => ({ name, data: Buffer.from(text, 'utf8') })),
  ]
  const zip = zipArchive(entries, sources.now)
  const part = PartFile.beside(filePath)
  try {
    const handle = await open(part.path, 'wx', OWNER_FILE_MODE)
    try {
      await handle.writeFile(zip)
    } finally {
      await handle.close()
    }
    await chmod(part.path, OWNER_FILE_MODE)
    await part.publish()
  } catch (error) {
    await part.discard()
    if (isDiskFull(error))
      throw diskFullError({
        what: `Saving "${basename(filePath)}"`,
        folder: dirname(filePath),
        neededBytes: zip.length,
        cause: error,
      })
    throw new RosterDeskError(
      'storage',
      `The diagnostics file could not be saved in ${dirname(filePath)}. Choose another folder.`,
      { cause: error, detail: error instanceof Error ? error.message : String(error) },
    )
  }
  return { filePath, replaced: redactor.total(), entries: names }
}
