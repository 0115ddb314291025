import { useCallback, useRef, useState } from 'react'
import { EMPTY_FILTERS, nextSort, toggleValue, type EmployeeFilters } from '../data/employee-filters'
import { useColumns } from '../hooks/use-columns'
import { useDebouncedValue } from '../hooks/use-debounced-value'
import { useEmployeeRows } from '../hooks/use-employee-rows'
import { useExport } from '../hooks/use-export'
import { useFindShortcut } from '../hooks/use-find-shortcut'
import type { SyncController } from '../hooks/use-sync'
import { useVisibleColumns } from '../hooks/use-visible-columns'
import { ColumnChooser } from './column-chooser'
import { DetailPanel } from './detail-panel'
import { ExportBar } from './export-bar'
import { ExportStatus } from './export-status'
import { FilterPanel } from './filter-panel'
import { ResultsView } from './results-view'
import { SearchBox } from './search-box'
import { ServiceLookup } from './service-lookup'

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
  const visible = useVisibleColumns(columns)
  const exporter = useExport()
  const searchRef = useRef<HTMLInputElement>(null)
  useFindShortcut(searchRef)

  const loaded = rows.status === 'ready' ? rows : rows.status === 'loading' ? rows.previous : undefined
  const [selection, setSelection] = useState<{ key: string; index: number }>()
  const selectedIndex = loaded && selection?.key === loaded.key ? selection.index : undefined
  const [detailUuid, setDetailUuid] = useState<string>()

  const uuidAt = useCallback(
    (index: number): string | undefined => {
      const value = loaded?.cache.rowAt(index)?.UUID
      return typeof value === 'string' ? value : undefined
    },
    [loaded],
  )
  const onSelect = (index: number): void => {
    if (!loaded) return
    setSelection({ key: loaded.key, index })
    // An open panel follows the selection, so arrowing through the list reads each employee in turn.
    const uuid = uuidAt(index)
    if (detailUuid !== undefined && uuid !== undefined) setDetailUuid(uuid)
  }
  const onOpen = (index: number): void => {
    const uuid = uuidAt(index)
    if (uuid !== undefined) setDetailUuid(uuid)
  }
  const clearFilters = (): void => {
    setText('')
    setChoice((current) => ({ ...current, searchColumn: undefined, statuses: [], payCycleIds: [] }))
  }

  return (
    <div className={`browse${detailUuid !== undefined ? ' with-detail' : ''}`}>
      <div className="toolbar">
        <SearchBox
          value={text}
          onChange={setText}
          inputRef={searchRef}
          columns={columns}
          column={choice.searchColumn}
          onColumnChange={(searchColumn) => setChoice((c) => ({ ...c, searchColumn }))}
        />
        <ColumnChooser columns={columns} visible={visible} />
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
            rows={rows}
            employeeCount={sync.status?.employeeCount ?? 0}
            filters={filters}
            columns={visible.visible}
            signedIn={signedIn}
            syncing={sync.running}
            onSync={sync.start}
            onSignIn={onSignIn}
            onClearFilters={clearFilters}
            onSort={(column) => setChoice((c) => ({ ...c, sort: nextSort(c.sort, column) }))}
            selectedIndex={selectedIndex}
            onSelect={onSelect}
            onOpen={onOpen}
          />
        </section>
        {detailUuid !== undefined && (
          <DetailPanel uuid={detailUuid} columns={columns} onClose={() => setDetailUuid(undefined)} />
        )}
      </div>
    </div>
  )
}
