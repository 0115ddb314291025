import { Fragment, useEffect, useState, type ReactNode } from 'react'
import type { ColumnInfo, EmployeeDetail, EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { isEmployeeReference, referenceLabel, referenceText } from '../format/employee-reference'
import { formatValue } from '../format/format-value'
import { formatSyncMoment } from '../format/relative-time'
import { useNow } from '../hooks/use-now'
import { displayedValue, usePayDisplay, type PayDisplay } from '../hooks/use-pay-display'
import { isMoneyValue, rowCurrency } from '../../../shared/money'
import { useReferencedEmployees } from '../hooks/use-referenced-employees'
// The row's own pay cycle field shows under the panel's one "Pay cycle" heading rather than among the fields.
import { orderColumns, PAY_CYCLE_FIELD } from '../hooks/use-visible-columns'

interface DetailPanelProps {
  readonly uuid: string
  readonly columns: readonly ColumnInfo[]
  readonly onClose: () => void
  /**
   * An employee a sync removed: shown from the last row the cache held (the change report keeps it), marked with
   * that sync, instead of being looked up among the saved employees, which no longer hold them.
   */
  readonly removed?: { readonly row: EmployeeRow; readonly syncEndedAt: string }
}

type Loaded = { uuid: string; detail: EmployeeDetail | null } | { uuid: string; error: string }

/** Every field the service sent for one employee, known or discovered, plus the pay cycles they belong to. */
export function DetailPanel({ uuid, columns, onClose, removed }: DetailPanelProps) {
  const client = useClient()
  const [loaded, setLoaded] = useState<Loaded>()
  const now = useNow()

  useEffect(() => {
    if (removed !== undefined) return
    let live = true
    client.call('employees:get', uuid).then(
      (detail) => live && setLoaded({ uuid, detail }),
      (error: unknown) => live && setLoaded({ uuid, error: errorMessage(error) }),
    )
    return () => {
      live = false
    }
  }, [client, uuid, removed])

  const current: Loaded | undefined =
    removed !== undefined
      ? { uuid, detail: { row: removed.row, payCycleIds: payCyclesOf(removed.row) } }
      : loaded?.uuid === uuid
        ? loaded
        : undefined
  const row = current && 'detail' in current ? current.detail?.row : undefined
  // Each name part is its own <bdi>: a right-to-left override the service sent in the first name cannot
  // reorder the last name after it.
  const titleParts = row
    ? [row.firstName, row.lastName].map((part) => formatValue(part)).filter((part) => part.trim() !== '')
    : []

  return (
    <aside className="detail-panel" aria-labelledby="detail-title">
      <div className="detail-head">
        <h2 id="detail-title">
          {titleParts.length === 0
            ? 'Employee'
            : titleParts.map((part, index) => (
                <Fragment key={index}>
                  {index > 0 ? ' ' : ''}
                  <bdi>{part}</bdi>
                </Fragment>
              ))}
        </h2>
        <button type="button" className="icon-button" aria-label="Close details" onClick={onClose}>
          ×
        </button>
      </div>
      {removed !== undefined && (
        <p className="removed-marker" role="note">
          Removed in the sync of {formatSyncMoment(removed.syncEndedAt, now)}. These are the last details
          RosterDesk held.
        </p>
      )}
      {current === undefined && <p className="muted">Loading…</p>}
      {current && 'error' in current && (
        <p className="message message-error" role="alert">
          {current.error}
        </p>
      )}
      {current && 'detail' in current && current.detail === null && (
        <p className="muted">This employee is no longer in the saved data. Sync again to refresh the list.</p>
      )}
      {current && 'detail' in current && current.detail && (
        <DetailFields detail={current.detail} columns={columns} />
      )}
    </aside>
  )
}

/**
 * The fields in the table's column order, then the pay cycle: the row's own and the synced pay cycles that list
 * the employee, under one heading. A field naming another employee (the manager) shows their name and number
 * from the saved employees, or the UUID when they are not saved.
 */
function DetailFields({ detail, columns }: { detail: EmployeeDetail; columns: readonly ColumnInfo[] }) {
  const ordered = orderColumns(columns)
  const labels = new Map(ordered.map((column) => [column.key, column.label]))
  const keys = [
    ...ordered.map((column) => column.key).filter((key) => Object.hasOwn(detail.row, key)),
    ...Object.keys(detail.row).filter((key) => !labels.has(key)),
  ].filter((key) => key !== PAY_CYCLE_FIELD)
  const references = keys.flatMap((key) => {
    const value = detail.row[key]
    return isEmployeeReference(key, value) ? [value] : []
  })
  const referenced = useReferencedEmployees(references)
  const payCycles = [...new Set([...payCyclesOf(detail.row), ...detail.payCycleIds])]
  const pay = usePayDisplay()
  const currency = rowCurrency(detail.row, pay.currency)
  return (
    <>
      <dl className="detail-fields">
        {keys.map((key) => {
          const value = detail.row[key]
          const label = labels.get(key) ?? key
          if (!isEmployeeReference(key, value)) {
            return (
              <div key={key} className="detail-field">
                <dt>{label}</dt>
                {pay.hidePay && isMoneyValue(key, value) ? (
                  <dd className="muted">Hidden (Hide pay is on)</dd>
                ) : (
                  <dd>{breakable(describe(pay, value, key, currency))}</dd>
                )}
              </div>
            )
          }
          const person = referenced.get(value)
          return (
            <div key={key} className="detail-field">
              <dt>{referenceLabel(label)}</dt>
              <dd>
                {person === undefined ? (
                  <span className="muted">Loading…</span>
                ) : person === null ? (
                  <>
                    {value} <span className="muted">(not in your saved employees)</span>
                  </>
                ) : (
                  <bdi>{referenceText(person)}</bdi>
                )}
              </dd>
            </div>
          )
        })}
      </dl>
      <h3>Pay cycle</h3>
      {payCycles.length === 0 ? (
        <p className="muted">Not in any synced pay cycle.</p>
      ) : (
        <ul className="pay-cycles">
          {payCycles.map((id) => (
            <li key={id}>{id}</li>
          ))}
        </ul>
      )}
    </>
  )
}

/** The pay cycle a row names itself (a removed employee's only one: the tracked lists that named them are gone). */
function payCyclesOf(row: EmployeeRow): string[] {
  const cycle = row[PAY_CYCLE_FIELD]
  return typeof cycle === 'string' && cycle !== '' ? [cycle] : []
}

/** An e-mail address: no spaces, one @ with text either side. */
const EMAIL = /^[^\s@]+@[^\s@]+$/

/**
 * A field's text, with an e-mail address allowed to wrap only after its @, dots and hyphens ("anna.kowalski@" /
 * "example.com"), never mid-word: `<wbr>` there, and the address whole in its text and tooltip. Other text as is.
 */
function breakable(text: string): ReactNode {
  if (!EMAIL.test(text)) return text
  const parts = text.split(/(?<=[@.-])/)
  return (
    <span className="email-value" title={text}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  )
}

/** A field's value as the table writes it (masked while its column is, `displayedValue`), '—' for none. */
function describe(
  display: PayDisplay,
  value: JsonValue | undefined,
  key: string,
  currency: string | undefined,
): string {
  if (value === null || value === undefined || value === '') return '—'
  return displayedValue(display, value, key, currency)
}
