import { Fragment, useCallback, useEffect, useRef, useState } from 'react'
import type {
  ChangeEntry,
  ChangeKind,
  ChangeListOptions,
  ChangeSortColumn,
  FieldChange,
} from '../../../shared/domain/changes'
import type { JsonValue } from '../../../shared/domain/rows'
import { maskedText } from '../../../shared/sensitive-fields'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { changeValue } from '../format/change-text'
import { formatCount, plural } from '../format/format-value'
import { useDebouncedValue } from '../hooks/use-debounced-value'
import { isMasked, usePayDisplay } from '../hooks/use-pay-display'

/** The order the report's list is in: a column, ascending or descending. */
export type ChangeSort = NonNullable<ChangeListOptions['sort']>

/** Entries fetched per window: enough to scan, small enough to answer at once. */
export const CHANGE_WINDOW = 100

interface ChangeEntryListProps {
  readonly runId: number
  readonly kind: ChangeKind
  readonly total: number
  /** The UUID whose details are open, marked in the list. */
  readonly selected: string | undefined
  readonly onOpen: (entry: ChangeEntry) => void
  /** A field's label as the employee table shows it. */
  readonly fieldLabel: (field: string) => string
  readonly id: string
  readonly labelledBy: string
  /** The text of "Find in this list" as typed; asked of the core once it rests. */
  readonly search: string
  readonly sort: ChangeSort
  readonly onSort: (sort: ChangeSort) => void
}

/** The report's sortable columns, in order, with their headings. */
const SORT_COLUMNS: ReadonlyArray<{ readonly column: ChangeSortColumn; readonly label: string }> = [
  { column: 'number', label: 'Number' },
  { column: 'name', label: 'Name' },
  { column: 'status', label: 'Status' },
  { column: 'payCycle', label: 'Pay cycle' },
]

/** Typing in the report's search asks the core once the text rests this long. */
const SEARCH_DELAY_MS = 150

/** A window the list shows: what it answers (the search and order asked) and what the core sent. */
interface Shown {
  readonly key: string
  readonly items: readonly ChangeEntry[]
  readonly total: number
}

/**
 * One kind of change of one sync as a dense table, a window at a time from the cache (`changes:list`): number,
 * name, status and pay cycle, and for a changed employee each field from what to what. A heading sorts by its
 * column (again: the other way); the search finds by name or number by the grid's rules (the core's
 * `changeListSql`). A name opens the employee's details.
 */
export function ChangeEntryList(props: ChangeEntryListProps) {
  const client = useClient()
  const { sort } = props
  const settledSearch = useDebouncedValue(props.search.trim(), SEARCH_DELAY_MS)
  const [shown, setShown] = useState<Shown>()
  const [loadingMore, setLoadingMore] = useState(false)
  // A failure belongs to the search and order it answered.
  const [failure, setFailure] = useState<{ readonly key: string; readonly message: string }>()
  const { runId, kind } = props
  const key = `${settledSearch}\u0000${sort.column}\u0000${sort.order}`

  const fetchWindow = useCallback(
    (offset: number, isCurrent: () => boolean): void => {
      const options = { ...(settledSearch === '' ? {} : { search: settledSearch }), sort }
      client.call('changes:list', runId, kind, offset, CHANGE_WINDOW, options).then(
        (page) => {
          // An answer to an earlier search or order never replaces a newer one's.
          if (!isCurrent()) return
          setShown((before) => {
            const kept = offset > 0 && before?.key === key ? before.items.slice(0, offset) : []
            return { key, items: [...kept, ...page.items], total: page.total }
          })
          setLoadingMore(false)
        },
        (error: unknown) => {
          if (!isCurrent()) return
          setFailure({ key, message: errorMessage(error) })
          setLoadingMore(false)
        },
      )
    },
    [client, runId, kind, settledSearch, sort, key],
  )
  // The parent gives each sync and kind a list of its own (a key); a new search or order loads its first window,
  // and the answers still coming for the one before are let go.
  const liveKey = useRef(key)
  useEffect(() => {
    liveKey.current = key
    fetchWindow(0, () => liveKey.current === key)
  }, [fetchWindow, key])
  const showMore = (): void => {
    setLoadingMore(true)
    setFailure(undefined)
    fetchWindow(shown?.items.length ?? 0, () => liveKey.current === key)
  }

  const current = shown?.key === key ? shown : undefined
  const problem = failure?.key === key ? failure.message : undefined
  const loading = loadingMore || (current === undefined && problem === undefined)
  const items = current?.items ?? []
  // While a new search or order is asked, the last answer stays on screen, marked busy, rather than a blank list.
  const rowsShown = current?.items ?? shown?.items ?? []
  const total = current?.total ?? (settledSearch === '' ? props.total : 0)
  const more = total - items.length
  const searching = settledSearch !== ''
  const sortBy = (column: ChangeSortColumn): void =>
    props.onSort({ column, order: sort.column === column && sort.order === 'asc' ? 'desc' : 'asc' })

  return (
    <div className="change-entries" role="tabpanel" id={props.id} aria-labelledby={props.labelledBy}>
      {current !== undefined && items.length === 0 && problem === undefined && (
        <p className="muted">
          {searching
            ? `Nobody ${kind} in this sync matches “${settledSearch}”.`
            : `Nobody was ${kind} in this sync.`}
        </p>
      )}
      {rowsShown.length > 0 && (
        <table className="change-table" aria-busy={current === undefined}>
          <thead>
            <tr>
              {SORT_COLUMNS.map((each) => (
                <th
                  key={each.column}
                  scope="col"
                  aria-sort={
                    sort.column === each.column ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'
                  }
                >
                  <button type="button" className="change-sort" onClick={() => sortBy(each.column)}>
                    {each.label}
                    <span aria-hidden="true" className="sort-mark">
                      {sort.column === each.column ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}
                    </span>
                  </button>
                </th>
              ))}
              {kind === 'changed' && <th scope="col">Changed fields: before → after</th>}
            </tr>
          </thead>
          <tbody>
            {rowsShown.map((entry) => (
              <EntryRow
                key={entry.UUID}
                entry={entry}
                kind={kind}
                selected={entry.UUID === props.selected}
                onOpen={props.onOpen}
                fieldLabel={props.fieldLabel}
              />
            ))}
          </tbody>
        </table>
      )}
      <p className="muted change-found" role="status">
        {current === undefined
          ? shown === undefined
            ? ''
            : 'Updating…'
          : searching
            ? `${formatCount(total)} of ${plural(props.total, 'employee')} found`
            : ''}
      </p>
      {loading && (loadingMore || shown === undefined) && <p className="muted">Loading…</p>}
      {!loading && more > 0 && (
        <p className="muted">
          …and {formatCount(more)} more{' '}
          <button type="button" className="link" onClick={showMore}>
            Show {formatCount(Math.min(CHANGE_WINDOW, more))} more
          </button>
        </p>
      )}
      {problem !== undefined && <p role="alert">{problem}</p>}
    </div>
  )
}

interface EntryRowProps {
  readonly entry: ChangeEntry
  readonly kind: ChangeKind
  readonly selected: boolean
  readonly onOpen: (entry: ChangeEntry) => void
  readonly fieldLabel: (field: string) => string
}

/** One employee's line: the name is the button that opens their details; identifiers never wrap at a hyphen. */
function EntryRow({ entry, kind, selected, onOpen, fieldLabel }: EntryRowProps) {
  return (
    <tr className={selected ? 'selected' : undefined}>
      <td className="change-number">
        <bdi className="identifier">{entry.employeeNumber ?? ''}</bdi>
      </td>
      <td className="change-name">
        <button type="button" className="change-entry" aria-pressed={selected} onClick={() => onOpen(entry)}>
          <EntryName entry={entry} />
        </button>
      </td>
      <td>
        <bdi className="identifier">{entry.status ?? ''}</bdi>
      </td>
      <td>
        <bdi className="identifier">{entry.payCycleId ?? ''}</bdi>
      </td>
      {kind === 'changed' && (
        <td className="change-fields">
          <FieldChanges entry={entry} fieldLabel={fieldLabel} />
        </td>
      )}
    </tr>
  )
}

/** Each changed field, old value → new value; only the field names for syncs made before values were kept. */
function FieldChanges({ entry, fieldLabel }: { entry: ChangeEntry; fieldLabel: (field: string) => string }) {
  const display = usePayDisplay()
  // A value of a masked column is masked here too (use-pay-display.ts), '(empty)' for none as any other.
  const shown = (value: JsonValue | undefined, field: string): string =>
    isMasked(display, field) ? maskedText(field, value) || '(empty)' : changeValue(value, field)
  if (entry.changes === undefined) {
    return <span className="change-entry-fields">{(entry.fields ?? []).map(fieldLabel).join(', ')}</span>
  }
  return (
    <span className="change-entry-fields">
      {entry.changes.map((change) => (
        <span key={change.field} className={`field-change${wholeChange(change) ? ' whole' : ''}`}>
          {fieldLabel(change.field)}: <ChangedValue as="del" text={shown(change.before, change.field)} /> →{' '}
          <ChangedValue as="ins" text={shown(change.after, change.field)} />
        </span>
      ))}
    </span>
  )
}

/** Values this short are kept whole on one line (an identifier such as "PC-2026-11-A"); longer ones wrap. */
const WHOLE_VALUE_LENGTH = 40

/** Whether a field's change is short enough to keep on one line: both its values are. */
function wholeChange(change: FieldChange): boolean {
  return [change.before, change.after].every(
    (value) => JSON.stringify(value ?? '').length <= WHOLE_VALUE_LENGTH,
  )
}

/** A value before (struck through, its hyphens still visible: app.css) or after a change. */
function ChangedValue({ as: Tag, text }: { readonly as: 'del' | 'ins'; readonly text: string }) {
  return <Tag className={text.length <= WHOLE_VALUE_LENGTH ? 'identifier' : undefined}>{text}</Tag>
}

/**
 * The employee's name, each part its own <bdi> (as the details panel's title): a right-to-left override the service
 * sent in the first name cannot reorder the last name after it. An entry without parts (a log written before they
 * were kept, or no names: the UUID) shows its name as one isolated text.
 */
function EntryName({ entry }: { readonly entry: ChangeEntry }) {
  const parts = [entry.firstName, entry.lastName].filter((part) => part !== undefined)
  if (parts.length === 0) return <bdi>{entry.name}</bdi>
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? ' ' : null}
      <bdi>{part}</bdi>
    </Fragment>
  ))
}
