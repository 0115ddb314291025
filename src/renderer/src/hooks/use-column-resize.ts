import { useMemo, useState, type PointerEvent, type RefObject } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import type { ColumnLayout } from './use-visible-columns'

/** What the table asks of its column resizing; see useColumnResize. */
export interface ColumnResize {
  /** The widths to draw: the saved ones, with the column being dragged at its width so far. */
  readonly widths: ColumnLayout['widths']
  /** Pressing a header's resize grip: the width follows the pointer, and is saved when it lets go. */
  onResizeStart(key: string, event: PointerEvent<HTMLElement>): void
  /** The keyboard's resize: the column the keyboard is on, by `delta` CSS pixels. */
  resizeBy(delta: number): void
  /** Double-click on a grip: the column fits its header and the rows on screen. */
  onFit(key: string): void
}

interface ColumnResizeOptions {
  readonly scrollRef: RefObject<HTMLDivElement | null>
  readonly columns: readonly ColumnInfo[]
  /** The widths the clerk set (CSS pixels). */
  readonly widths: ColumnLayout['widths']
  /** The column the keyboard is on. */
  readonly column: number
  readonly onResize: (key: string, px: number) => void
}

/**
 * Resizing the employee table's columns: by dragging a header's right edge (drawn as it moves, saved once on
 * release), by the keyboard a step at a time, or fitted to the content by a double-click.
 */
export function useColumnResize({
  scrollRef,
  columns,
  widths: saved,
  column: columnIndex,
  onResize,
}: ColumnResizeOptions): ColumnResize {
  const [dragWidth, setDragWidth] = useState<{ key: string; px: number }>()
  const widths = useMemo(
    () => (dragWidth === undefined ? saved : { ...saved, [dragWidth.key]: dragWidth.px }),
    [saved, dragWidth],
  )

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
      if (Math.round(latest) !== Math.round(startWidth)) onResize(key, latest)
    }
    window.addEventListener('pointermove', onMove)
    window.addEventListener('pointerup', onUp)
    window.addEventListener('pointercancel', onUp)
  }
  const resizeBy = (delta: number): void => {
    const column = columns[columnIndex]
    const header = [...(scrollRef.current?.querySelectorAll<HTMLElement>('[role="columnheader"]') ?? [])][
      columnIndex
    ]
    if (column && header) onResize(column.key, header.getBoundingClientRect().width + delta)
  }
  const onFit = (key: string): void => {
    const grid = scrollRef.current
    if (grid) onResize(key, contentWidth(grid, key))
  }

  return { widths, onResizeStart, resizeBy, onFit }
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
