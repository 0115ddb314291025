import { Fragment, useCallback, useEffect, useState } from 'react'
import type { ChangeEntry, ChangeKind } from '../../../shared/domain'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { changeValue } from '../format/change-text'
import { formatCount } from '../format/format-value'

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
}

/**
 * One kind of change of one sync, a window at a time from the cache (`changes:list`), in name order. Each entry
 * is a button that opens the employee's details; a changed one lists each field from what to what.
 */
export function ChangeEntryList(props: ChangeEntryListProps) {
  const client = useClient()
  const [items, setItems] = useState<readonly ChangeEntry[]>([])
  const [loading, setLoading] = useState(true)
  const [problem, setProblem] = useState<string>()
  const { runId, kind } = props

  const fetchWindow = useCallback(
    (offset: number): void => {
      client.call('changes:list', runId, kind, offset, CHANGE_WINDOW).then(
        (page) => {
          setItems((shown) => [...shown.slice(0, offset), ...page.items])
          setLoading(false)
        },
        (error: unknown) => {
          setProblem(errorMessage(error))
          setLoading(false)
        },
      )
    },
    [client, runId, kind],
  )
  // The parent gives each sync and kind a list of its own (a key), so this loads the first window once.
  useEffect(() => fetchWindow(0), [fetchWindow])
  const showMore = (): void => {
    setLoading(true)
    setProblem(undefined)
    fetchWindow(items.length)
  }

  const more = props.total - items.length
  return (
    <div className="change-entries" role="tabpanel" id={props.id} aria-labelledby={props.labelledBy}>
      {items.length === 0 && !loading && problem === undefined && (
        <p className="muted">Nobody was {kind} in this sync.</p>
      )}
      <ul>
        {items.map((entry) => (
          <li key={entry.UUID}>
            <button
              type="button"
              className={`change-entry${entry.UUID === props.selected ? ' selected' : ''}`}
              aria-pressed={entry.UUID === props.selected}
              onClick={() => props.onOpen(entry)}
            >
              <span className="change-entry-line">
                {entry.employeeNumber !== undefined && (
                  <span className="change-entry-number">{entry.employeeNumber}</span>
                )}
                <span className="change-entry-name">
                  <EntryName entry={entry} />
                </span>
                {kind === 'removed' && <span className="badge badge-removed">Removed</span>}
              </span>
              <span className="change-entry-facts muted">
                {[entry.status, entry.payCycleId]
                  .filter((fact) => fact !== undefined)
                  .map((fact, index) => (
                    // Each the service's text: an override in one cannot reorder the other.
                    <span key={index}>
                      {index > 0 ? ' · ' : null}
                      <bdi>{fact}</bdi>
                    </span>
                  ))}
              </span>
              {kind === 'changed' && <FieldChanges entry={entry} fieldLabel={props.fieldLabel} />}
            </button>
          </li>
        ))}
      </ul>
      {loading && <p className="muted">Loading…</p>}
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

/** Each changed field, old value → new value; only the field names for syncs made before values were kept. */
function FieldChanges({ entry, fieldLabel }: { entry: ChangeEntry; fieldLabel: (field: string) => string }) {
  if (entry.changes === undefined) {
    return <span className="change-entry-fields">{(entry.fields ?? []).map(fieldLabel).join(', ')}</span>
  }
  return (
    <span className="change-entry-fields">
      {entry.changes.map((change) => (
        <span key={change.field} className="field-change">
          {fieldLabel(change.field)}: <del>{changeValue(change.before, change.field)}</del> →{' '}
          <ins>{changeValue(change.after, change.field)}</ins>
        </span>
      ))}
    </span>
  )
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
