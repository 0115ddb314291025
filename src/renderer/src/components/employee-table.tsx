import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react'
import type { ColumnInfo } from '../../../shared/domain'
import type { RowWindowCache } from '../data/row-window-cache'
import type { EmployeeFilters } from '../data/employee-filters'
import { gridTemplate } from './column-width'
import { EmployeeRow, rowId } from './employee-row'
import { SortableHeader } from './sortable-header'

interface EmployeeTableProps {
  readonly cache: RowWindowCache
  /** Changes with the query, which scrolls back to the top. */
  readonly resetKey: string
  readonly columns: readonly ColumnInfo[]
  readonly sort: EmployeeFilters['sort']
  readonly onSort: (column: string) => void
  readonly selectedIndex: number | undefined
  readonly onSelect: (index: number) => void
  readonly onOpen: (index: number) => void
}

/** Rows are 2.25rem high: measured once from the root font size so zoom and large fonts keep rows readable. */
function rowHeightPx(): number {
  const rootSize = Number.parseFloat(window.getComputedStyle(document.documentElement).fontSize)
  return Math.round((Number.isFinite(rootSize) && rootSize > 0 ? rootSize : 16) * 2.25)
}

/**
 * The employee grid. Only the rows on screen (plus a margin) exist in the DOM, and their windows are fetched from
 * main as they come into view, so 100,000 employees scroll as smoothly as 100. Arrow keys, Page Up/Down and
 * Home/End move the selection; Enter opens the detail panel.
 */
export function EmployeeTable(props: EmployeeTableProps) {
  const { cache, resetKey, columns, sort, onSort, selectedIndex, onSelect, onOpen } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  const [rowHeight] = useState(rowHeightPx)
  const total = cache.total

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    scrollMargin: rowHeight,
    scrollPaddingStart: rowHeight,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0

  useEffect(() => cache.ensure(first, last), [cache, first, last])
  useEffect(() => virtualizer.scrollToOffset(0), [resetKey, virtualizer])
  useEffect(() => {
    if (selectedIndex !== undefined) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [selectedIndex, virtualizer])

  const pageRows = Math.max(1, items.length - 2)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.target !== event.currentTarget || total === 0) return
    const current = selectedIndex ?? -1
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + pageRows,
      PageUp: current - pageRows,
      Home: 0,
      End: total - 1,
    }
    const target = moves[event.key]
    if (target !== undefined) {
      event.preventDefault()
      onSelect(Math.min(total - 1, Math.max(0, target)))
    } else if (event.key === 'Enter' && selectedIndex !== undefined) {
      event.preventDefault()
      onOpen(selectedIndex)
    }
  }

  const rendered = selectedIndex !== undefined && items.some((item) => item.index === selectedIndex)
  const style = { '--columns': gridTemplate(columns), '--row-height': `${rowHeight}px` } as CSSProperties
  return (
    <div
      ref={scrollRef}
      className="employee-grid"
      role="grid"
      aria-label="Employees"
      aria-rowcount={total + 1}
      aria-colcount={columns.length}
      aria-activedescendant={rendered ? rowId(selectedIndex) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      style={style}
    >
      <div role="rowgroup" className="grid-head">
        <div role="row" aria-rowindex={1} className="grid-row head-row">
          {columns.map((column, index) => (
            <SortableHeader key={column.key} column={column} index={index} sort={sort} onSort={onSort} />
          ))}
        </div>
      </div>
      <div role="rowgroup" className="grid-body" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        {items.map((item) => (
          <EmployeeRow
            key={item.index}
            index={item.index}
            row={cache.rowAt(item.index)}
            failed={cache.failedAt(item.index)}
            columns={columns}
            selected={item.index === selectedIndex}
            start={item.start - rowHeight}
            onClick={(index) => {
              scrollRef.current?.focus({ preventScroll: true })
              onSelect(index)
              onOpen(index)
            }}
          />
        ))}
      </div>
    </div>
  )
}
