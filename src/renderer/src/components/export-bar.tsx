import { useCallback, useContext, useId, useState } from 'react'
import { createPortal, flushSync } from 'react-dom'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { toQuery, type EmployeeFilters } from '../data/employee-filters'
import { formatCount } from '../format/format-value'
import type { ExportController } from '../hooks/use-export'
import { useCommand } from '../hooks/use-app-commands'
import { ExportRulesContext, type ExportFormatChoice } from '../hooks/use-export-format'
import { exportLimitDetail, firstRowsButtonText, rowLimitOver } from '../format/export-limit-text'
import { PrintButton } from './print-button'
import { RosterDialog } from './roster-dialog'

interface ExportBarProps {
  /**
   * Rows the view holds; undefined while an answer is on its way: the count on screen may be a replaced query's, so
   * the button shows none and neither it nor Ctrl/Cmd+E exports until the count is the current query's.
   */
  readonly total: number | undefined
  readonly filters: EmployeeFilters
  readonly columns: readonly ColumnInfo[]
  /** The columns "Print…" prints: those on screen (money left off while pay is hidden); exports keep `columns`. */
  readonly printColumns: readonly ColumnInfo[]
  readonly trackedPayCycles: readonly string[]
  readonly exporter: ExportController
  /** Changes when a sync replaced the saved employees, so the roster dialog counts afresh. */
  readonly dataVersion: string
  /** The format and its menu (useExportFormat); its CSV note is shown by the view, under the toolbar. */
  readonly formatChoice: Pick<ExportFormatChoice, 'format' | 'menu'>
}

/** Export buttons: the current view (filters, sort and visible columns), or a pay-cycle roster chosen in a dialog. */
export function ExportBar({
  total,
  filters,
  columns,
  printColumns,
  trackedPayCycles,
  exporter,
  dataVersion,
  formatChoice,
}: ExportBarProps) {
  const { format, menu: formatMenu } = formatChoice
  const [rosterOpen, setRosterOpen] = useState(false)
  // The dialog (useModalDialog) gives the focus back to "Export roster…" when it closes.
  const closeRoster = useCallback((): void => setRosterOpen(false), [])
  const busy = exporter.state.phase === 'running'
  const keys = columns.map((column) => column.key)
  // Over the machine policy's limit, the button says so and exports the view's first rows that fit.
  const limit = rowLimitOver(useContext(ExportRulesContext).maxRows, total)
  const limitId = useId()
  const exportView = (): void => {
    if (busy || total === undefined || total === 0) return
    exporter.start(
      {
        kind: 'view',
        query: toQuery(filters),
        columns: keys,
        format,
        ...(limit === undefined ? {} : { firstRows: limit }),
      },
      limit === undefined
        ? `${formatCount(total)} ${total === 1 ? 'row' : 'rows'}`
        : `the first ${formatCount(limit)} of ${formatCount(total)} rows`,
    )
  }
  // Ctrl/Cmd+E and File → Export… run the button's export; the table's row menu exports its selected rows.
  useCommand('export', exportView)
  useCommand('export-rows', (uuids) => {
    if (busy || uuids.length === 0) return
    exporter.start(
      { kind: 'view', query: toQuery(filters), columns: keys, format, uuids: [...uuids] },
      `${formatCount(uuids.length)} selected ${uuids.length === 1 ? 'row' : 'rows'}`,
    )
  })
  return (
    <div className="export-bar" role="group" aria-label="Export">
      {formatMenu}
      <button
        type="button"
        disabled={busy || total === undefined || total === 0}
        onClick={exportView}
        aria-describedby={limit === undefined ? undefined : limitId}
        title={limit === undefined || total === undefined ? undefined : exportLimitDetail(limit, total)}
      >
        {total === undefined
          ? 'Export rows…'
          : limit !== undefined
            ? firstRowsButtonText(limit, total)
            : `Export ${formatCount(total)} ${total === 1 ? 'row' : 'rows'}…`}
      </button>
      {limit === undefined || total === undefined ? null : (
        // Said in full to whoever reads the button, and in its tooltip; the toolbar keeps its one row at 1366 px.
        <span id={limitId} className="visually-hidden">
          {exportLimitDetail(limit, total)}
        </span>
      )}
      <button
        type="button"
        disabled={busy}
        aria-haspopup="dialog"
        aria-expanded={rosterOpen}
        onClick={() => setRosterOpen(true)}
      >
        Export roster…
      </button>
      <PrintButton
        request={() => ({
          kind: 'view',
          query: toQuery(filters),
          columns: printColumns.map((column) => column.key),
          format,
        })}
        disabled={total === 0 || printColumns.length === 0}
      />
      {/* On the body: a modal dialog belongs to the whole page, above the header and the sync bar too. */}
      {rosterOpen &&
        createPortal(
          <RosterDialog
            screenStatuses={filters.statuses}
            screenPayCycles={filters.payCycleIds}
            trackedPayCycles={trackedPayCycles}
            columns={keys}
            format={format}
            dataVersion={dataVersion}
            onClose={closeRoster}
            onExport={(request, label) => {
              // The dialog closes, and gives the focus back to "Export roster…", before the export disables that
              // button: the export then returns the focus to it when it ends (browse-view.tsx).
              flushSync(closeRoster)
              exporter.start(request, label)
            }}
          />,
          document.body,
        )}
    </div>
  )
}
