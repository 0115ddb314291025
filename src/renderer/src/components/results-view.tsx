import type { ReactNode } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { rowSourceLabel, type RowSource } from '../../../shared/source-identity'
import { hasFilters, type EmployeeFilters } from '../data/employee-filters'
import { formatCount } from '../format/format-value'
import { preparingText } from '../format/preparing-text'
import type { LoadedRows, RowsState } from '../hooks/use-employee-rows'
import { usePreparing } from '../hooks/use-preparing'
import { EmployeeTable, type TableActions } from './employee-table'
import { EmptyState } from './empty-state'

interface ResultsViewProps {
  readonly rows: RowsState & { retry: () => void }
  readonly employeeCount: number
  readonly filters: EmployeeFilters
  readonly columns: readonly ColumnInfo[]
  readonly signedIn: boolean
  readonly syncing: boolean
  readonly onSync: () => void
  readonly onSignIn: () => void
  readonly onClearFilters: () => void
  /** Sorting, selection, the detail panel, column sizes and order: what the table does for the browse view. */
  readonly table: TableActions
  /** Switches for the table shown at the count line's right end (Hide pay), when there is a table. */
  readonly tools?: ReactNode
  /** Where the rows shown came from (their run's source, `sync:get-status`), named by the count line. */
  readonly source?: RowSource | undefined
}

/**
 * The table, or the state in its place (loading, error, nothing synced, nothing matching) with a next step. While
 * the next answer is on its way the count line is busy and says "· updating…"; once the screen has waited longer than
 * UPDATING_SIGN_MS for an answer the old count is replaced by "Updating…", which stays through newer requests until an
 * answer comes, and the rows are dimmed (BrowseView marks the list busy).
 */
export function ResultsView(props: ResultsViewProps) {
  const { rows, employeeCount } = props
  const preparing = preparingText(usePreparing())
  if (rows.status === 'error') {
    return (
      <EmptyState title="Could not load employees" tone="error">
        <p>{rows.message}</p>
        <button type="button" onClick={rows.retry}>
          Try again
        </button>
      </EmptyState>
    )
  }
  const loaded: LoadedRows | undefined = rows.status === 'ready' ? rows : rows.previous
  if (!loaded) {
    return (
      <EmptyState title="Loading employees…">
        {preparing === undefined ? null : <p>{preparing.charAt(0).toUpperCase() + preparing.slice(1)}</p>}
      </EmptyState>
    )
  }
  const total = loaded.cache.total
  const loading = rows.status === 'loading'
  // Waiting longer than UPDATING_SIGN_MS for an answer: the count on screen is no longer the current one, so it goes.
  const slow = rows.status === 'loading' && rows.slow
  const why = preparing === undefined ? '' : ` ${preparing} the list stays usable meanwhile`
  return (
    <>
      <div className="result-head">
        <p className="result-count" aria-live="polite" aria-busy={loading}>
          {slow ? (
            `Updating…${why}`
          ) : (
            <>
              {formatCount(total)} of {formatCount(employeeCount)} employees
              {props.source === undefined ? null : (
                // In its own element: the count's own text stays "N of M employees" for whoever reads it alone.
                <span className="result-source">
                  {' from '}
                  <bdi>{rowSourceLabel(props.source)}</bdi>
                </span>
              )}
              {preparing !== undefined ? (
                // Says why an answer takes seconds (a first sort or "Search in" at a million employees).
                <span className="muted result-preparing">
                  {' · '}
                  {loading ? 'updating: ' : ''}
                  {preparing} the list stays usable meanwhile
                </span>
              ) : loading ? (
                <span className="muted"> · updating…</span>
              ) : null}
            </>
          )}
        </p>
        {props.tools === undefined ? null : <div className="table-tools">{props.tools}</div>}
      </div>
      {total === 0 ? <NoRows {...props} /> : null}
      {total > 0 ? (
        <EmployeeTable cache={loaded.cache} resetKey={loaded.key} columns={props.columns} {...props.table} />
      ) : null}
    </>
  )
}

function NoRows({
  employeeCount,
  filters,
  signedIn,
  syncing,
  onSync,
  onSignIn,
  onClearFilters,
}: ResultsViewProps) {
  if (employeeCount === 0 || !hasFilters(filters)) {
    if (syncing)
      return <EmptyState title="Downloading employees…">The list fills in when the sync finishes.</EmptyState>
    return (
      <EmptyState title="No employees saved yet">
        <p>{signedIn ? 'Sync to download employees.' : 'Sign in, then sync to download employees.'}</p>
        <button type="button" className="primary" onClick={signedIn ? onSync : onSignIn}>
          {signedIn ? 'Sync now' : 'Sign in to sync'}
        </button>
      </EmptyState>
    )
  }
  const text = filters.text.trim()
  const filtered = filters.statuses.length > 0 || filters.payCycleIds.length > 0
  return (
    <EmptyState title="No matches">
      <p>
        No employees match {text !== '' ? <>“{text}”</> : 'these filters'}
        {text !== '' && filtered ? ' with the chosen filters' : ''}.
      </p>
      {/* Named by what it clears: the search text (and "Search in"), the filters, or both. */}
      <button type="button" onClick={onClearFilters}>
        {text === '' ? 'Clear filters' : filtered ? 'Clear search and filters' : 'Clear search'}
      </button>
    </EmptyState>
  )
}
