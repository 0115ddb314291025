import { describe, expect, it } from 'vitest'
import {
  clipboardContent,
  copiedColumns,
  copyIsRecorded,
  tsvCell,
} from '../../../../../src/main/core/export/copy-rows'
import type { ColumnInfo, EmployeeRow } from '../../../../../src/shared/domain/rows'

const COLUMNS: ColumnInfo[] = [
  { key: 'lastName', label: 'Last name', kind: 'text', known: true },
  { key: 'employeeNumber', label: 'Employee number', kind: 'text', known: false, identifier: 'number' },
  { key: 'annualSalary', label: 'Annual salary', kind: 'number', known: false },
  { key: 'hireDate', label: 'Hire date', kind: 'date', known: false },
]

/** The cells of an HTML table as [attributes, text] per row, read back with the table's own grammar. */
function htmlRows(html: string): Array<Array<{ attrs: string; text: string }>> {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((tr) =>
    [...tr[1]!.matchAll(/<t[hd]([^>]*)>(.*?)<\/t[hd]>/g)].map((cell) => ({
      attrs: cell[1]!,
      text: cell[2]!,
    })),
  )
}

describe('what a copy puts on the clipboard', () => {
  it('writes values as saved, neutralised for pasting', () => {
    expect(tsvCell('a\tb\nc\r\nd')).toBe('a b c d')
    expect(tsvCell('=SUM(A1)')).toBe("'=SUM(A1)")
    expect(tsvCell('+44 20 7946 0000')).toBe("'+44 20 7946 0000")
    expect(tsvCell(58234.5)).toBe('58234.5')
    expect(tsvCell(-3)).toBe('-3')
    expect(tsvCell(null)).toBe('')
    expect(tsvCell(undefined)).toBe('')
    expect(tsvCell(['x', 1])).toBe('["x",1]')
  })

  it('gives whole rows as text with a header row and as an HTML table whose text cells keep their zeros', () => {
    const rows: EmployeeRow[] = [
      { lastName: 'Müller <b>', employeeNumber: '000042', annualSalary: 58234.5, hireDate: '2024-03-01' },
      { lastName: 'Ødegård', employeeNumber: '007', annualSalary: null },
    ]
    const { text, html } = clipboardContent(COLUMNS, rows, true)
    expect(text).toBe(
      'Last name\tEmployee number\tAnnual salary\tHire date\r\n' +
        'Müller <b>\t000042\t58234.5\t2024-03-01\r\nØdegård\t007\t\t\r\n',
    )
    const table = htmlRows(html)
    expect(html.startsWith('<table>') && html.endsWith('</table>')).toBe(true)
    expect(table.map((cells) => cells.map((cell) => cell.text))).toEqual([
      ['Last name', 'Employee number', 'Annual salary', 'Hire date'],
      ['Müller &lt;b&gt;', '000042', '58234.5', '2024-03-01'],
      ['Ødegård', '007', '', ''],
    ])
    // Text in Excel's text format (an employee number keeps its leading zeros); a number and a date stay plain.
    const textFormat = `style="mso-number-format:'\\@'"`
    expect(table[1]!.map((cell) => cell.attrs.trim())).toEqual([textFormat, textFormat, '', ''])
    expect(table[2]![2]!.attrs).toBe('')
  })

  it('gives one column without a header: a line per row, no line break after the last', () => {
    const rows = [{ employeeNumber: '0001' }, { employeeNumber: '0002' }]
    const { text, html } = clipboardContent([COLUMNS[1]!], rows, false)
    expect(text).toBe('0001\r\n0002')
    expect(htmlRows(html).map((cells) => cells.map((cell) => cell.text))).toEqual([['0001'], ['0002']])
  })

  it('takes the columns in the order asked, a field the data lost under its own label, and notes copies of 2+ rows', () => {
    expect(copiedColumns(['employeeNumber', 'lastName', 'costCentre'], COLUMNS)).toEqual([
      COLUMNS[1],
      COLUMNS[0],
      { key: 'costCentre', label: 'Cost centre', kind: 'text', known: false },
    ])
    expect([0, 1, 2, 10_000].map(copyIsRecorded)).toEqual([false, false, true, true])
  })
})
