import type { ColumnInfo, EmployeeRow as Row } from '../../../shared/domain'
import { formatValue } from '../format/format-value'

interface EmployeeRowProps {
  readonly index: number
  readonly row: Row | undefined
  readonly failed: boolean
  readonly columns: readonly ColumnInfo[]
  readonly selected: boolean
  readonly start: number
  readonly onClick: (index: number) => void
}

/** The DOM id of a row, for aria-activedescendant. */
export function rowId(index: number): string {
  return `employee-row-${index}`
}

/** One virtual row, positioned by the table; a placeholder while its window is still loading. */
export function EmployeeRow({ index, row, failed, columns, selected, start, onClick }: EmployeeRowProps) {
  return (
    <div
      role="row"
      id={rowId(index)}
      aria-rowindex={index + 2}
      aria-selected={selected}
      aria-busy={row === undefined && !failed}
      className={`grid-row body-row${selected ? ' selected' : ''}${index % 2 === 1 ? ' odd' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
      onClick={() => onClick(index)}
    >
      {columns.map((column, columnIndex) => (
        <div role="gridcell" key={column.key} aria-colindex={columnIndex + 1} className="cell">
          {row ? formatValue(row[column.key]) : columnIndex === 0 ? (failed ? 'Could not load' : '…') : ''}
        </div>
      ))}
    </div>
  )
}
