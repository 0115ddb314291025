import type { ColumnInfo } from '../../../shared/domain'
import type { EmployeeFilters } from '../data/employee-filters'

interface SortableHeaderProps {
  readonly column: ColumnInfo
  readonly index: number
  readonly sort: EmployeeFilters['sort']
  readonly onSort: (column: string) => void
}

/** A column header; clicking sorts by it ascending, clicking again flips the order. */
export function SortableHeader({ column, index, sort, onSort }: SortableHeaderProps) {
  const order = sort?.column === column.key ? sort.order : undefined
  const ariaSort = order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : 'none'
  return (
    <div role="columnheader" aria-sort={ariaSort} aria-colindex={index + 1} className="cell header-cell">
      <button type="button" className="sort-button" onClick={() => onSort(column.key)}>
        <span>{column.label}</span>
        <span className="sort-indicator" aria-hidden="true">
          {order === 'asc' ? '▲' : order === 'desc' ? '▼' : ''}
        </span>
      </button>
    </div>
  )
}
