import { describe, expect, it } from 'vitest'
import {
  isSelected,
  NO_SELECTION,
  selectAll,
  selectedCount,
  selectedIndexes,
  selectOnly,
  selectRange,
  toggleRow,
} from '../../src/renderer/src/data/row-selection'

describe('row selection', () => {
  it('keeps ranges: click, Shift+click from the anchor, Ctrl+click in and out, select all', () => {
    let selection = selectOnly(5)
    selection = selectRange(selection, 2)
    expect(selection.ranges).toEqual([[2, 5]])
    expect(selection.anchor).toBe(5)
    selection = toggleRow(selection, 3)
    expect(selection.ranges).toEqual([
      [2, 2],
      [4, 5],
    ])
    selection = toggleRow(selection, 9)
    selection = toggleRow(selection, 3)
    expect(selection.ranges).toEqual([
      [2, 5],
      [9, 9],
    ])
    expect(selectedCount(selection)).toBe(5)
    expect(isSelected(selection, 9)).toBe(true)
    expect(isSelected(selection, 8)).toBe(false)
    // A Shift+click after a Ctrl+click ranges from the row last clicked.
    expect(selectRange(selection, 7).ranges).toEqual([[3, 7]])
    const all = selectAll(NO_SELECTION, 1_000_000)
    expect(all.ranges).toEqual([[0, 999_999]])
    expect(selectedCount(all)).toBe(1_000_000)
    expect(selectedIndexes(all, 3)).toEqual([0, 1, 2])
    expect(selectAll(NO_SELECTION, 0)).toEqual(NO_SELECTION)
  })
})
