import type { ExportAbout } from './export-types'

/** One line of the "About this export" sheet: a label and a value the writer types (text, number or time). */
export interface AboutLine {
  readonly label: string
  readonly value: string | number | Date
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
}

const ENVIRONMENT_NAMES: Readonly<Record<string, string>> = {
  demo: 'Demo (sample data)',
  staging: 'Staging',
  production: 'Production',
}

function listOrAll(values: ReadonlyArray<string> | undefined, all: string): string {
  return values === undefined || values.length === 0 ? all : values.join(', ')
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
          : 'Employee list, as filtered in RosterDesk',
    },
    { label: 'Environment', value: ENVIRONMENT_NAMES[about.environment] ?? about.environment },
    { label: 'Tenant', value: about.tenantId === '' ? '(none)' : about.tenantId },
  ]
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
        : `"${search.text}" in ${search.columnLabel ?? 'names and UUID'}`,
  })
  lines.push({
    label: 'Sorted by',
    value:
      about.sort === undefined
        ? 'Default order'
        : `${about.sort.columnLabel}, ${about.sort.order === 'asc' ? 'ascending' : 'descending'}`,
  })
  lines.push({ label: 'Columns', value: facts.columnLabels.join(', ') })
  lines.push({ label: 'Rows', value: facts.rows })
  if (facts.sheetNames.length > 1) {
    lines.push({
      label: 'Sheets',
      value: `${facts.sheetNames.join(', ')} (at most ${facts.rowsPerSheet.toLocaleString('en-US')} rows each)`,
    })
  }
  lines.push({ label: 'Data synced', value: about.syncedAt ?? 'Never synced' })
  lines.push({ label: 'File made', value: about.createdAt })
  if (about.appVersion !== undefined)
    lines.push({ label: 'Made with', value: `RosterDesk ${about.appVersion}` })
  if (facts.convertedTimes) {
    lines.push({ label: 'Times', value: 'Date-times the service sent with a time zone are shown in UTC.' })
  }
  if (facts.truncatedCells > 0) {
    lines.push({
      label: 'Shortened cells',
      value: `${facts.truncatedCells} cell(s) held more than Excel's 32,767 characters and were cut to fit.`,
    })
  }
  return lines
}
