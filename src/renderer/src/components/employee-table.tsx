import {
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type MouseEvent,
  type Ref,
  type RefObject,
} from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import type { EmployeeFilters } from '../data/employee-filters'
import { isSelected } from '../data/row-selection'
import type { RowWindowCache } from '../data/row-window-cache'
import { useColumnResize } from '../hooks/use-column-resize'
import { useGridKeys } from '../hooks/use-grid-keys'
import { useRowActions } from '../hooks/use-row-actions'
import { useRowSelection, type GridHandle } from '../hooks/use-row-selection'
import { useVirtualRows } from '../hooks/use-virtual-rows'
import type { ColumnLayout } from '../hooks/use-visible-columns'
import { gridTemplate, widthSum } from './column-width'
import { cellSelector, EmployeeRow } from './employee-row'
import { RowContextMenu } from './row-context-menu'
import { SortableHeader } from './sortable-header'

export type { GridHandle } from '../hooks/use-row-selection'

/** What the table does for the browse view besides showing rows. */
export interface TableActions {
  readonly sort: EmployeeFilters['sort']
  readonly onSort: (column: string) => void
  /** The keyboard or a click moved to another row (an open detail panel follows it). */
  readonly onActiveChange: (index: number) => void
  readonly onOpen: (index: number) => void
  readonly detailOpen: boolean
  /**
   * The columns the clerk sorted and filtered on, the sorted one first: while the detail panel is open the table
   * scrolls sideways to keep them in view (all of them when they fit together, else the sorted one).
   */
  readonly keep: readonly string[]
  readonly onCloseDetail: () => void
  /** "Export selected rows": their UUIDs, in table order. */
  readonly onExportRows: (uuids: readonly string[]) => void
  readonly widths: ColumnLayout['widths']
  /** Leading columns that stay in view while scrolling right. */
  readonly frozen: number
  readonly onResize: (key: string, px: number) => void
  readonly onMove: (key: string, to: number) => void
  /** Every column of the data, for the row menu's "Copy employee number" and "Copy e-mail". */
  readonly allColumns: readonly ColumnInfo[]
  readonly handle?: Ref<GridHandle>
}

interface EmployeeTableProps extends TableActions {
  readonly cache: RowWindowCache
  /** Changes with the query, which scrolls back to the top and clears the selection. */
  readonly resetKey: string
  readonly columns: readonly ColumnInfo[]
}

/** Rows are 2.25rem high: measured once from the root font size so zoom and large fonts keep rows readable. */
function rootFontPx(): number {
  const size = Number.parseFloat(window.getComputedStyle(document.documentElement).fontSize)
  return Number.isFinite(size) && size > 0 ? size : 16
}

/**
 * The employee grid, an ARIA grid. Only the rows on screen (plus a margin) exist in the DOM, and their windows are
 * fetched from main as they come into view, so 100,000 employees scroll as smoothly as 100; the row the keyboard
 * is on is always rendered as well, so the focus never falls out of the grid when it scrolls away.
 *
 * One tab stop (a roving focus): the active cell, or a header's sort button. Keys come from GRID_SHORTCUTS (the
 * table the Help panel lists). Selection: click, Shift+click (range), Ctrl/Cmd+click (toggle), Ctrl/Cmd+A; Ctrl/Cmd+C
 * copies the selected rows as tab-separated text with the shown columns' headers. The hooks it is built from:
 * useRowSelection (selection and roving focus), useRowActions (copy, export, the row menu), useColumnResize,
 * useVirtualRows and useGridKeys.
 */
export function EmployeeTable(props: EmployeeTableProps) {
  const { cache, resetKey, columns, sort, onSort, frozen } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  const [rowHeight] = useState(() => Math.round(rootFontPx() * 2.25))
  const total = cache.total

  const rowSelection = useRowSelection({ ...props, total, scrollRef })
  const { state, selection, active } = rowSelection
  const actions = useRowActions({ ...props, scrollRef, rowSelection })
  const resize = useColumnResize({ ...props, scrollRef, column: state.column })
  const { widths } = resize
  const { virtualizer, items } = useVirtualRows({ cache, scrollRef, rowHeight, active, resetKey })

  const frozenStyles = useMemo(
    () =>
      columns.map((_, index): CSSProperties | undefined =>
        index < frozen ? { left: widthSum(columns.slice(0, index), widths) } : undefined,
      ),
    [columns, frozen, widths],
  )
  const frozenWidth = widthSum(columns.slice(0, frozen), widths)

  const { underPinned, onScroll } = useUnderPinned(scrollRef, frozen, columns, widths)

  // The detail panel opens (or the sort or filters change while it is open): the columns they name come into view.
  const { detailOpen, keep } = props
  const keepKey = keep.join('\u0000')
  useLayoutEffect(() => {
    const grid = scrollRef.current
    if (detailOpen && grid) revealColumns(grid, keepKey === '' ? [] : keepKey.split('\u0000'))
  }, [detailOpen, keepKey])

  // After a move: scroll the row (and, past the frozen columns, the cell) into view, then focus it.
  useLayoutEffect(() => {
    if (!rowSelection.takeFocusRequest()) return
    const grid = scrollRef.current
    if (!grid) return
    if (state.onHeader) {
      grid.querySelector<HTMLElement>(`[data-header="${state.column}"]`)?.focus({ preventScroll: true })
      return
    }
    if (active === undefined) return
    virtualizer.scrollToIndex(active, { align: 'auto' })
    const cell = grid.querySelector<HTMLElement>(cellSelector(active, state.column))
    if (!cell) return
    cell.focus({ preventScroll: true })
    if (state.column >= frozen) revealColumn(grid, cell, frozenEdgeOf(grid))
  })

  const { onRowClick, onRowContextMenu } = useStableRowHandlers(
    rowSelection.onRowClick,
    actions.onRowContextMenu,
  )

  const onKeyDown = useGridKeys({
    ...props,
    total,
    columnCount: columns.length,
    // Read at the key, not during render: reading the grid's height there forced a layout at every render.
    pageRows: () => pageRowsOf(scrollRef.current, rowHeight),
    rowSelection,
    actions,
    resize,
  })

  const style = {
    '--columns': gridTemplate(columns, widths),
    '--grid-width': widthSum(columns, widths),
    '--frozen-width': frozenWidth,
    '--row-height': `${rowHeight}px`,
  } as CSSProperties
  const tabStopHeader = state.onHeader || active === undefined ? state.column : -1
  return (
    <>
      <div
        ref={scrollRef}
        className="employee-grid"
        role="grid"
        aria-label="Employees"
        aria-multiselectable="true"
        aria-rowcount={total + 1}
        aria-colcount={columns.length}
        onKeyDown={onKeyDown}
        onCopy={actions.onCopy}
        onFocus={rowSelection.onFocus}
        onScroll={onScroll}
        style={style}
      >
        <div role="rowgroup" className="grid-head">
          <div role="row" aria-rowindex={1} className="grid-row head-row">
            {columns.map((column, index) => (
              <SortableHeader
                key={column.key}
                column={column}
                index={index}
                sort={sort}
                onSort={onSort}
                frozen={frozenStyles[index]}
                frozenEdge={index === frozen - 1}
                underPinned={column.key === underPinned}
                tabStop={state.onHeader && tabStopHeader === index}
                onResizeStart={resize.onResizeStart}
                onFit={resize.onFit}
                onDropColumn={(key, to) => props.onMove(key, to)}
              />
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
              selected={isSelected(selection, item.index)}
              focusColumn={
                !state.onHeader && (item.index === active || (active === undefined && item.index === 0))
                  ? state.column
                  : undefined
              }
              frozen={frozenStyles}
              underPinned={underPinned}
              start={item.start - rowHeight}
              onClick={onRowClick}
              onContextMenu={onRowContextMenu}
            />
          ))}
        </div>
      </div>
      <p className="table-notice" role="status">
        {actions.notice}
      </p>
      {actions.menu !== undefined && (
        <RowContextMenu
          x={actions.menu.x}
          y={actions.menu.y}
          items={actions.menuItems}
          onClose={actions.closeMenu}
        />
      )}
    </>
  )
}

type RowHandler = (index: number, column: number, event: MouseEvent) => void

/**
 * The rows' handlers, stable for EmployeeRow's memo: they call the newest ones, set once each render commits, so a
 * render that changes no row's data renders no row.
 */
function useStableRowHandlers(
  onClick: RowHandler,
  onContextMenu: RowHandler,
): { readonly onRowClick: RowHandler; readonly onRowContextMenu: RowHandler } {
  const handlers = useRef({ onClick, onContextMenu })
  useLayoutEffect(() => {
    handlers.current = { onClick, onContextMenu }
  })
  const onRowClick = useCallback<RowHandler>(
    (index, column, event) => handlers.current.onClick(index, column, event),
    [],
  )
  const onRowContextMenu = useCallback<RowHandler>(
    (index, column, event) => handlers.current.onContextMenu(index, column, event),
    [],
  )
  return { onRowClick, onRowContextMenu }
}

/**
 * How many rows PageUp and PageDown move: those the grid shows now, less two for the header row and overlap; ten
 * rows' worth before the first render.
 */
function pageRowsOf(grid: HTMLElement | null, rowHeight: number): number {
  return Math.max(1, Math.floor((grid?.clientHeight ?? rowHeight * 10) / rowHeight) - 2)
}

/** Where the frozen columns end, in the grid's viewport (its left edge when nothing is frozen). */
function frozenEdgeOf(grid: HTMLElement): number {
  const edge = grid.querySelector('.head-row .frozen-edge')
  return edge ? edge.getBoundingClientRect().right : grid.getBoundingClientRect().left
}

/**
 * The column scrolled partly under the frozen ones, which is not shown until it is clear of them (app.css): read
 * from the headers' boxes at each sideways scroll and after each change of columns or widths.
 */
function useUnderPinned(
  scrollRef: RefObject<HTMLDivElement | null>,
  frozen: number,
  columns: readonly ColumnInfo[],
  widths: ColumnLayout['widths'],
): { underPinned: string | undefined; onScroll: () => void } {
  const [underPinned, setUnderPinned] = useState<string>()
  const measure = useCallback((): void => {
    const grid = scrollRef.current
    setUnderPinned(grid && frozen > 0 ? columnUnderPinned(grid) : undefined)
  }, [scrollRef, frozen])
  useLayoutEffect(measure, [measure, columns, widths])
  const scrolledLeft = useRef(0)
  const onScroll = (): void => {
    const left = scrollRef.current?.scrollLeft ?? 0
    // Scrolling down moves no column.
    if (left === scrolledLeft.current) return
    scrolledLeft.current = left
    measure()
  }
  return { underPinned, onScroll }
}

/** The key of the scrolling column whose header starts under the frozen columns and ends right of them, if any. */
function columnUnderPinned(grid: HTMLElement): string | undefined {
  const edge = frozenEdgeOf(grid)
  for (const header of grid.querySelectorAll<HTMLElement>('.head-row [role="columnheader"]:not(.frozen)')) {
    const box = header.getBoundingClientRect()
    if (box.left < edge - 0.5 && box.right > edge + 0.5) return header.dataset['col']
  }
  return undefined
}

/**
 * Scrolls the grid sideways as little as brings the columns (by key) into view between the frozen ones and the
 * right edge: all of them when they fit together, else the first.
 */
function revealColumns(grid: HTMLElement, keys: readonly string[]): void {
  const boxes = keys.flatMap((key) => {
    const header = grid.querySelector<HTMLElement>(
      `.head-row [role="columnheader"][data-col="${CSS.escape(key)}"]`,
    )
    return header && !header.classList.contains('frozen') ? [header.getBoundingClientRect()] : []
  })
  const [first] = boxes
  if (first === undefined) return
  const edge = frozenEdgeOf(grid)
  const right = grid.getBoundingClientRect().left + grid.clientLeft + grid.clientWidth
  const left = Math.min(...boxes.map((box) => box.left))
  const end = Math.max(...boxes.map((box) => box.right))
  const span = end - left <= right - edge ? { left, right: end } : first
  if (span.left < edge) grid.scrollLeft -= edge - span.left
  else if (span.right > right) grid.scrollLeft += span.right - right
}

/** Scrolls the grid sideways so the cell is clear of the frozen columns and of the right edge. */
function revealColumn(grid: HTMLElement, cell: HTMLElement, frozenRight: number): void {
  const box = cell.getBoundingClientRect()
  const view = grid.getBoundingClientRect()
  if (box.left < frozenRight) grid.scrollLeft -= frozenRight - box.left
  else if (box.right > view.left + grid.clientWidth)
    grid.scrollLeft += box.right - (view.left + grid.clientWidth)
}
