import type { KeyboardEvent } from 'react'
import { findShortcut, GRID_SHORTCUTS, type GridAction } from '../../../shared/shortcuts'
import { selectAll } from '../data/row-selection'
import { isMac } from './use-app-commands'
import type { ColumnResize } from './use-column-resize'
import type { RowActions } from './use-row-actions'
import type { RowSelectionController } from './use-row-selection'

/** How much Ctrl/Cmd+Shift+←/→ narrows or widens a column. */
const COLUMN_STEP_PX = 16

interface GridKeysOptions {
  readonly total: number
  readonly columnCount: number
  /** How many rows PageUp and PageDown move, read when one is pressed. */
  readonly pageRows: () => number
  readonly rowSelection: RowSelectionController
  readonly actions: RowActions
  readonly resize: ColumnResize
  readonly onOpen: (index: number) => void
  readonly detailOpen: boolean
  readonly onCloseDetail: () => void
}

/**
 * The employee table's keys, from GRID_SHORTCUTS (the table the Help panel lists): moving between rows, cells and
 * the column headers, extending the selection, opening and closing the details, select all, copy, the row menu
 * and resizing the column. Returns the grid's keydown handler; a key it uses has its default prevented.
 */
export function useGridKeys(options: GridKeysOptions): (event: KeyboardEvent<HTMLDivElement>) => void {
  const { total, columnCount, pageRows, rowSelection, actions, resize } = options
  const { state, selection, active, update, moveTo } = rowSelection
  return (event) => {
    if (total === 0 || event.defaultPrevented) return
    const action: GridAction | undefined = findShortcut(event, GRID_SHORTCUTS, isMac)
    if (action === undefined) return
    const current = active ?? -1
    const lastColumn = columnCount - 1
    if (state.onHeader && action === 'open') return // Enter on a header button sorts (its own click)
    const handlers: Partial<Record<GridAction, () => void>> = {
      'row-down': () => (state.onHeader ? moveTo(active ?? 0) : moveTo(current + 1)),
      'row-up': () => (current <= 0 || state.onHeader ? update({ onHeader: true }) : moveTo(current - 1)),
      'extend-down': () => moveTo(current + 1, 'range'),
      'extend-up': () => moveTo(Math.max(0, current - 1), 'range'),
      'page-down': () => moveTo(current + pageRows()),
      'page-up': () => moveTo(Math.max(0, current - pageRows())),
      'first-row': () => moveTo(0),
      'last-row': () => moveTo(total - 1),
      'cell-left': () => update({ column: Math.max(0, state.column - 1) }),
      'cell-right': () => update({ column: Math.min(lastColumn, state.column + 1) }),
      open: () => active !== undefined && options.onOpen(active),
      close: () => options.detailOpen && options.onCloseDetail(),
      'select-all': () => update({ selection: selectAll(selection, total) }, { focus: false }),
      copy: actions.copyRows,
      menu: actions.openMenuAtActive,
      'widen-column': () => resize.resizeBy(COLUMN_STEP_PX),
      'narrow-column': () => resize.resizeBy(-COLUMN_STEP_PX),
    }
    const run = handlers[action]
    if (run === undefined || (action === 'close' && !options.detailOpen)) return
    event.preventDefault()
    run()
  }
}
