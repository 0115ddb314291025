import type { ServiceLookupResult } from '../../../shared/domain/lookup'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { formatCount, plural } from '../format/format-value'
import { formatDateTime, formatRelativeTime } from '../format/relative-time'
import { useNow } from '../hooks/use-now'
import { displayedValue, usePayDisplay } from '../hooks/use-pay-display'
import { fieldOf } from '../../../shared/row-field'

interface LiveResultsProps {
  readonly text: string
  readonly result: ServiceLookupResult
  /** The table's visible columns, so live rows read like saved ones. */
  readonly columns: readonly ColumnInfo[]
  readonly onHide: () => void
}

/** "last name or first name" */
function columnList(result: ServiceLookupResult, joiner: 'and' | 'or'): string {
  const labels = result.searched.map((searched) => searched.label.toLowerCase())
  return labels.length < 2
    ? (labels[0] ?? '')
    : `${labels.slice(0, -1).join(', ')} ${joiner} ${labels.at(-1) ?? ''}`
}

/** What the heading says after the dash: how much of the answer the saved employees lack. */
function savedWords(rows: ServiceLookupResult['rows']): string {
  const unsaved = rows.filter((row) => !row.saved).length
  if (unsaved === rows.length) return 'not in your saved employees until the next sync'
  if (unsaved === 0) return 'all of them are in your saved employees too'
  return `${formatCount(unsaved)} of ${formatCount(rows.length)} not in your saved employees until the next sync`
}

/** Why nothing came back, and what to try, when the text suggests a better way to ask. */
function emptyHint(text: string, result: ServiceLookupResult): string | undefined {
  const names = result.searched.every(
    (searched) => searched.column === 'lastName' || searched.column === 'firstName',
  )
  if (!names) return undefined
  if (/[\d@]/.test(text))
    return 'To look up an employee number or an email, choose its column in “Search in”.'
  if (/\s/.test(text.trim())) return 'Check the spelling, or look up the last name alone.'
  return undefined
}

/** Where the rows came from: "in last name or first name", "with last name “Ricci” and first name “Giuseppe”". */
function foundWhere(result: ServiceLookupResult): string {
  const named = result.asNames.filter((reading) => reading.matched > 0)
  const inColumns = result.searched.some((searched) => searched.totalCount > 0) || named.length === 0
  return [
    ...(inColumns ? [`in ${columnList(result, 'or')}`] : []),
    ...named.map((reading) => `with last name “${reading.lastName}” and first name “${reading.firstName}”`),
  ].join(', or ')
}

/**
 * Employees the payroll service returned just now, set apart from the saved ones: a "Live" badge, its own
 * colours, and words saying they stay out of the saved employees (and search, filters and exports) until the
 * next sync. Each row says whether the saved employees hold it too.
 */
export function LiveResults({ text, result, columns, onHide }: LiveResultsProps) {
  const now = useNow()
  const display = usePayDisplay()
  const rows = result.rows
  const more = result.searched.filter((searched) => searched.totalCount > searched.shown)
  return (
    <section className="live-results" aria-labelledby="live-results-title">
      <div className="live-results-head">
        <span className="live-badge" aria-hidden="true">
          Live
        </span>
        <h2 id="live-results-title">
          From the service{' '}
          <time dateTime={result.fetchedAt} title={formatDateTime(result.fetchedAt)}>
            {formatRelativeTime(result.fetchedAt, now)}
          </time>
          {rows.length > 0 ? ` — ${savedWords(rows)}` : null}
        </h2>
        <button type="button" onClick={onHide}>
          Hide
        </button>
      </div>
      {rows.length === 0 ? (
        <>
          <p>
            The payroll service has nobody matching “{text}” in {columnList(result, 'or')}
            {result.asNames.length > 0 ? ', nor as a last and a first name either way round' : ''}.
          </p>
          {emptyHint(text, result) !== undefined ? <p className="muted">{emptyHint(text, result)}</p> : null}
        </>
      ) : (
        <>
          <p className="muted">
            Found {plural(rows.length, 'employee')} for “{text}” {foundWhere(result)}.
            {more.map((searched) => (
              <span key={searched.column}>
                {' '}
                Showing the first {formatCount(searched.shown)} of {formatCount(searched.totalCount)} matches
                in {searched.label.toLowerCase()}: type more to narrow it down.
              </span>
            ))}
            {result.asNames
              .filter((reading) => reading.totalCount > reading.shown)
              .map((reading) => (
                <span key={`${reading.lastName}\n${reading.firstName}`}>
                  {' '}
                  Checked the first {formatCount(reading.shown)} of {formatCount(reading.totalCount)}{' '}
                  employees with last name “{reading.lastName}”: sync to search them all in your saved
                  employees.
                </span>
              ))}
          </p>
          {/* Focusable, so a keyboard user can scroll a wide answer sideways (WCAG 2.1.1). */}
          <div
            className="live-table-scroll"
            tabIndex={0}
            role="region"
            aria-label="Employees found on the payroll service, scrollable"
          >
            <table className="live-table" aria-label="Employees found on the payroll service">
              <thead>
                <tr>
                  <th scope="col">Saved?</th>
                  {columns.map((column) => (
                    <th scope="col" key={column.key}>
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map(({ row, saved }) => (
                  <tr key={String(row.UUID)} className={saved ? 'live-saved' : 'live-unsaved'}>
                    <td>{saved ? 'Also saved' : 'Not saved yet'}</td>
                    {columns.map((column) => (
                      <td key={column.key}>
                        {displayedValue(display, fieldOf(row, column.key), column.key)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  )
}
