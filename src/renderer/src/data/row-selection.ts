/**
 * Which rows of a result are selected, as sorted, disjoint, inclusive index ranges: Ctrl+A over a million rows is
 * one range, not a million numbers. `anchor` is where a Shift+click range starts; `active` is the row the keyboard
 * is on (the roving focus), which a Ctrl+click can leave unselected.
 */
export interface RowSelection {
  readonly ranges: readonly (readonly [number, number])[]
  readonly anchor: number | undefined
  readonly active: number | undefined
}

export const NO_SELECTION: RowSelection = { ranges: [], anchor: undefined, active: undefined }

function normalise(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = ranges
    .map(([a, b]): [number, number] => [Math.min(a, b), Math.max(a, b)])
    .sort((x, y) => x[0] - y[0])
  const merged: [number, number][] = []
  for (const range of sorted) {
    const last = merged.at(-1)
    if (last !== undefined && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1])
    else merged.push([range[0], range[1]])
  }
  return merged
}

/** A click, or the keyboard moving: that row alone. */
export function selectOnly(index: number): RowSelection {
  return { ranges: [[index, index]], anchor: index, active: index }
}

/** Shift+click or Shift+arrow: every row from the anchor to `index`, replacing the rest. */
export function selectRange(selection: RowSelection, index: number): RowSelection {
  const anchor = selection.anchor ?? selection.active ?? index
  return { ranges: [[Math.min(anchor, index), Math.max(anchor, index)]], anchor, active: index }
}

/** Ctrl/Cmd+click: that row in or out, the others kept. */
export function toggleRow(selection: RowSelection, index: number): RowSelection {
  if (!isSelected(selection, index)) {
    return { ranges: normalise([...selection.ranges, [index, index]]), anchor: index, active: index }
  }
  const ranges = selection.ranges.flatMap(([start, end]): [number, number][] => {
    if (index < start || index > end) return [[start, end]]
    const parts: [number, number][] = []
    if (start < index) parts.push([start, index - 1])
    if (index < end) parts.push([index + 1, end])
    return parts
  })
  return { ranges, anchor: index, active: index }
}

/** Ctrl/Cmd+A: every row of the result. */
export function selectAll(selection: RowSelection, total: number): RowSelection {
  if (total === 0) return NO_SELECTION
  return { ranges: [[0, total - 1]], anchor: selection.anchor ?? 0, active: selection.active ?? 0 }
}

export function isSelected(selection: RowSelection, index: number): boolean {
  return selection.ranges.some(([start, end]) => index >= start && index <= end)
}

export function selectedCount(selection: RowSelection): number {
  return selection.ranges.reduce((sum, [start, end]) => sum + end - start + 1, 0)
}

/** The selected indexes in table order, at most `limit` of them. */
export function selectedIndexes(selection: RowSelection, limit: number): number[] {
  const indexes: number[] = []
  for (const [start, end] of selection.ranges) {
    for (let index = start; index <= end && indexes.length < limit; index += 1) indexes.push(index)
  }
  return indexes
}
