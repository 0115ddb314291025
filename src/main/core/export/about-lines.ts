import { ACTIVE_STATUS_FILTER } from '../api/list-request'
import { DEFAULT_ORDER_LABEL } from '../query/sort-order'
import type { ExportAbout } from './export-types'
import { formatZonedTime, localTimeZone } from './zoned-time'

/** One line of the "About this export" sheet: a label and a value the writer types (text or number). */
export interface AboutLine {
  readonly label: string
  /** Times are text that names their zone (see zoned-time.ts): a date-time cell could not say it. */
  readonly value: string | number
}

/** What only the writer knows once the rows are written. */
export interface AboutFacts {
  readonly rows: number
  readonly columnLabels: ReadonlyArray<string>
  readonly sheetNames: ReadonlyArray<string>
  /** Data rows one sheet holds before the export continues on the next. */
  readonly rowsPerSheet: number
  /** Cells longer than Excel's limit that were cut. */
  readonly truncatedCells: number
  /** Whether any date-time carried a time-zone offset and was converted to UTC. */
  readonly convertedTimes: boolean
  /** A multi-part export's parts (sheet name, rows), in order. */
  readonly sections?: ReadonlyArray<{ readonly name: string; readonly rows: number }>
  /**
   * The clerk's regional formats (shared/locale-format.ts) for the moments a printed page shows; absent in files,
   * whose About text stays "YYYY-MM-DD HH:MM" wherever they are opened.
   */
  readonly locale?: string
}

const ENVIRONMENT_NAMES: Readonly<Record<string, string>> = {
  demo: 'Demo (sample data)',
  staging: 'Staging',
  production: 'Production',
}

function listOrAll(values: ReadonlyArray<string> | undefined, all: string): string {
  return values === undefined || values.length === 0 ? all : values.join(', ')
}

/** What a sync's `statusFilter` kept, in words, with the parameter as sent so support can match it. */
function scopeText(statusFilter: string): string {
  const kept =
    statusFilter === ACTIVE_STATUS_FILTER
      ? 'Active employees only'
      : `Employees of status code ${statusFilter} only`
  return `${kept} (statusFilter=${statusFilter})`
}

/**
 * The lines that tell whoever opens the file later what it is: which service and tenant, which rows (pay cycle,
 * filters, search, order), how old the data was and when the file was made.
 */
export function aboutLines(about: ExportAbout, facts: AboutFacts): AboutLine[] {
  const lines: AboutLine[] = [
    {
      label: 'Export',
      value:
        about.kind === 'roster'
          ? `Roster of pay cycle ${about.payCycleId ?? ''}`.trim()
          : about.kind === 'changes'
            ? 'Employees one sync added, removed and changed'
            : about.chosenRows !== undefined
              ? `${about.chosenRows.toLocaleString('en-US')} employees selected in RosterDesk's list, as filtered below`
              : 'Employee list, as filtered in RosterDesk',
    },
    ...(about.firstRows === undefined
      ? []
      : [
          {
            label: 'Limit',
            value: `Its first ${about.firstRows.toLocaleString('en-US')} rows in this order: the most your organisation allows in one export`,
          },
        ]),
    ...(about.profile === undefined ? [] : [{ label: 'Profile', value: about.profile }]),
    { label: 'Environment', value: ENVIRONMENT_NAMES[about.environment] ?? about.environment },
    { label: 'Tenant', value: about.tenantId === '' ? '(none)' : about.tenantId },
  ]
  if (about.kind === 'changes') {
    lines.push(...changesLines(about, facts))
  } else {
    lines.push(...selectionLines(about, facts))
  }
  lines.push({ label: 'Rows', value: facts.rows })
  if (facts.sheetNames.length > 1 && about.kind !== 'changes') {
    lines.push({
      label: 'Sheets',
      value: `${facts.sheetNames.join(', ')} (at most ${facts.rowsPerSheet.toLocaleString('en-US')} rows each)`,
    })
  }
  return [...lines, ...provenanceLines(about, facts)]
}

/** A changes export: where the sync read from, how many employees each sheet lists, and how to read them. */
function changesLines(about: ExportAbout, facts: AboutFacts): AboutLine[] {
  const lines: AboutLine[] = []
  const counts = about.changes
  if (counts?.serviceAddress !== undefined)
    lines.push({ label: 'Service address', value: counts.serviceAddress })
  if (counts !== undefined) {
    lines.push({ label: 'Added', value: counts.added })
    lines.push({ label: 'Removed', value: counts.removed })
    lines.push({ label: 'Changed', value: counts.changed })
  }
  if (facts.sections !== undefined && facts.sections.length > 0) {
    lines.push({
      label: 'Sheets',
      value: facts.sections
        .map(
          (section) =>
            `${section.name} (${section.rows.toLocaleString('en-US')} ${section.rows === 1 ? 'row' : 'rows'})`,
        )
        .join(', '),
    })
  }
  lines.push({
    label: 'Reading it',
    value:
      'A changed employee has one row per field that changed, with its value before and after the sync. ' +
      'A removed employee shows the last values the cache held.',
  })
  return lines
}

/** Which employees a list or roster export holds: pay cycle, filters, search, order and columns. */
function selectionLines(about: ExportAbout, facts: AboutFacts): AboutLine[] {
  const lines: AboutLine[] = []
  if (about.kind === 'roster') {
    lines.push({ label: 'Pay cycle', value: about.payCycleId ?? '' })
  } else {
    lines.push({ label: 'Pay cycles', value: listOrAll(about.payCycleIds, 'All pay cycles') })
  }
  lines.push({ label: 'Statuses', value: listOrAll(about.statuses, 'All statuses') })
  const search = about.search
  lines.push({
    label: 'Search',
    value:
      search === undefined || search.text.trim() === ''
        ? 'None'
        : `"${search.text}" in ${search.columnLabel ?? 'names and IDs'}`,
  })
  lines.push({
    label: 'Sorted by',
    value:
      about.sort === undefined
        ? DEFAULT_ORDER_LABEL
        : `${about.sort.columnLabel}, ${about.sort.order === 'asc' ? 'ascending' : 'descending'}`,
  })
  lines.push({ label: 'Columns', value: facts.columnLabels.join(', ') })
  return lines
}

/** How old the data is, when and with what the file was made, and what the writer had to adjust. */
function provenanceLines(about: ExportAbout, facts: AboutFacts): AboutLine[] {
  const lines: AboutLine[] = []
  const timeZone = about.timeZone ?? localTimeZone()
  lines.push({
    label: 'Data synced',
    value: about.syncedAt === null ? 'Never synced' : formatZonedTime(about.syncedAt, timeZone, facts.locale),
  })
  // A scoped cache never held everyone, so every file made from it says so, whatever the filters on screen.
  if (about.statusFilter !== undefined) lines.push({ label: 'Scope', value: scopeText(about.statusFilter) })
  lines.push({ label: 'File made', value: formatZonedTime(about.createdAt, timeZone, facts.locale) })
  if (about.appVersion !== undefined)
    lines.push({ label: 'Made with', value: `RosterDesk ${about.appVersion}` })
  if (facts.convertedTimes) {
    lines.push({
      label: 'Times',
      value: 'Date-times the service sent with a time zone are shown in UTC, marked UTC in their cells.',
    })
  }
  if (facts.truncatedCells > 0) {
    lines.push({
      label: 'Shortened cells',
      value: `${facts.truncatedCells} cell(s) held more than Excel's 32,767 characters and were cut to fit.`,
    })
  }
  return lines
}
