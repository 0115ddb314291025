import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { exportRecordEntrySchema, type ExportRecordEntry } from '../../../shared/domain/export'
import { isSensitiveField } from '../../../shared/sensitive-fields'
import type { Clock } from '../clock'
import { fsyncDirectory } from '../durable-fs'
import type { Logger } from '../log/logger'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../owner-only'
import type { PolicyInForce } from '../policy/policy-in-force'

/**
 * The export record (issue 34, point 3): one line for every file that left RosterDesk (an export of a view or of
 * chosen rows, a roster, a change report, a print, a copy of more than one row), in the app and the CLI, kept in
 * the user's data folder as append-only JSON lines (`export-record.jsonl`, 0600). A line says when, which
 * profile, what, the filters and columns, the row count, whether sensitive columns went (shared/sensitive-fields),
 * and the file's name and folder; never an employee's data: a search's text is recorded as "searched", not as
 * what was typed (a name is personal data), and no row value is ever written.
 */

export const EXPORT_RECORD_FILE = 'export-record.jsonl'

/** How long entries are kept unless the machine policy says otherwise (`personalData.exportRecordDays`). */
export const EXPORT_RECORD_DEFAULT_DAYS = 365

const DAY_MS = 24 * 60 * 60 * 1000

export type { ExportRecordEntry }

/** What the one recording an export makes says; the record adds the time and the runtime. */
export type ExportRecordInput = Omit<
  ExportRecordEntry,
  'at' | 'runtime' | 'sensitiveColumns' | 'fileName' | 'folder'
> & {
  /** The file written; absent for a print or a copy. */
  readonly filePath?: string
  /**
   * Whether sensitive data went, when the columns cannot say (a change report's fields are its rows); absent:
   * whether one of `columns` is sensitive (shared/sensitive-fields.ts).
   */
  readonly sensitiveColumns?: boolean
}

/** The record as read back: its entries, oldest first, and how many damaged lines were skipped. */
export interface ExportRecordRead {
  readonly entries: readonly ExportRecordEntry[]
  readonly skipped: number
}

export interface ExportRecordDeps {
  /** The user's data folder (the app's userData, the CLI's --data-dir). */
  readonly dataDir: string
  readonly runtime: 'app' | 'cli'
  readonly clock: Pick<Clock, 'now'>
  /** Days an entry is kept (`personalData.exportRecordDays`); EXPORT_RECORD_DEFAULT_DAYS when absent. */
  readonly keepDays?: number
  readonly logger?: Pick<Logger, 'warn'>
}

/**
 * Appends and reads the export record. Each append is one `write` of a whole line to a file opened for appending
 * and then fsynced, so a line is either all there or (after a crash mid-write) a damaged tail a reader skips.
 * Entries past `keepDays` are dropped once per process, at the first append, by writing the kept lines to a new
 * file that replaces the old (rename), never by editing it in place.
 */
export class ExportRecord {
  private pruned = false

  constructor(private readonly deps: ExportRecordDeps) {}

  get path(): string {
    return join(this.deps.dataDir, EXPORT_RECORD_FILE)
  }

  /** Writes one entry, durably. Throws what the file system says (a full disk, a folder not writable). */
  append(input: ExportRecordInput): ExportRecordEntry {
    const { filePath, sensitiveColumns, ...rest } = input
    const entry = exportRecordEntrySchema.parse({
      ...rest,
      at: new Date(this.deps.clock.now()).toISOString(),
      runtime: this.deps.runtime,
      sensitiveColumns: sensitiveColumns ?? input.columns.some(isSensitiveField),
      ...(filePath === undefined ? {} : { fileName: basename(filePath), folder: dirname(filePath) }),
    })
    mkdirOwnerOnly(this.deps.dataDir)
    if (!this.pruned) {
      this.pruned = true
      this.prune()
    }
    const fd = openSync(this.path, 'a', OWNER_FILE_MODE)
    try {
      writeSync(fd, `${JSON.stringify(entry)}\n`)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    return entry
  }

  /** Every entry, oldest first; a line that is not a whole entry is skipped and counted, never the file lost. */
  read(): ExportRecordRead {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], skipped: 0 }
      throw error
    }
    const entries: ExportRecordEntry[] = []
    let skipped = 0
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue
      const entry = parseLine(line)
      if (entry === undefined) skipped += 1
      else entries.push(entry)
    }
    return { entries, skipped }
  }

  /**
   * The entries newest first (Help → Export history, `cli audit`), only `profile`'s when given (its name compared
   * ignoring case; a deleted profile's entries stay), and how many damaged lines were skipped.
   */
  newestFirst(profile?: string): ExportRecordRead {
    const read = this.read()
    const wanted = profile?.toLowerCase()
    const entries = read.entries.filter(
      (entry) => wanted === undefined || entry.profile?.toLowerCase() === wanted,
    )
    return { entries: entries.reverse(), skipped: read.skipped }
  }

  /** Drops entries older than `keepDays` (and damaged lines, once warned about), replacing the file whole. */
  private prune(): void {
    const { entries, skipped } = this.read()
    const keepDays = this.deps.keepDays ?? EXPORT_RECORD_DEFAULT_DAYS
    const oldest = this.deps.clock.now() - keepDays * DAY_MS
    const kept = entries.filter((entry) => Date.parse(entry.at) >= oldest)
    if (kept.length === entries.length) return
    if (skipped > 0)
      this.deps.logger?.warn(`Export record: ${skipped} damaged line(s) dropped while removing old entries`)
    const next = `${this.path}.new`
    const fd = openSync(next, 'w', OWNER_FILE_MODE)
    try {
      writeSync(fd, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(next, this.path)
    fsyncDirectory(this.deps.dataDir)
  }
}

/** The record's `keepDays` as the machine policy sets it (`personalData.exportRecordDays`); {} for the default. */
export function exportRecordDays(inForce: PolicyInForce): { readonly keepDays?: number } {
  const days = inForce.policy?.personalData?.exportRecordDays
  return days === undefined ? {} : { keepDays: days }
}

function parseLine(line: string): ExportRecordEntry | undefined {
  try {
    const parsed = exportRecordEntrySchema.safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
