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
import { copiedColumns, toLines, toTsv, tsvCell } from '../../src/renderer/src/data/tsv'

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

describe('tab-separated copies', () => {
  it('writes values as saved, neutralised for pasting', () => {
    expect(tsvCell('a\tb\nc\r\nd')).toBe('a b c d')
    expect(tsvCell('=SUM(A1)')).toBe("'=SUM(A1)")
    expect(tsvCell('+44 20 7946 0000')).toBe("'+44 20 7946 0000")
    expect(tsvCell(58234.5)).toBe('58234.5')
    expect(tsvCell(-3)).toBe('-3')
    expect(tsvCell(null)).toBe('')
    expect(tsvCell(undefined)).toBe('')
    expect(tsvCell(['x', 1])).toBe('["x",1]')
    const columns = [
      { key: 'lastName', label: 'Last name', kind: 'text' as const, known: true },
      { key: 'employeeNumber', label: 'Employee number', kind: 'text' as const, known: false },
    ]
    expect(toTsv(columns, [{ lastName: 'Müller', employeeNumber: '000042' }])).toBe(
      'Last name\tEmployee number\r\nMüller\t000042\r\n',
    )
    expect(toLines('employeeNumber', [{ employeeNumber: '1' }, { employeeNumber: '2' }])).toBe('1\r\n2')
  })

  it('copies a sensitive column only where the policy lets it leave and it is not masked (issue 34, point 2)', () => {
    const column = (key: string) => ({ key, label: key, kind: 'text' as const, known: false })
    const columns = ['lastName', 'annualSalary', 'iban'].map(column)
    const keys = (rules: { sensitiveColumns?: 'include' | 'exclude' | 'ask' }, masked: string[] = []) =>
      copiedColumns(columns, rules, (key) => masked.includes(key)).map((each) => each.key)
    expect(keys({})).toEqual(['lastName', 'annualSalary', 'iban'])
    expect(keys({ sensitiveColumns: 'include' }, ['iban'])).toEqual(['lastName', 'annualSalary'])
    // A copy asks nothing: under ask, as under exclude, they stay.
    expect(keys({ sensitiveColumns: 'ask' })).toEqual(['lastName'])
    expect(keys({ sensitiveColumns: 'exclude' })).toEqual(['lastName'])
  })
})
