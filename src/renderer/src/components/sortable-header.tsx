import { useRef, useState, type CSSProperties, type PointerEvent } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import type { EmployeeFilters } from '../data/employee-filters'
import { isMasked, usePayDisplay } from '../hooks/use-pay-display'
import { numeric } from './employee-row'

/** The drag data type of a column header being moved, so a drop of anything else is ignored. */
const COLUMN_DRAG_TYPE = 'application/x-rosterdesk-column'

interface SortableHeaderProps {
  readonly column: ColumnInfo
  readonly index: number
  readonly sort: EmployeeFilters['sort']
  readonly onSort: (column: string) => void
  /** Sticky offset when the column is frozen. */
  readonly frozen: CSSProperties | undefined
  readonly frozenEdge: boolean
  /** Scrolled partly under the frozen columns: not shown (EmployeeTable). */
  readonly underPinned: boolean
  /** True when this header's button is the grid's one tab stop. */
  readonly tabStop: boolean
  /** Pressing the resize grip: the table follows the pointer from here. */
  readonly onResizeStart: (key: string, event: PointerEvent<HTMLElement>) => void
  /** Double-click on the grip: fit the column to its header and the rows on screen. */
  readonly onFit: (key: string) => void
  /** Another header was dropped on this one: it takes this one's place. */
  readonly onDropColumn: (key: string, index: number) => void
}

/**
 * A column header: clicking sorts by it ascending, clicking again flips the order. Dragging the header moves the
 * column; dragging its right edge resizes it, a double-click there fits it to its content. A column masked by the
 * machine policy (`isMasked`) has "Show" beside its heading: its values in clear for the rest of the session.
 */
export function SortableHeader(props: SortableHeaderProps) {
  const { column, index, sort, onSort, frozen, frozenEdge, tabStop } = props
  const [dropTarget, setDropTarget] = useState(false)
  // Set at once on the grip's press (state would come a render late): a resize must not start a column drag.
  const resizing = useRef(false)
  const order = sort?.column === column.key ? sort.order : undefined
  const ariaSort = order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : 'none'
  const display = usePayDisplay()
  const masked = isMasked(display, column.key)
  return (
    <div
      role="columnheader"
      aria-sort={ariaSort}
      aria-colindex={index + 1}
      data-col={column.key}
      className={`cell header-cell${numeric(column) ? ' num' : ''}${frozen ? ' frozen' : ''}${frozenEdge ? ' frozen-edge' : ''}${props.underPinned ? ' under-pinned' : ''}${dropTarget ? ' drop-target' : ''}${masked ? ' masked' : ''}`}
      style={frozen}
      draggable
      onDragStart={(event) => {
        if (resizing.current) {
          event.preventDefault()
          return
        }
        event.dataTransfer.setData(COLUMN_DRAG_TYPE, column.key)
        event.dataTransfer.effectAllowed = 'move'
      }}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes(COLUMN_DRAG_TYPE)) return
        event.preventDefault()
        event.dataTransfer.dropEffect = 'move'
        setDropTarget(true)
      }}
      onDragLeave={() => setDropTarget(false)}
      onDrop={(event) => {
        setDropTarget(false)
        const key = event.dataTransfer.getData(COLUMN_DRAG_TYPE)
        if (key === '' || key === column.key) return
        event.preventDefault()
        props.onDropColumn(key, index)
      }}
    >
      <button
        type="button"
        className="sort-button"
        tabIndex={tabStop ? 0 : -1}
        data-header={index}
        onClick={() => onSort(column.key)}
      >
        <span className="header-label">{column.label}</span>
        <span className="sort-indicator" aria-hidden="true">
          {order === 'asc' ? '▲' : order === 'desc' ? '▼' : ''}
        </span>
      </button>
      {masked && (
        <button
          type="button"
          className="show-column"
          tabIndex={tabStop ? 0 : -1}
          aria-label={`Show ${column.label}`}
          title={`Show ${column.label} for this session`}
          onClick={() => display.showColumn?.(column.key)}
        >
          Show
        </button>
      )}
      <span
        className="resize-grip"
        aria-hidden="true"
        title="Drag to resize; double-click to fit"
        onPointerDown={(event) => {
          resizing.current = true
          props.onResizeStart(column.key, event)
          const done = (): void => {
            resizing.current = false
            window.removeEventListener('pointerup', done)
          }
          window.addEventListener('pointerup', done)
        }}
        onDoubleClick={() => props.onFit(column.key)}
      />
    </div>
  )
}
