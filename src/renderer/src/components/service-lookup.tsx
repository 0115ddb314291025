import { useEffect, useId } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { serviceLookupColumn, serviceLookupColumns, serviceLookupNames } from '../../../shared/service-lookup'
import type { EmployeeFilters } from '../data/employee-filters'
import { useServiceLookup, type ServiceLookupAsked } from '../hooks/use-service-lookup'
import type { Unreachable } from '../hooks/use-online'
import { LiveResults } from './live-results'

interface ServiceLookupProps {
  /** The browse view's search: its text (as the table last ran it), "Search in" column and sort. */
  readonly filters: EmployeeFilters
  /** Saved employees matching the search; undefined while the table is still answering. */
  readonly localMatches: number | undefined
  /** The search box's text as typed, before the table runs it: a look-up's answer or error for other text goes. */
  readonly typedText: string
  readonly signedIn: boolean
  /** Why the service cannot be asked now: the computer offline, or the last sync reached no service. */
  readonly unreachable: Unreachable | undefined
  readonly onSignIn: () => void
  /** Every column, for the names of the ones searched. */
  readonly columns: readonly ColumnInfo[]
  /** The table's visible columns, for the live rows. */
  readonly visibleColumns: readonly ColumnInfo[]
  /** "Did you mean" offers a saved name: that is the main choice, and looking up on the service the quiet one. */
  readonly suggested: boolean
}

function sameAsked(a: ServiceLookupAsked, b: ServiceLookupAsked): boolean {
  return a.text === b.text && a.column === b.column
}

/**
 * "last name and first name": the columns a lookup of `text` will search, by their labels; for a full name, also
 * "and as a last and a first name either way round" (serviceLookupNames).
 */
function searchedWords(text: string, column: string | undefined, columns: readonly ColumnInfo[]): string {
  const labels = serviceLookupColumns(text, column).map((key) => {
    const label = columns.find((c) => c.key === key)?.label ?? key
    // In a sentence, but an acronym stays one: "in UUID", not "in uuid".
    return label === label.toUpperCase() ? label : label.toLowerCase()
  })
  const where =
    labels.length < 2 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) ?? ''}`
  return serviceLookupNames(text, column).length > 0
    ? `${where}, and as a last and a first name either way round`
    : where
}

/**
 * "Look up on the service": for someone the saved employees lack (hired since the last sync), asks the payroll
 * service itself, through main, with the text and "Search in" column of the search box. Offered prominently when
 * the saved employees have no match, and as a quieter link otherwise; what it finds is shown apart, as live.
 */
export function ServiceLookup(props: ServiceLookupProps) {
  const {
    filters,
    localMatches,
    typedText,
    signedIn,
    unreachable,
    onSignIn,
    columns,
    visibleColumns,
    suggested,
  } = props
  const lookup = useServiceLookup()
  const { state: lookupState, clear: clearLookup } = lookup
  const reasonId = useId()
  // Another text or "Search in" column: an earlier look-up's answer or error is about something else now, and
  // leaves at the first keystroke rather than once the table has run the new text (or again on coming back to it).
  useEffect(() => {
    if (lookupState.status === 'idle') return
    const typed = typedText.trim()
    // The column it would be asked in now (a number typed: the employee number), as `asked` below says it.
    const typedAsked = { text: typed, column: serviceLookupColumn(typed, filters.searchColumn, columns) }
    if (!sameAsked(lookupState.asked, typedAsked)) clearLookup()
  }, [lookupState, typedText, filters.searchColumn, columns, clearLookup])
  const text = filters.text.trim()
  if (text === '' || localMatches === undefined) return null

  // A number typed in the default search is looked up in the employee number, not the names.
  const column = serviceLookupColumn(text, filters.searchColumn, columns)
  const asked: ServiceLookupAsked = { text, column }
  const state =
    lookup.state.status !== 'idle' && sameAsked(lookup.state.asked, asked) ? lookup.state : undefined
  const run = (): void =>
    lookup.lookUp({
      text,
      ...(column === undefined ? {} : { column }),
      ...(filters.sort === undefined ? {} : { sort: filters.sort }),
    })

  if (state?.status === 'done') {
    return <LiveResults text={text} result={state.result} columns={visibleColumns} onHide={lookup.clear} />
  }
  if (state?.status === 'looking-up') {
    return (
      <div className="service-lookup" role="status">
        <p>Looking up “{text}” on the payroll service…</p>
      </div>
    )
  }
  if (state?.status === 'error') {
    return (
      <div className="service-lookup service-lookup-error" role="alert">
        <p>{state.message}</p>
        {state.code === 'not-signed-in' ? (
          <button type="button" onClick={onSignIn}>
            Sign in
          </button>
        ) : (
          <button type="button" onClick={run} disabled={unreachable !== undefined}>
            Try again
          </button>
        )}
      </div>
    )
  }

  const missing = localMatches === 0
  const main = missing && !suggested
  const blocked = unreachable ?? (!signedIn ? 'signed-out' : undefined)
  return (
    <div className={`service-lookup${main ? '' : ' service-lookup-quiet'}`}>
      <p>
        {missing ? 'Not in your saved employees. Hired since the last sync? ' : 'Someone missing? '}
        Search the payroll service for “{text}” in {searchedWords(text, column, columns)}.
      </p>
      <button
        type="button"
        className={main ? 'primary' : undefined}
        onClick={run}
        disabled={blocked !== undefined}
        aria-describedby={blocked === undefined ? undefined : reasonId}
      >
        Look up on the service
      </button>
      {blocked === 'offline' ? (
        <p className="muted" id={reasonId}>
          You are offline: looking up on the service needs a connection.
        </p>
      ) : null}
      {blocked === 'service-down' ? (
        <p className="muted" id={reasonId}>
          The payroll service did not answer the last sync: sync again once it is back, then look up.
        </p>
      ) : null}
      {blocked === 'signed-out' ? (
        <p className="muted" id={reasonId}>
          Sign in to look up on the service.{' '}
          <button type="button" onClick={onSignIn}>
            Sign in
          </button>
        </p>
      ) : null}
    </div>
  )
}
