import { useCallback, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import type { ViewState } from '../../../shared/view-schema'
import { EMPTY_FILTERS, type EmployeeFilters } from '../data/employee-filters'
import { filtersOf, toViewState } from '../data/view-state'
import { columnsRead, useColumns } from './use-columns'
import { useEmployeeRows } from './use-employee-rows'
import { useViewState } from './use-view-state'
import { useVisibleColumns, type VisibleColumns } from './use-visible-columns'

/** The browse view's query and what answers it; see useBrowseQuery. */
export interface BrowseQuery {
  /** The search box's text, as typed. */
  readonly text: string
  readonly setText: (text: string) => void
  /** Filters, sort and the searched column: everything but the text. */
  readonly choice: Omit<EmployeeFilters, 'text'>
  readonly setChoice: Dispatch<SetStateAction<Omit<EmployeeFilters, 'text'>>>
  /** The choice with the text: what the cache is asked, at each keystroke (useEmployeeRows coalesces). */
  readonly filters: EmployeeFilters
  readonly rows: ReturnType<typeof useEmployeeRows>
  /** Every column of the data. */
  readonly columns: readonly ColumnInfo[]
  readonly visible: VisibleColumns
  /** Search, filters, sort and columns as one view: what "Save view…" keeps. */
  readonly viewState: ViewState
  /** Puts a saved view's search, filters, sort and columns on screen. */
  readonly applyView: (state: ViewState) => void
  /** Whether the profile's kept view is on screen yet (until then the table waits). */
  readonly viewRestored: boolean
  /** Clear all: no search text, no filters, no sort. */
  readonly clearFilters: () => void
}

/**
 * What the browse view asks the cache: the search text (as typed), filters and sort, the rows that answer them
 * (`dataVersion` changes after a sync, which asks again), the data's columns and the ones shown. Search, filters,
 * sort and columns are kept per profile in main (restored on start) and can be saved by name.
 */
export function useBrowseQuery(dataVersion: string): BrowseQuery {
  const [text, setText] = useState('')
  const [choice, setChoice] = useState<Omit<EmployeeFilters, 'text'>>(EMPTY_FILTERS)
  // Whether the clerk has searched, filtered or applied a view since the view opened: the kept view, read a moment
  // after the screen shows, restores its search and filters only if not, so nothing the clerk did first is undone.
  const touched = useRef(false)
  const typeText = useCallback((value: string): void => {
    touched.current = true
    setText(value)
  }, [])
  const chooseFilters = useCallback<Dispatch<SetStateAction<Omit<EmployeeFilters, 'text'>>>>((next) => {
    touched.current = true
    setChoice(next)
  }, [])
  const filters: EmployeeFilters = { ...choice, text }
  const rows = useEmployeeRows(filters, dataVersion)
  const columns = useColumns(dataVersion)
  const visible = useVisibleColumns(columns, columnsRead(columns))
  const { setLayout, restore: restoreLayout, viewLayout } = visible
  const viewState = useMemo(() => toViewState(text, choice, viewLayout), [text, choice, viewLayout])
  const applyView = useCallback(
    (state: ViewState) => {
      touched.current = true
      setText(state.text)
      setChoice(filtersOf(state))
      if (state.columns !== undefined) setLayout(state.columns)
    },
    [setLayout],
  )
  const restoreView = useCallback(
    (state: ViewState | null, profileId: string) => {
      if (state !== null && !touched.current) {
        setText(state.text)
        setChoice(filtersOf(state))
      }
      restoreLayout(state?.columns, profileId)
    },
    [restoreLayout],
  )
  const viewRestored = useViewState(viewState, restoreView)
  const clearFilters = (): void => {
    touched.current = true
    setText('')
    setChoice(EMPTY_FILTERS)
  }
  return {
    text,
    setText: typeText,
    choice,
    setChoice: chooseFilters,
    filters,
    rows,
    columns,
    visible,
    viewState,
    applyView,
    viewRestored,
    clearFilters,
  }
}
