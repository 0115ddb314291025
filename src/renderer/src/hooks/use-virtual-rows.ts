import {
  defaultRangeExtractor,
  useVirtualizer,
  type Range,
  type VirtualItem,
  type Virtualizer,
} from '@tanstack/react-virtual'
import { useCallback, useEffect, type RefObject } from 'react'
import type { RowWindowCache } from '../data/row-window-cache'

/**
 * Rows rendered beyond each edge of the view: every one of them is laid out and painted again at each answer
 * (a keystroke's), so only what a wheel notch or two scrolls in before the next frame.
 */
const OVERSCAN = 4
/** Rows fetched beyond each edge of the view, so a scroll finds its rows loaded. */
const FETCH_MARGIN = 12

/** The virtualizer, and the rows to render now. */
export interface VirtualRows {
  readonly virtualizer: Virtualizer<HTMLDivElement, Element>
  readonly items: VirtualItem[]
}

interface VirtualRowsOptions {
  readonly cache: RowWindowCache
  readonly scrollRef: RefObject<HTMLDivElement | null>
  readonly rowHeight: number
  /** The row the keyboard is on: always rendered, and fetched wherever it is. */
  readonly active: number | undefined
  /** Changes with the query, which scrolls back to the top. */
  readonly resetKey: string
}

/**
 * The employee table's virtual rows: only those in view (plus a margin) and the active one are rendered, and
 * their windows are fetched from the cache as they come into view. The header row takes the first row's height
 * (the scroll margin), so a row scrolled into view is never hidden under it.
 */
export function useVirtualRows({
  cache,
  scrollRef,
  rowHeight,
  active,
  resetKey,
}: VirtualRowsOptions): VirtualRows {
  const total = cache.total
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
  // Read first: it works out the range the lines below read.
  const items = virtualizer.getVirtualItems()
  // The rows in view and the margin around them; the active row, rendered wherever it is, is fetched apart.
  const first = Math.max(0, (virtualizer.range?.startIndex ?? 0) - FETCH_MARGIN)
  const last = Math.min(total - 1, (virtualizer.range?.endIndex ?? 0) + FETCH_MARGIN)

  useEffect(() => cache.ensure(first, last), [cache, first, last])
  useEffect(() => {
    if (active !== undefined) cache.ensure(active, active)
  }, [cache, active])
  // Only when scrolled: scrolling to 0 reads the grid's scroll height, a forced layout at every new answer.
  useEffect(() => {
    if (virtualizer.scrollOffset !== 0) virtualizer.scrollToOffset(0)
  }, [resetKey, virtualizer])
  return { virtualizer, items }
}
