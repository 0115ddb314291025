import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { arrayRowSource } from '../../../../../src/main/core/export/array-row-source'
import { writeExport } from '../../../../../src/main/core/export/export-engine'
import { readCsv } from '../../../../helpers/xlsx-reader'
import {
  ABOUT,
  GENERATED_COLUMNS,
  TRICKY_COLUMNS,
  TRICKY_ROWS,
  generatedRow,
} from '../../../../helpers/export-fixtures'
import { useTempFolder, writeTrickyExport } from '../../../../helpers/export-test-setup'
import { expectedField } from '../../../../helpers/xlsx-expectations'

describe('CSV export read back with Python csv (strict)', () => {
  const folder = useTempFolder()

  it('writes UTF-8 with a BOM, CRLF records, RFC 4180 quoting and neutralised formulas', async () => {
    const filePath = join(folder.path, 'Employees 2026-11-22.csv')
    const result = await writeTrickyExport(filePath, 'csv', 2)
    expect(result).toEqual({ filePath, rows: TRICKY_ROWS.length, sheets: 1 })
    expect(folder.files()).toEqual(['Employees 2026-11-22.csv'])

    const bytes = readFileSync(filePath)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = bytes.toString('utf8')
    expect(
      text.startsWith(
        '\uFEFFUUID,First name,Last name,Status,Employee number,Hire date,Annual salary,Pay cycle,Note\r\n',
      ),
    ).toBe(true)
    expect(text.endsWith('\r\n')).toBe(true)
    // A quote inside a field is doubled, and the field is quoted.
    expect(text).toContain('"tab\tinside, ""quoted"" and comma"')

    const csv = await readCsv(filePath)
    expect(csv.bom).toBe(true)
    expect(csv.records[0]).toEqual(TRICKY_COLUMNS.map((column) => column.label))
    expect(csv.records.slice(1)).toEqual(
      TRICKY_ROWS.map((row) => TRICKY_COLUMNS.map((column) => expectedField(row[column.key], column.key))),
    )
    expect(csv.records.slice(1, 5).map((record) => record[8])).toEqual([
      "'=SUM(A1:A9)",
      "'+1234",
      "'-2+3+cmd|' /C calc'!A0",
      "'@SUM(1)",
    ])
    // Negative numbers are numbers, not formulas: no apostrophe.
    expect(csv.records[3]?.[6]).toBe('-1250.75')
  })

  it('keeps many rows in order in one file', async () => {
    const rows = Array.from({ length: 3000 }, (_, index) => generatedRow(index))
    const filePath = join(folder.path, 'volume.csv')
    const result = await writeExport({
      source: arrayRowSource(rows, 701),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath,
      format: 'csv',
      maxRowsPerSheet: 10,
    })
    expect(result).toMatchObject({ rows: 3000, sheets: 1 })
    const csv = await readCsv(filePath)
    expect(csv.records).toHaveLength(3001)
    expect(csv.records.slice(1)).toEqual(
      rows.map((row) => GENERATED_COLUMNS.map((column) => expectedField(row[column.key], column.key))),
    )
  })

  it('writes the header alone when nothing matches', async () => {
    const filePath = join(folder.path, 'empty.csv')
    await writeExport({
      source: arrayRowSource([]),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath,
      format: 'csv',
    })
    const csv = await readCsv(filePath)
    expect(csv.records).toEqual([GENERATED_COLUMNS.map((column) => column.label)])
  })
})
