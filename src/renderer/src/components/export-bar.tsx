import { useState } from 'react'
import type { ColumnInfo, ExportRequest } from '../../../shared/domain'
import { toQuery, type EmployeeFilters } from '../data/employee-filters'
import { formatCount } from '../format/format-value'
import type { ExportController } from '../hooks/use-export'

interface ExportBarProps {
  readonly total: number
  readonly filters: EmployeeFilters
  readonly columns: readonly ColumnInfo[]
  readonly trackedPayCycles: readonly string[]
  readonly exporter: ExportController
}

type Format = ExportRequest['format']

/** Export buttons: the current view (filters, sort and visible columns) or the roster of a tracked pay cycle. */
export function ExportBar({ total, filters, columns, trackedPayCycles, exporter }: ExportBarProps) {
  const [format, setFormat] = useState<Format>('xlsx')
  const busy = exporter.state.phase === 'running'
  const keys = columns.map((column) => column.key)
  return (
    <div className="export-bar" role="group" aria-label="Export">
      <label className="format-choice">
        <span className="visually-hidden">Export format</span>
        <select value={format} onChange={(event) => setFormat(event.target.value === 'csv' ? 'csv' : 'xlsx')}>
          <option value="xlsx">Excel (.xlsx)</option>
          <option value="csv">CSV (.csv)</option>
        </select>
      </label>
      <button
        type="button"
        disabled={busy || total === 0}
        onClick={() =>
          exporter.start(
            { kind: 'view', query: toQuery(filters), columns: keys, format },
            `${formatCount(total)} ${total === 1 ? 'row' : 'rows'}`,
          )
        }
      >
        Export {formatCount(total)} {total === 1 ? 'row' : 'rows'}…
      </button>
      {trackedPayCycles.map((payCycleId) => (
        <button
          key={payCycleId}
          type="button"
          disabled={busy}
          onClick={() =>
            exporter.start({ kind: 'roster', payCycleId, columns: keys, format }, `the ${payCycleId} roster`)
          }
        >
          Export roster {payCycleId}…
        </button>
      ))}
    </div>
  )
}
