import { systemClock } from '../core/clock'
import { ExportRecord, type ExportRecordEntry } from '../core/export-record/export-record'
import { recordFiltersText, recordWhatText } from '../../shared/export-record-text'
import { appDataDir } from './data-dir'
import {
  parseCommandArgs,
  reportUsage,
  stringOption,
  writeLine,
  type CacheCommandIo,
} from './cache-command-args'

export const AUDIT_USAGE = 'Usage: audit [--profile NAME] [--json] [--data-dir DIR]'

/**
 * `audit`: the export record (export-record.ts), newest first: every file the app and the CLI exported, with
 * its profile, what it held (filters, columns, rows, whether sensitive columns went) and where it went; never an
 * employee's data. `--profile NAME` keeps that profile's entries (names compared ignoring case;
 * a deleted profile's too). Damaged lines are skipped and counted. Exit 0; 1 when the record cannot be read; 2
 * for bad usage.
 */
export async function runAuditCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let profile: string | undefined
  let json: boolean
  let dataDir: string
  try {
    const values = parseCommandArgs(args, {
      profile: { type: 'string' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
    })
    profile = stringOption(values, 'profile')
    json = values['json'] === true
    dataDir = io.dataDir ?? appDataDir(stringOption(values, 'data-dir'), io.env, io.platform)
  } catch (error) {
    return reportUsage(error, io, AUDIT_USAGE)
  }
  const record = new ExportRecord({ dataDir, runtime: 'cli', clock: systemClock })
  let read: ReturnType<ExportRecord['newestFirst']>
  try {
    read = record.newestFirst(profile)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    writeLine(
      io.stderr,
      `The export record ${record.path} cannot be read (${typeof code === 'string' ? code : 'unreadable'}).`,
    )
    return 1
  }
  const { entries } = read
  if (json) {
    writeLine(io.stdout, JSON.stringify({ record: record.path, entries, skippedLines: read.skipped }))
    return 0
  }
  if (entries.length === 0) {
    writeLine(
      io.stdout,
      profile === undefined
        ? `Nothing has been exported yet (${record.path}).`
        : `Nothing has been exported from profile "${profile}" (${record.path}).`,
    )
  }
  for (const entry of entries) writeLine(io.stdout, entryLine(entry))
  if (read.skipped > 0)
    writeLine(io.stderr, `${read.skipped} damaged line(s) of ${record.path} were skipped.`)
  return 0
}

/** One entry as a line: when, where from, what, how much, sensitive or not, and where it went. */
function entryLine(entry: ExportRecordEntry): string {
  const filtered = recordFiltersText(entry)
  const parts = [
    entry.at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'),
    `${entry.runtime === 'cli' ? 'command line' : 'app'}${entry.profile === undefined ? '' : `, ${entry.profile}`}`,
    `${recordWhatText(entry)}${entry.format === undefined ? '' : ` (${entry.format})`}`,
    `${entry.rows.toLocaleString('en')} rows, ${entry.columns.length} columns`,
    entry.sensitiveColumns ? 'with sensitive columns' : 'no sensitive columns',
    ...(filtered.length > 0 ? [filtered.join('; ')] : []),
    ...(entry.fileName === undefined ? [] : [`${entry.fileName} in ${entry.folder ?? ''}`]),
  ]
  return parts.join(' · ')
}
