import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
  type Ref,
  type RefObject,
} from 'react'
import { NO_SELECTION, selectOnly, selectRange, toggleRow, type RowSelection } from '../data/row-selection'
import { isMac } from './use-app-commands'

/** What the browse view can ask of the table: the focus, for the search box's ↓ and for returning from a panel. */
export interface GridHandle {
  /** Selects the first row and puts the focus on it. */
  focusFirstRow(): void
  /** Puts the focus back on the row (and column) the keyboard was on. */
  focusActive(): void
}

/** Where the keyboard is: a row (and its column), or a column header (`row` undefined while on the headers). */
export interface GridState {
  readonly key: string
  readonly selection: RowSelection
  readonly column: number
  readonly onHeader: boolean
}

/** What the table asks of its selection; see useRowSelection. */
export interface RowSelectionController {
  readonly state: GridState
  readonly selection: RowSelection
  /** The row the keyboard is on, when the result still has it. */
  readonly active: number | undefined
  /** Applies a new keyboard position and selection; the focus follows after the render unless `focus` is false. */
  update(next: Partial<Omit<GridState, 'key'>>, options?: { focus?: boolean }): void
  /** Moves the keyboard to a row (kept within the result), selecting it alone or extending the range to it. */
  moveTo(index: number, how?: 'only' | 'range'): void
  /** Whether the focus is to follow the last change; answering clears the request. */
  takeFocusRequest(): boolean
  /** A click on a row: select it (Shift: a range, Ctrl/Cmd: toggle it), a plain click opening its details. */
  onRowClick(index: number, column: number, event: MouseEvent): void
  /** The grid's focus handler: the roving focus follows a header or cell focused by Tab or a click. */
  onFocus(event: FocusEvent<HTMLDivElement>): void
}

interface RowSelectionOptions {
  /** Changes with the query, which clears the selection. */
  readonly resetKey: string
  readonly total: number
  readonly scrollRef: RefObject<HTMLDivElement | null>
  readonly onActiveChange: (index: number) => void
  readonly onOpen: (index: number) => void
  /** Where the table's GridHandle goes. */
  readonly handle?: Ref<GridHandle>
}

/**
 * The employee table's selection and roving focus: which rows are selected, the row and column the keyboard is on,
 * or the column header it reached. A new query (`resetKey`) starts over, and when the focus was in the rows the
 * first row of the new answer takes it. Also hands the browse view the table's GridHandle.
 */
export function useRowSelection({
  resetKey,
  total,
  scrollRef,
  onActiveChange,
  onOpen,
  handle,
}: RowSelectionOptions): RowSelectionController {
  const initial = initialState(resetKey)
  const [stored, setStored] = useState<GridState>(initial)
  const state = stored.key === resetKey ? stored : initial
  const { selection } = state
  const active = selection.active !== undefined && selection.active < total ? selection.active : undefined
  const focusPending = useRef(false)

  const update = useCallback(
    (next: Partial<Omit<GridState, 'key'>>, options: { focus?: boolean } = {}) => {
      setStored((current) => ({
        ...(current.key === resetKey ? current : initialState(resetKey)),
        ...next,
        key: resetKey,
      }))
      if (options.focus !== false) focusPending.current = true
    },
    [resetKey],
  )
  const moveTo = useCallback(
    (index: number, how: 'only' | 'range' = 'only') => {
      const target = Math.min(total - 1, Math.max(0, index))
      update({
        selection: how === 'range' ? selectRange(selection, target) : selectOnly(target),
        onHeader: false,
      })
      onActiveChange(target)
    },
    [onActiveChange, selection, total, update],
  )
  const takeFocusRequest = useCallback((): boolean => {
    const pending = focusPending.current
    focusPending.current = false
    return pending
  }, [])

  // A new query while the focus is in the rows: the first row of the new answer takes it.
  useEffect(() => {
    const grid = scrollRef.current
    if (grid && grid.querySelector('[role="rowgroup"].grid-body')?.contains(document.activeElement)) {
      setStored({ ...initialState(resetKey), selection: selectOnly(0) })
      focusPending.current = true
    }
  }, [resetKey, scrollRef])

  useImperativeHandle(
    handle,
    (): GridHandle => ({
      focusFirstRow: () => {
        if (total === 0) return
        update({ selection: selectOnly(0), onHeader: false })
        onActiveChange(0)
      },
      focusActive: () => {
        const grid = scrollRef.current
        grid?.querySelector<HTMLElement>('[tabindex="0"]')?.focus()
      },
    }),
    [onActiveChange, scrollRef, total, update],
  )

  const onRowClick = (index: number, column: number, event: MouseEvent): void => {
    const toggle = isMac ? event.metaKey : event.ctrlKey
    if (event.shiftKey) {
      update({ selection: selectRange(selection, index), column, onHeader: false })
      onActiveChange(index)
    } else if (toggle) {
      update({ selection: toggleRow(selection, index), column, onHeader: false })
    } else {
      update({ selection: selectOnly(index), column, onHeader: false })
      onActiveChange(index)
      onOpen(index)
    }
  }

  const onFocus = (event: FocusEvent<HTMLDivElement>): void => {
    const target = event.target as HTMLElement
    const header = target.dataset['header']
    if (header !== undefined) {
      if (!state.onHeader || state.column !== Number(header)) {
        update({ onHeader: true, column: Number(header) }, { focus: false })
      }
      return
    }
    const cell = target.dataset['cell']
    if (cell === undefined) return
    const [row = 0, column = 0] = cell.split(':').map(Number)
    // Tabbing into the grid (or clicking) with nothing chosen yet selects the row the focus landed on.
    if (active === undefined) moveTo(row)
    if (column !== state.column || state.onHeader) update({ column, onHeader: false }, { focus: false })
  }

  return { state, selection, active, update, moveTo, takeFocusRequest, onRowClick, onFocus }
}

function initialState(key: string): GridState {
  return { key, selection: NO_SELECTION, column: 0, onHeader: false }
}
