import { memo, type CSSProperties, type MouseEvent } from 'react'
import type { ColumnInfo, EmployeeRow as Row } from '../../../shared/domain/rows'
import { isMoneyColumn, rowCurrency } from '../../../shared/money'
import { displayedValue, usePayDisplay } from '../hooks/use-pay-display'
import { fieldOf } from '../../../shared/row-field'

interface EmployeeRowProps {
  readonly index: number
  readonly row: Row | undefined
  readonly failed: boolean
  readonly columns: readonly ColumnInfo[]
  readonly selected: boolean
  /** The column whose cell is the grid's one tab stop, when this row holds it. */
  readonly focusColumn: number | undefined
  /** Sticky offsets of the frozen columns (undefined for the others). */
  readonly frozen: readonly (CSSProperties | undefined)[]
  /** The key of the column scrolled partly under the frozen ones, whose cell is not shown (EmployeeTable). */
  readonly underPinned?: string | undefined
  readonly start: number
  readonly onClick: (index: number, column: number, event: MouseEvent) => void
  readonly onContextMenu: (index: number, column: number, event: MouseEvent) => void
}

/** The DOM selector of one body cell, for moving the focus to it. */
export function cellSelector(index: number, column: number): string {
  return `[data-cell="${index}:${column}"]`
}

/** The column a click landed in, from the cell's data attribute (0 when between cells). */
function columnOf(event: MouseEvent): number {
  const cell = (event.target as Element).closest<HTMLElement>('[data-cell]')
  return Number(cell?.dataset['cell']?.split(':')[1] ?? 0)
}

/** Whether a column's cells are right-aligned with tabular figures: numbers and amounts, so digits line up. */
export function numeric(column: ColumnInfo): boolean {
  return column.kind === 'number' || isMoneyColumn(column)
}

/**
 * One virtual row, positioned by the table; a placeholder while its window is still loading. Its cells take the
 * focus one at a time (the grid's roving tab stop), so a screen reader reads the cell and its column. Memoised: a
 * keystroke renders the table again while its answer is away, and rows whose props are unchanged are skipped, so
 * the table's handlers and styles passed here must be stable (EmployeeTable keeps them so).
 */
export const EmployeeRow = memo(function EmployeeRow(props: EmployeeRowProps) {
  const { index, row, failed, columns, selected, focusColumn, frozen, start } = props
  const lastFrozen = frozen.findLastIndex((style) => style !== undefined)
  // A row still loading shows this in its first cell (the rest stay empty).
  const placeholder = failed ? 'Could not load' : '…'
  const display = usePayDisplay()
  const currency = rowCurrency(row, display.currency)
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      aria-busy={row === undefined && !failed}
      className={`grid-row body-row${selected ? ' selected' : ''}${index % 2 === 1 ? ' odd' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
      // Shift and Ctrl/Cmd+click extend the selection; the browser must not start selecting text instead.
      onMouseDown={(event) => {
        if (event.shiftKey || event.ctrlKey || event.metaKey) event.preventDefault()
      }}
      onClick={(event) => props.onClick(index, columnOf(event), event)}
      onContextMenu={(event) => props.onContextMenu(index, columnOf(event), event)}
    >
      {columns.map((column, columnIndex) => (
        <div
          role="gridcell"
          key={column.key}
          aria-colindex={columnIndex + 1}
          data-cell={`${index}:${columnIndex}`}
          data-col={column.key}
          tabIndex={focusColumn === columnIndex ? 0 : -1}
          className={`cell${numeric(column) ? ' num' : ''}${frozen[columnIndex] ? ' frozen' : ''}${columnIndex === lastFrozen ? ' frozen-edge' : ''}${column.key === props.underPinned ? ' under-pinned' : ''}`}
          style={frozen[columnIndex]}
        >
          {row
            ? displayedValue(display, fieldOf(row, column.key), column.key, currency)
            : columnIndex === 0
              ? placeholder
              : ''}
        </div>
      ))}
    </div>
  )
})
