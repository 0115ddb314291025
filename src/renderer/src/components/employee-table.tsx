import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual'
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type Ref,
} from 'react'
import type { ColumnInfo, EmployeeRow as Row } from '../../../shared/domain'
import { chordLabel, findShortcut, GRID_SHORTCUTS, type GridAction } from '../../../shared/shortcuts'
import type { EmployeeFilters } from '../data/employee-filters'
import {
  isSelected,
  NO_SELECTION,
  selectAll,
  selectedCount,
  selectedIndexes,
  selectOnly,
  selectRange,
  toggleRow,
  type RowSelection,
} from '../data/row-selection'
import type { RowWindowCache } from '../data/row-window-cache'
import { MAX_COPY_ROWS, toLines, toTsv } from '../data/tsv'
import { formatCount, plural } from '../format/format-value'
import { isMac } from '../hooks/use-app-commands'
import type { ColumnLayout } from '../hooks/use-visible-columns'
import { gridTemplate, widthSum } from './column-width'
import { cellSelector, EmployeeRow } from './employee-row'
import { RowContextMenu, type MenuItem } from './row-context-menu'
import { SortableHeader } from './sortable-header'

/** What the browse view can ask of the table: the focus, for the search box's ↓ and for returning from a panel. */
export interface GridHandle {
  /** Selects the first row and puts the focus on it. */
  focusFirstRow(): void
  /** Puts the focus back on the row (and column) the keyboard was on. */
  focusActive(): void
}

/** What the table does for the browse view besides showing rows. */
export interface TableActions {
  readonly sort: EmployeeFilters['sort']
  readonly onSort: (column: string) => void
  /** The keyboard or a click moved to another row (an open detail panel follows it). */
  readonly onActiveChange: (index: number) => void
  readonly onOpen: (index: number) => void
  readonly detailOpen: boolean
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

/** Where the keyboard is: a row (and its column), or a column header (`row` undefined while on the headers). */
interface GridState {
  readonly key: string
  readonly selection: RowSelection
  readonly column: number
  readonly onHeader: boolean
}

/** Rows are 2.25rem high: measured once from the root font size so zoom and large fonts keep rows readable. */
function rootFontPx(): number {
  const size = Number.parseFloat(window.getComputedStyle(document.documentElement).fontSize)
  return Number.isFinite(size) && size > 0 ? size : 16
}

const OVERSCAN = 12
const NOTICE_MS = 8_000
/** How much Ctrl/Cmd+Shift+←/→ narrows or widens a column. */
const COLUMN_STEP_PX = 16

/**
 * The employee grid, an ARIA grid. Only the rows on screen (plus a margin) exist in the DOM, and their windows are
 * fetched from main as they come into view, so 100,000 employees scroll as smoothly as 100; the row the keyboard
 * is on is always rendered as well, so the focus never falls out of the grid when it scrolls away.
 *
 * One tab stop (a roving focus): the active cell, or a header's sort button. Keys come from GRID_SHORTCUTS (the
 * table the Help panel lists). Selection: click, Shift+click (range), Ctrl/Cmd+click (toggle), Ctrl/Cmd+A; Ctrl/Cmd+C
 * copies the selected rows as tab-separated text with the shown columns' headers.
 */
export function EmployeeTable(props: EmployeeTableProps) {
  const { cache, resetKey, columns, sort, onSort, frozen } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  const [rowHeight] = useState(() => Math.round(rootFontPx() * 2.25))
  const total = cache.total

  const initial: GridState = { key: resetKey, selection: NO_SELECTION, column: 0, onHeader: false }
  const [stored, setStored] = useState<GridState>(initial)
  const state = stored.key === resetKey ? stored : initial
  const { selection } = state
  const active = selection.active !== undefined && selection.active < total ? selection.active : undefined
  const focusPending = useRef(false)
  const [notice, setNotice] = useState('')
  const [menu, setMenu] = useState<{ x: number; y: number }>()
  // What a copy did ("Copied 3 rows."), shown under the table for a while and read by screen readers.
  useEffect(() => {
    if (notice === '') return
    const timer = window.setTimeout(() => setNotice(''), NOTICE_MS)
    return () => window.clearTimeout(timer)
  }, [notice])
  const [dragWidth, setDragWidth] = useState<{ key: string; px: number }>()

  const rangeExtractor = useCallback(
    (range: Range): number[] => {
      const indexes = defaultRangeExtractor(range)
      if (active === undefined || active >= range.count || indexes.includes(active)) return indexes
      return [...indexes, active].sort((a, b) => a - b)
    },
    [active],
  )

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollMargin: rowHeight,
    scrollPaddingStart: rowHeight,
    rangeExtractor,
  })
  const items = virtualizer.getVirtualItems()
  // The rows in view and the overscan around them; the active row, rendered wherever it is, is fetched apart.
  const first = Math.max(0, (virtualizer.range?.startIndex ?? 0) - OVERSCAN)
  const last = Math.min(total - 1, (virtualizer.range?.endIndex ?? 0) + OVERSCAN)

  useEffect(() => cache.ensure(first, last), [cache, first, last])
  useEffect(() => {
    if (active !== undefined) cache.ensure(active, active)
  }, [cache, active])
  useEffect(() => virtualizer.scrollToOffset(0), [resetKey, virtualizer])

  const widths = useMemo(
    () => (dragWidth === undefined ? props.widths : { ...props.widths, [dragWidth.key]: dragWidth.px }),
    [props.widths, dragWidth],
  )
  const frozenStyles = useMemo(
    () =>
      columns.map((_, index): CSSProperties | undefined =>
        index < frozen ? { left: widthSum(columns.slice(0, index), widths) } : undefined,
      ),
    [columns, frozen, widths],
  )
  const frozenWidth = widthSum(columns.slice(0, frozen), widths)

  /** Applies a new keyboard position and selection; the focus follows after the render. */
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
      props.onActiveChange(target)
    },
    [props, selection, total, update],
  )

  // After a move: scroll the row (and, past the frozen columns, the cell) into view, then focus it.
  useLayoutEffect(() => {
    if (!focusPending.current) return
    focusPending.current = false
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

  // A new query while the focus is in the rows: the first row of the new answer takes it.
  useEffect(() => {
    const grid = scrollRef.current
    if (grid && grid.querySelector('[role="rowgroup"].grid-body')?.contains(document.activeElement)) {
      setStored({ ...initialState(resetKey), selection: selectOnly(0) })
      focusPending.current = true
    }
  }, [resetKey])

  useImperativeHandle(
    props.handle,
    (): GridHandle => ({
      focusFirstRow: () => {
        if (total === 0) return
        update({ selection: selectOnly(0), onHeader: false })
        props.onActiveChange(0)
      },
      focusActive: () => {
        const grid = scrollRef.current
        grid?.querySelector<HTMLElement>('[tabindex="0"]')?.focus()
      },
    }),
    [props, total, update],
  )

  /** The selected rows (at most MAX_COPY_ROWS), read through the cache's loader when off screen. */
  const selectedRows = async (): Promise<{ rows: Row[]; count: number }> => {
    const count = selectedCount(selection)
    return { rows: await cache.rowsAt(selectedIndexes(selection, MAX_COPY_ROWS)), count }
  }
  const cappedNote = (count: number): string =>
    count > MAX_COPY_ROWS
      ? ` (the first ${formatCount(MAX_COPY_ROWS)} of ${formatCount(count)} selected: the most one copy takes)`
      : ''
  const copy = (what: 'rows' | ColumnInfo): void => {
    if (selectedCount(selection) === 0) return
    void (async () => {
      try {
        const { rows, count } = await selectedRows()
        const text = what === 'rows' ? toTsv(columns, rows) : toLines(what.key, rows)
        await navigator.clipboard.writeText(text)
        const copied =
          what === 'rows' ? plural(rows.length, 'row') : `${what.label} of ${plural(rows.length, 'row')}`
        setNotice(`Copied ${copied}${cappedNote(count)}.`)
      } catch {
        setNotice('RosterDesk could not copy to the clipboard. Try again.')
      }
    })()
  }
  const exportSelected = (): void => {
    void (async () => {
      try {
        const { rows, count } = await selectedRows()
        const uuids = rows.flatMap((row) => (typeof row['UUID'] === 'string' ? [row['UUID']] : []))
        if (count > MAX_COPY_ROWS) setNotice(`Exporting${cappedNote(count)}.`)
        if (uuids.length > 0) props.onExportRows(uuids)
      } catch {
        setNotice('RosterDesk could not read the selected rows. Try again.')
      }
    })()
  }

  const pageRows = Math.max(
    1,
    Math.floor((scrollRef.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 2,
  )
  const numberColumn = props.allColumns.find((column) => column.identifier === 'number')
  const emailColumn = props.allColumns.find((column) => column.identifier === 'email')
  const copyHint = GRID_SHORTCUTS.find((shortcut) => shortcut.id === 'copy')?.chords[0]
  const menuItems: MenuItem[] = [
    { label: 'Copy', ...(copyHint ? { hint: chordLabel(copyHint, isMac) } : {}), run: () => copy('rows') },
    numberColumn === undefined
      ? {
          label: 'Copy employee number',
          disabled: true,
          reason: 'The data has no employee numbers.',
          run: noop,
        }
      : { label: 'Copy employee number', run: () => copy(numberColumn) },
    emailColumn === undefined
      ? { label: 'Copy e-mail', disabled: true, reason: 'The data has no e-mail addresses.', run: noop }
      : { label: 'Copy e-mail', run: () => copy(emailColumn) },
    { label: 'Export selected rows…', run: exportSelected },
    {
      label: 'Open details',
      disabled: active === undefined,
      run: () => active !== undefined && props.onOpen(active),
    },
  ]
  const openMenuAtActive = (): void => {
    const grid = scrollRef.current
    const cell =
      active === undefined ? null : (grid?.querySelector(cellSelector(active, state.column)) ?? null)
    const box = (cell ?? grid)?.getBoundingClientRect()
    if (active === undefined) moveTo(0)
    setMenu({ x: (box?.left ?? 0) + 8, y: (box?.bottom ?? 0) - 4 })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (total === 0 || event.defaultPrevented) return
    const action: GridAction | undefined = findShortcut(event, GRID_SHORTCUTS, isMac)
    if (action === undefined) return
    const current = active ?? -1
    const lastColumn = columns.length - 1
    if (state.onHeader && action === 'open') return // Enter on a header button sorts (its own click)
    const handlers: Partial<Record<GridAction, () => void>> = {
      'row-down': () => (state.onHeader ? moveTo(active ?? 0) : moveTo(current + 1)),
      'row-up': () => (current <= 0 || state.onHeader ? update({ onHeader: true }) : moveTo(current - 1)),
      'extend-down': () => moveTo(current + 1, 'range'),
      'extend-up': () => moveTo(Math.max(0, current - 1), 'range'),
      'page-down': () => moveTo(current + pageRows),
      'page-up': () => moveTo(Math.max(0, current - pageRows)),
      'first-row': () => moveTo(0),
      'last-row': () => moveTo(total - 1),
      'cell-left': () => update({ column: Math.max(0, state.column - 1) }),
      'cell-right': () => update({ column: Math.min(lastColumn, state.column + 1) }),
      open: () => active !== undefined && props.onOpen(active),
      close: () => props.detailOpen && props.onCloseDetail(),
      'select-all': () => update({ selection: selectAll(selection, total) }, { focus: false }),
      copy: () => copy('rows'),
      menu: openMenuAtActive,
      'widen-column': () => resizeBy(COLUMN_STEP_PX),
      'narrow-column': () => resizeBy(-COLUMN_STEP_PX),
    }
    const run = handlers[action]
    if (run === undefined || (action === 'close' && !props.detailOpen)) return
    event.preventDefault()
    run()
  }

  const onRowClick = (index: number, column: number, event: MouseEvent): void => {
    const toggle = isMac ? event.metaKey : event.ctrlKey
    if (event.shiftKey) {
      update({ selection: selectRange(selection, index), column, onHeader: false })
      props.onActiveChange(index)
    } else if (toggle) {
      update({ selection: toggleRow(selection, index), column, onHeader: false })
    } else {
      update({ selection: selectOnly(index), column, onHeader: false })
      props.onActiveChange(index)
      props.onOpen(index)
    }
  }
  const onRowContextMenu = (index: number, column: number, event: MouseEvent): void => {
    event.preventDefault()
    if (!isSelected(selection, index)) {
      update({ selection: selectOnly(index), column, onHeader: false })
      props.onActiveChange(index)
    } else {
      update({ selection: { ...selection, active: index }, column, onHeader: false })
    }
    setMenu({ x: event.clientX, y: event.clientY })
  }

  const onResizeStart = (key: string, event: PointerEvent<HTMLElement>): void => {
    event.stopPropagation()
    const header = event.currentTarget.closest<HTMLElement>('[role="columnheader"]')
    const startWidth = header?.getBoundingClientRect().width ?? 100
    const startX = event.clientX
    let latest = startWidth
    // Followed on the window, so the pointer may leave the thin grip (and the header) while dragging.
    const onMove = (move: globalThis.PointerEvent): void => {
      latest = Math.max(24, startWidth + move.clientX - startX)
      setDragWidth({ key, px: Math.round(latest) })
    }
    const onUp = (): void => {
      window.removeEventListener('pointermove', onMove)
      window.removeEventListener('pointerup', onUp)
      window.removeEventListener('pointercancel', onUp)
      setDragWidth(undefined)
      if (Math.round(latest) !== Math.round(startWidth)) props.onResize(key, latest)
    }
    window.addEventListener('pointermove', onMove)
    window.addEventListener('pointerup', onUp)
    window.addEventListener('pointercancel', onUp)
  }
  /** The keyboard's resize: the current column, a step at a time. */
  const resizeBy = (delta: number): void => {
    const column = columns[state.column]
    const header = [...(scrollRef.current?.querySelectorAll<HTMLElement>('[role="columnheader"]') ?? [])][
      state.column
    ]
    if (column && header) props.onResize(column.key, header.getBoundingClientRect().width + delta)
  }
  const onFit = (key: string): void => {
    const grid = scrollRef.current
    if (grid) props.onResize(key, contentWidth(grid, key))
  }

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
        onCopy={(event) => {
          // The Edit menu's Copy (and Ctrl+C where the menu takes the key first) arrives as a copy event.
          if (selectedCount(selection) === 0) return
          event.preventDefault()
          copy('rows')
        }}
        onFocus={(event) => {
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
        }}
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
                tabStop={state.onHeader && tabStopHeader === index}
                onResizeStart={onResizeStart}
                onFit={onFit}
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
              start={item.start - rowHeight}
              onClick={onRowClick}
              onContextMenu={onRowContextMenu}
            />
          ))}
        </div>
      </div>
      <p className="table-notice" role="status">
        {notice}
      </p>
      {menu !== undefined && (
        <RowContextMenu
          x={menu.x}
          y={menu.y}
          items={menuItems}
          onClose={() => {
            setMenu(undefined)
            focusPending.current = true
            update({})
          }}
        />
      )}
    </>
  )
}

function initialState(key: string): GridState {
  return { key, selection: NO_SELECTION, column: 0, onHeader: false }
}

function noop(): void {}

/** Where the frozen columns end, in the grid's viewport (its left edge when nothing is frozen). */
function frozenEdgeOf(grid: HTMLElement): number {
  const edge = grid.querySelector('.head-row .frozen-edge')
  return edge ? edge.getBoundingClientRect().right : grid.getBoundingClientRect().left
}

/** Scrolls the grid sideways so the cell is clear of the frozen columns and of the right edge. */
function revealColumn(grid: HTMLElement, cell: HTMLElement, frozenRight: number): void {
  const box = cell.getBoundingClientRect()
  const view = grid.getBoundingClientRect()
  if (box.left < frozenRight) grid.scrollLeft -= frozenRight - box.left
  else if (box.right > view.left + grid.clientWidth)
    grid.scrollLeft += box.right - (view.left + grid.clientWidth)
}

/** The width a column needs for its header and the rows on screen, in CSS pixels. */
function contentWidth(grid: HTMLElement, key: string): number {
  let widest = 0
  for (const cell of grid.querySelectorAll<HTMLElement>('[role="gridcell"][data-col]')) {
    if (cell.dataset['col'] === key) widest = Math.max(widest, cell.scrollWidth)
  }
  const header = [...grid.querySelectorAll<HTMLElement>('[role="columnheader"]')].find(
    (cell) => cell.dataset['col'] === key,
  )
  const label = header?.querySelector<HTMLElement>('.header-label')
  const button = header?.querySelector<HTMLElement>('.sort-button')
  if (label && button) widest = Math.max(widest, label.scrollWidth + button.clientWidth - label.clientWidth)
  return Math.ceil(widest) + 2
}
