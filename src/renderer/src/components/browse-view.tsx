import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ViewState } from '../../../shared/view-schema'
import { EMPTY_FILTERS, nextSort, toggleValue, type EmployeeFilters } from '../data/employee-filters'
import { filtersOf, toViewState } from '../data/view-state'
import { columnsRead, useColumns } from '../hooks/use-columns'
import { useDebouncedValue } from '../hooks/use-debounced-value'
import { useEmployeeRows } from '../hooks/use-employee-rows'
import { useExport } from '../hooks/use-export'
import { useCommandBus } from '../hooks/use-app-commands'
import { rememberFocus } from '../focus/focus-return'
import { useFindShortcut } from '../hooks/use-find-shortcut'
import type { SyncController } from '../hooks/use-sync'
import { useVisibleColumns } from '../hooks/use-visible-columns'
import { useViewState } from '../hooks/use-view-state'
import { ColumnChooser } from './column-chooser'
import { DetailPanel } from './detail-panel'
import type { GridHandle, TableActions } from './employee-table'
import { ExportBar } from './export-bar'
import { ExportStatus } from './export-status'
import { FilterPanel } from './filter-panel'
import { ResultsView } from './results-view'
import { SearchBox } from './search-box'
import { ServiceLookup } from './service-lookup'
import { ViewsMenu } from './views-menu'

interface BrowseViewProps {
  readonly sync: SyncController
  readonly signedIn: boolean
  readonly onSignIn: () => void
  readonly trackedPayCycles: readonly string[]
}

/** Typing settles for this long before the cache is asked, so each keystroke does not run a query. */
const SEARCH_DEBOUNCE_MS = 150

/** Search, filters, the employee table, the detail panel and exports, all over the local cache. */
export function BrowseView({ sync, signedIn, onSignIn, trackedPayCycles }: BrowseViewProps) {
  const [text, setText] = useState('')
  const [choice, setChoice] = useState<Omit<EmployeeFilters, 'text'>>(EMPTY_FILTERS)
  const searchText = useDebouncedValue(text, SEARCH_DEBOUNCE_MS)
  const filters: EmployeeFilters = { ...choice, text: searchText }
  const rows = useEmployeeRows(filters, sync.dataVersion)
  const columns = useColumns(sync.dataVersion)
  const visible = useVisibleColumns(columns, columnsRead(columns))
  const exporter = useExport()
  // Search, filters, sort and columns are kept per profile in main (restored on start) and can be saved by name.
  const { setLayout, restore: restoreLayout, viewLayout } = visible
  const viewState = useMemo(() => toViewState(text, choice, viewLayout), [text, choice, viewLayout])
  const applyView = useCallback(
    (state: ViewState) => {
      setText(state.text)
      setChoice(filtersOf(state))
      if (state.columns !== undefined) setLayout(state.columns)
    },
    [setLayout],
  )
  const restoreView = useCallback(
    (state: ViewState | null, profileId: string) => {
      if (state !== null) {
        setText(state.text)
        setChoice(filtersOf(state))
      }
      restoreLayout(state?.columns, profileId)
    },
    [restoreLayout],
  )
  const viewRestored = useViewState(viewState, restoreView)
  const searchRef = useRef<HTMLInputElement>(null)
  useFindShortcut(searchRef)

  const loaded = rows.status === 'ready' ? rows : rows.status === 'loading' ? rows.previous : undefined
  const [detailUuid, setDetailUuid] = useState<string>()
  const grid = useRef<GridHandle>(null)
  const commands = useCommandBus()
  // The export bar writes them, in the format it shows, like any export.
  const exportRows = (uuids: readonly string[]): void => void commands.dispatch('export-rows', uuids)

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
  // When an export ends, the focus goes back where it was when it started (its button is disabled meanwhile).
  const exportFocus = useRef<() => void>(undefined)
  const exportRunning = exporter.state.phase === 'running'
  useEffect(() => {
    if (exportRunning) {
      exportFocus.current ??= rememberFocus(() =>
        document.querySelector<HTMLElement>('.employee-grid [tabindex="0"]'),
      )
    } else {
      exportFocus.current?.()
      exportFocus.current = undefined
    }
  }, [exportRunning])
  const table: TableActions = {
    sort: filters.sort,
    onSort: (column) => setChoice((c) => ({ ...c, sort: nextSort(c.sort, column) })),
    onActiveChange: (index) => {
      // An open panel follows the keyboard, so arrowing through the list reads each employee in turn.
      const uuid = uuidAt(index)
      if (detailUuid !== undefined && uuid !== undefined) setDetailUuid(uuid)
    },
    onOpen,
    detailOpen: detailUuid !== undefined,
    onCloseDetail: closeDetail,
    onExportRows: (uuids) => exportRows(uuids),
    widths: visible.layout.widths,
    frozen: visible.frozen,
    onResize: visible.setWidth,
    onMove: visible.move,
    allColumns: columns,
    handle: grid,
  }
  const clearFilters = (): void => {
    setText('')
    setChoice(EMPTY_FILTERS)
  }

  return (
    <div className={`browse${detailUuid !== undefined ? ' with-detail' : ''}`}>
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
        <ViewsMenu current={viewState} onApply={(view) => applyView(view.state)} />
        <ExportBar
          total={loaded?.cache.total ?? 0}
          filters={filters}
          columns={visible.visible}
          trackedPayCycles={trackedPayCycles}
          exporter={exporter}
          dataVersion={sync.dataVersion}
        />
      </div>
      <ExportStatus exporter={exporter} />
      <div className="browse-body">
        <FilterPanel
          facets={loaded?.facets}
          filters={filters}
          onToggleStatus={(value) => setChoice((c) => ({ ...c, statuses: toggleValue(c.statuses, value) }))}
          onTogglePayCycle={(value) =>
            setChoice((c) => ({ ...c, payCycleIds: toggleValue(c.payCycleIds, value) }))
          }
          onClearAll={clearFilters}
        />
        <section className="results" aria-label="Employee list">
          {/* Remounted by each sync, whose employees make an earlier live answer out of date. */}
          <ServiceLookup
            key={sync.dataVersion}
            filters={filters}
            localMatches={rows.status === 'ready' ? rows.cache.total : undefined}
            signedIn={signedIn}
            onSignIn={onSignIn}
            columns={columns}
            visibleColumns={visible.visible}
          />
          <ResultsView
            // Until the kept view is restored the table would show the default columns and filters: it waits.
            rows={viewRestored ? rows : { status: 'loading', previous: undefined, retry: rows.retry }}
            employeeCount={sync.status?.employeeCount ?? 0}
            filters={filters}
            columns={visible.visible}
            signedIn={signedIn}
            syncing={sync.running}
            onSync={sync.start}
            onSignIn={onSignIn}
            onClearFilters={clearFilters}
            table={table}
          />
        </section>
        {detailUuid !== undefined && (
          // Esc anywhere in the panel closes it, as it does from the table.
          <div
            className="detail-slot"
            onKeyDown={(event) => {
              if (event.key !== 'Escape' || event.defaultPrevented) return
              event.preventDefault()
              closeDetail()
            }}
          >
            <DetailPanel uuid={detailUuid} columns={columns} onClose={closeDetail} />
          </div>
        )}
      </div>
    </div>
  )
}
