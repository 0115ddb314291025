import { useEffect, useState } from 'react'
import type { ColumnInfo, EmployeeDetail, JsonValue } from '../../../shared/domain'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { formatValue } from '../format/format-value'
import { orderColumns } from '../hooks/use-visible-columns'

interface DetailPanelProps {
  readonly uuid: string
  readonly columns: readonly ColumnInfo[]
  readonly onClose: () => void
}

type Loaded = { uuid: string; detail: EmployeeDetail | null } | { uuid: string; error: string }

/** Every field the service sent for one employee, known or discovered, plus the pay cycles they belong to. */
export function DetailPanel({ uuid, columns, onClose }: DetailPanelProps) {
  const client = useClient()
  const [loaded, setLoaded] = useState<Loaded>()

  useEffect(() => {
    let live = true
    client.call('employees:get', uuid).then(
      (detail) => live && setLoaded({ uuid, detail }),
      (error: unknown) => live && setLoaded({ uuid, error: errorMessage(error) }),
    )
    return () => {
      live = false
    }
  }, [client, uuid])

  const current = loaded?.uuid === uuid ? loaded : undefined
  const row = current && 'detail' in current ? current.detail?.row : undefined
  const title = row
    ? [row.firstName, row.lastName]
        .map((part) => formatValue(part))
        .join(' ')
        .trim()
    : 'Employee'

  return (
    <aside className="detail-panel" aria-labelledby="detail-title">
      <div className="detail-head">
        <h2 id="detail-title">{title || 'Employee'}</h2>
        <button type="button" className="icon-button" aria-label="Close details" onClick={onClose}>
          ×
        </button>
      </div>
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

function DetailFields({ detail, columns }: { detail: EmployeeDetail; columns: readonly ColumnInfo[] }) {
  const ordered = orderColumns(columns)
  const labels = new Map(ordered.map((column) => [column.key, column.label]))
  const keys = [
    ...ordered.map((column) => column.key).filter((key) => key in detail.row),
    ...Object.keys(detail.row).filter((key) => !labels.has(key)),
  ]
  return (
    <>
      <dl className="detail-fields">
        {keys.map((key) => (
          <div key={key} className="detail-field">
            <dt>{labels.get(key) ?? key}</dt>
            <dd>{describe(detail.row[key])}</dd>
          </div>
        ))}
      </dl>
      <h3>Pay cycles</h3>
      {detail.payCycleIds.length === 0 ? (
        <p className="muted">Not in any synced pay cycle.</p>
      ) : (
        <ul className="pay-cycles">
          {detail.payCycleIds.map((id) => (
            <li key={id}>{id}</li>
          ))}
        </ul>
      )}
    </>
  )
}

function describe(value: JsonValue | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  return formatValue(value)
}
