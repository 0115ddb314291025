import { useRef, useState } from 'react'
import type { ColumnInfo, ExportRequest } from '../../../shared/domain'
import { toQuery, type EmployeeFilters } from '../data/employee-filters'
import { formatCount } from '../format/format-value'
import type { ExportController } from '../hooks/use-export'
import { RosterDialog } from './roster-dialog'

interface ExportBarProps {
  readonly total: number
  readonly filters: EmployeeFilters
  readonly columns: readonly ColumnInfo[]
  readonly trackedPayCycles: readonly string[]
  readonly exporter: ExportController
  /** Changes when a sync replaced the saved employees, so the roster dialog counts afresh. */
  readonly dataVersion: string
}

type Format = ExportRequest['format']

/** Export buttons: the current view (filters, sort and visible columns), or a pay-cycle roster chosen in a dialog. */
export function ExportBar({
  total,
  filters,
  columns,
  trackedPayCycles,
  exporter,
  dataVersion,
}: ExportBarProps) {
  const [format, setFormat] = useState<Format>('xlsx')
  const [rosterOpen, setRosterOpen] = useState(false)
  const rosterButton = useRef<HTMLButtonElement>(null)
  const closeRoster = (): void => {
    setRosterOpen(false)
    // Focus goes back where the clerk was, not to the page's start.
    rosterButton.current?.focus()
  }
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
      <button
        type="button"
        ref={rosterButton}
        disabled={busy}
        aria-haspopup="dialog"
        aria-expanded={rosterOpen}
        onClick={() => setRosterOpen(true)}
      >
        Export roster…
      </button>
      {rosterOpen && (
        <RosterDialog
          screenStatuses={filters.statuses}
          trackedPayCycles={trackedPayCycles}
          columns={keys}
          format={format}
          dataVersion={dataVersion}
          onClose={closeRoster}
          onExport={(request, label) => {
            closeRoster()
            exporter.start(request, label)
          }}
        />
      )}
    </div>
  )
}
