import { useCallback, useRef, useState, type CSSProperties, type ReactNode } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { isMoneyColumn } from '../../../shared/money'
import { nextSort, toggleValue, type EmployeeFilters } from '../data/employee-filters'
import { useCommandBus } from '../hooks/use-app-commands'
import { useBrowseQuery } from '../hooks/use-browse-query'
import { useExport } from '../hooks/use-export'
import { useExportFocusReturn } from '../hooks/use-export-focus-return'
import { useExportFormat } from '../hooks/use-export-format'
import { useFindShortcut } from '../hooks/use-find-shortcut'
import { useNameSuggestions } from '../hooks/use-name-suggestions'
import { keptColumns, type ColumnLayout } from '../hooks/use-visible-columns'
import type { SyncController } from '../hooks/use-sync'
import { ColumnChooser } from './column-chooser'
import { widthSum } from './column-width'
import { DetailPanel } from './detail-panel'
import { DidYouMean } from './did-you-mean'
import type { GridHandle, TableActions } from './employee-table'
import { ExportBar } from './export-bar'
import { ExportStatus } from './export-status'
import { FilterPanel } from './filter-panel'
import { HidePayButton } from './hide-pay-button'
import { ResultsView } from './results-view'
import { SearchBox } from './search-box'
import { ServiceLookup } from './service-lookup'
import type { Unreachable } from '../hooks/use-online'
import { ViewsMenu } from './views-menu'

interface BrowseViewProps {
  readonly sync: SyncController
  readonly signedIn: boolean
  /** Why the service cannot be asked now (the computer offline, or the last sync reached no service); undefined: it can. */
  readonly unreachable: Unreachable | undefined
  readonly onSignIn: () => void
  readonly trackedPayCycles: readonly string[]
  /** The profile's "Hide pay" setting, and how to change it (HidePayButton). */
  readonly hidePay: boolean
  readonly onHidePayChange: (hidePay: boolean) => Promise<unknown>
}

/** Search, filters, the employee table, the detail panel and exports, all over the local cache. */
export function BrowseView(props: BrowseViewProps) {
  const { sync, signedIn, unreachable, onSignIn, trackedPayCycles, hidePay } = props
  const query = useBrowseQuery(sync.dataVersion)
  const { text, setText, choice, setChoice, filters, rows, columns, visible, viewState } = query
  // The columns on screen and on the printed page: the chosen ones, less money while pay is hidden.
  const shown = hidePay ? visible.visible.filter((column) => !isMoneyColumn(column)) : visible.visible
  const exporter = useExport(columns)
  const formatChoice = useExportFormat({ compactNote: true })
  const searchRef = useRef<HTMLInputElement>(null)
  useFindShortcut(searchRef)
  const loaded = rows.status === 'ready' ? rows : rows.status === 'loading' ? rows.previous : undefined
  // The answer has taken longer than UPDATING_SIGN_MS: the rows and facet counts on screen are the previous ones.
  const updating = rows.status === 'loading' && rows.slow
  // Known through a new order's wait too (a sort moves no row in or out), so nothing above the table comes and goes.
  const localMatches = rows.matches
  const suggestions = useNameSuggestions(filters.text, filters.searchColumn, localMatches, sync.dataVersion)
  // A suggestion searches for it; the focus goes back to the search box, as the button goes with the near-miss.
  const applySuggestion = (next: string): void => (setText(next), searchRef.current?.focus())
  const [detailUuid, setDetailUuid] = useState<string>()
  const grid = useRef<GridHandle>(null)
  const commands = useCommandBus()

  const uuidAt = useCallback(
    (index: number): string | undefined => {
      const value = loaded?.cache.rowAt(index)?.UUID
      return typeof value === 'string' ? value : undefined
    },
    [loaded],
  )
  const onOpen = (index: number): void => {
    const uuid = uuidAt(index)
    if (uuid !== undefined) setDetailUuid(uuid)
  }
  // Closing the panel (Esc, its Close button) puts the focus back on the row it showed.
  const closeDetail = (): void => {
    setDetailUuid(undefined)
    grid.current?.focusActive()
  }
  useExportFocusReturn(exporter.state.phase === 'running')
  const { keep, style: keptStyle } = keptInView(filters, shown, visible.layout.widths)

  const table: TableActions = {
    sort: filters.sort,
    onSort: (column) => setChoice((c) => ({ ...c, sort: nextSort(c.sort, column) })),
    onActiveChange: (index) => {
      // An open panel follows the keyboard, so arrowing through the list reads each employee in turn. Asked of the
      // newest state: closing the panel puts the focus back on its row, which must not open it again.
      const uuid = uuidAt(index)
      if (uuid !== undefined) setDetailUuid((open) => (open === undefined ? undefined : uuid))
    },
    onOpen,
    detailOpen: detailUuid !== undefined,
    keep,
    onCloseDetail: closeDetail,
    // The export bar writes them, in the format it shows, like any export.
    onExportRows: (uuids) => void commands.dispatch('export-rows', uuids),
    widths: visible.layout.widths,
    frozen: visible.frozen,
    onResize: visible.setWidth,
    // The table's index is among the columns on screen; the layout also holds the money ones hidden now.
    onMove: (key, to) => visible.move(key, visible.layout.keys.indexOf(shown[to]?.key ?? key)),
    allColumns: columns,
    handle: grid,
  }

  return (
    <div className={`browse${detailUuid !== undefined ? ' with-detail' : ''}`} style={keptStyle}>
      {/* The screen's one h1, for screen-reader users' heading navigation; the toolbar says the rest visibly. */}
      <h1 className="visually-hidden">Employees</h1>
      <div className="toolbar">
        <SearchBox
          value={text}
          onChange={setText}
          inputRef={searchRef}
          columns={columns}
          column={choice.searchColumn}
          onColumnChange={(searchColumn) => setChoice((c) => ({ ...c, searchColumn }))}
          onEnterResults={() => grid.current?.focusFirstRow()}
        />
        <ColumnChooser columns={columns} visible={visible} />
        <ViewsMenu current={viewState} onApply={(view) => query.applyView(view.state)} />
        <ExportBar
          // No count while another choice of rows is on its way: the one on screen is a replaced query's (Ctrl+E included).
          total={rows.status === 'error' ? 0 : localMatches}
          filters={filters}
          columns={visible.visible}
          printColumns={shown}
          trackedPayCycles={trackedPayCycles}
          exporter={exporter}
          dataVersion={sync.dataVersion}
          formatChoice={formatChoice}
        />
      </div>
      <ExportStatus exporter={exporter} />
      <div className="browse-body">
        <FilterPanel
          facets={loaded?.facets}
          updating={updating}
          filters={filters}
          onToggleStatus={(value) => setChoice((c) => ({ ...c, statuses: toggleValue(c.statuses, value) }))}
          onTogglePayCycle={(value) =>
            setChoice((c) => ({ ...c, payCycleIds: toggleValue(c.payCycleIds, value) }))
          }
          onClearAll={query.clearFilters}
        />
        <section className="results" aria-label="Employee list" aria-busy={updating}>
          <DidYouMean suggestions={suggestions} onApply={applySuggestion} />
          {/* Remounted by each sync, whose employees make an earlier live answer out of date. */}
          <ServiceLookup
            key={sync.dataVersion}
            filters={filters}
            localMatches={localMatches}
            typedText={text}
            signedIn={signedIn}
            unreachable={unreachable}
            onSignIn={onSignIn}
            columns={columns}
            visibleColumns={shown}
            suggested={suggestions.length > 0}
          />
          <ResultsView
            // Until the kept view is restored the table would show the default columns and filters: it waits.
            rows={
              query.viewRestored
                ? rows
                : { status: 'loading', previous: undefined, slow: false, retry: rows.retry }
            }
            employeeCount={sync.status?.employeeCount ?? 0}
            source={sync.status?.lastComplete && sync.status.source}
            filters={filters}
            columns={shown}
            signedIn={signedIn}
            syncing={sync.running}
            onSync={sync.start}
            onSignIn={onSignIn}
            onClearFilters={query.clearFilters}
            table={table}
            tools={tableTools(
              formatChoice.csvNote,
              columns.some(isMoneyColumn) ? (
                <HidePayButton hidePay={hidePay} onChange={props.onHidePayChange} />
              ) : null,
            )}
          />
        </section>
        {detailUuid !== undefined && <DetailSlot uuid={detailUuid} columns={columns} onClose={closeDetail} />}
      </div>
    </div>
  )
}

/**
 * The columns sorted and filtered on, among those shown: with the detail panel open the list keeps room for the
 * columns through the last of them (--kept-width, app.css), and the table scrolls them into view.
 */
function keptInView(
  filters: EmployeeFilters,
  shown: readonly ColumnInfo[],
  widths: ColumnLayout['widths'],
): { keep: string[]; style: CSSProperties } {
  const keep = keptColumns(filters).filter((key) => shown.some((column) => column.key === key))
  const last = Math.max(-1, ...keep.map((key) => shown.findIndex((column) => column.key === key)))
  return { keep, style: { '--kept-width': widthSum(shown.slice(0, last + 1), widths) } as CSSProperties }
}

/**
 * What the count line's row shows at its right end: the CSV note's short form while CSV is chosen (there, not in
 * the toolbar, which stays one row at 1366 px), and "Hide pay".
 */
function tableTools(csvNote: ReactNode, hidePay: ReactNode): ReactNode {
  if (csvNote === null && hidePay === null) return undefined
  return (
    <>
      {csvNote}
      {hidePay}
    </>
  )
}

/** The detail panel beside the list; Esc anywhere in it closes it, as it does from the table. */
function DetailSlot({
  uuid,
  columns,
  onClose,
}: {
  uuid: string
  columns: readonly ColumnInfo[]
  onClose: () => void
}) {
  return (
    <div
      className="detail-slot"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return
        event.preventDefault()
        onClose()
      }}
    >
      <DetailPanel uuid={uuid} columns={columns} onClose={onClose} />
    </div>
  )
}
