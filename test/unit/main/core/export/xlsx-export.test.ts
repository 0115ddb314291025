import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { arrayRowSource } from '../../../../../src/main/core/export/array-row-source'
import { writeExport } from '../../../../../src/main/core/export/export-engine'
import type { DumpedSheet } from '../../../../helpers/xlsx-reader'
import { aboutCells, readXlsx, sheetNamed } from '../../../../helpers/xlsx-reader'
import {
  ABOUT,
  GENERATED_COLUMNS,
  TRICKY_COLUMNS,
  TRICKY_ROWS,
  generatedRow,
} from '../../../../helpers/export-fixtures'
import { useTempFolder, writeTrickyExport } from '../../../../helpers/export-test-setup'
import { expectDataRows } from '../../../../helpers/xlsx-expectations'

describe('XLSX export read back with openpyxl', () => {
  const folder = useTempFolder()

  it('writes every row and column exactly, with typed cells and formula-looking text kept as text', async () => {
    const filePath = join(folder.path, 'Employees 2026-11-22.xlsx')
    const result = await writeTrickyExport(filePath, 'xlsx', 3)
    expect(result).toEqual({ filePath, rows: TRICKY_ROWS.length, sheets: 1 })
    expect(folder.files()).toEqual(['Employees 2026-11-22.xlsx'])

    const book = await readXlsx(filePath)
    expect(book.sheetNames).toEqual(['Employees', 'About this export'])
    const sheet = sheetNamed(book, 'Employees')
    expect(sheet.rows[0]?.map((cell) => cell?.v)).toEqual(TRICKY_COLUMNS.map((column) => column.label))
    expect(sheet.rows[0]?.every((cell) => cell?.bold === true)).toBe(true)
    expect(sheet.rows[1]?.some((cell) => cell?.bold === true)).toBe(false)
    expectDataRows(sheet, TRICKY_ROWS, TRICKY_COLUMNS)

    // Never a formula anywhere, although four notes start with =, +, - and @.
    for (const each of book.sheets) {
      for (const row of each.rows) for (const cell of row) expect(cell?.t).not.toBe('f')
    }
    expect(sheet.rows.slice(1, 5).map((row) => row[8]?.v)).toEqual([
      '=SUM(A1:A9)',
      '+1234',
      "-2+3+cmd|' /C calc'!A0",
      '@SUM(1)',
    ])
    // Identifiers keep their zeros and digits as text.
    expect(sheet.rows.slice(1, 8).map((row) => row[4]?.v)).toEqual([
      '0004711',
      '+44 20 7946 0958',
      '12345678901234567890',
      '000',
      '007',
      '42',
      '0',
    ])
  })

  it('freezes and filters the header, names the filter range for LibreOffice and sizes the columns', async () => {
    const filePath = join(folder.path, 'view.xlsx')
    await writeTrickyExport(filePath, 'xlsx')
    const book = await readXlsx(filePath)
    const sheet = sheetNamed(book, 'Employees')
    expect(sheet.freezePanes).toBe('A2')
    expect(sheet.autoFilter).toBe('A1:I9')
    expect(book.definedNames).toEqual([
      { name: '_xlnm._FilterDatabase', localSheetId: 0, value: "'Employees'!$A$1:$I$9" },
      { name: '_xlnm.Print_Titles', localSheetId: 0, value: "'Employees'!$1:$1" },
    ])
    const widths = sheet.columnWidths
    expect(widths['A']).toBeGreaterThanOrEqual(36)
    for (const width of Object.values(widths)) {
      expect(width).toBeGreaterThanOrEqual(6)
      expect(width).toBeLessThanOrEqual(60)
    }
  })

  it('describes the export on an About sheet', async () => {
    const filePath = join(folder.path, 'about.xlsx')
    await writeTrickyExport(filePath, 'xlsx')
    const about = aboutCells(await readXlsx(filePath))
    const text = (label: string): unknown => about.get(label)?.v
    expect(text('Export')).toBe('Employee list, as filtered in RosterDesk')
    expect(text('Environment')).toBe('Staging')
    expect(text('Tenant')).toBe('tenant-acme')
    expect(text('Pay cycles')).toBe('PC-2026-11-A')
    expect(text('Statuses')).toBe('Active, On leave')
    expect(text('Search')).toBe('"smi" in Last name')
    expect(text('Sorted by')).toBe('Hire date, descending')
    expect(text('Columns')).toBe(TRICKY_COLUMNS.map((column) => column.label).join(', '))
    expect(about.get('Rows')).toMatchObject({ t: 'n', v: TRICKY_ROWS.length })
    // Times are text that carries its zone: the wall-clock time in the clerk's zone, its offset and its name.
    expect(about.get('Data synced')).toMatchObject({
      t: 's',
      isDate: false,
      v: '2026-11-21 09:30 (UTC+01:00, Europe/Berlin)',
    })
    expect(about.get('File made')).toMatchObject({
      t: 's',
      isDate: false,
      v: '2026-11-22 10:45 (UTC+01:00, Europe/Berlin)',
    })
    expect(text('Made with')).toBe('RosterDesk 0.1.0')
    expect(text('Times')).toBe(
      'Date-times the service sent with a time zone are shown in UTC, marked UTC in their cells.',
    )
    expect(about.has('Sheets')).toBe(false)
    expect(about.has('Shortened cells')).toBe(false)
  })

  it('says what a roster is and when the cache was never synced', async () => {
    const filePath = join(folder.path, 'roster.xlsx')
    await writeExport({
      source: arrayRowSource([]),
      columns: GENERATED_COLUMNS,
      about: {
        kind: 'roster',
        payCycleId: 'PC-2026-11-A',
        environment: 'demo',
        tenantId: '',
        syncedAt: null,
        createdAt: ABOUT.createdAt,
      },
      filePath,
      format: 'xlsx',
    })
    const book = await readXlsx(filePath)
    // A roster's tab is named for its pay cycle.
    expect(book.sheetNames).toEqual(['Roster PC-2026-11-A', 'About this export'])
    const sheet = sheetNamed(book, 'Roster PC-2026-11-A')
    expect(sheet.rows).toHaveLength(1)
    expect(sheet.autoFilter).toBe('A1:H1')
    const about = aboutCells(book)
    expect(about.get('Export')?.v).toBe('Roster of pay cycle PC-2026-11-A')
    expect(about.get('Pay cycle')?.v).toBe('PC-2026-11-A')
    expect(about.get('Environment')?.v).toBe('Demo (sample data)')
    expect(about.get('Tenant')?.v).toBe('(none)')
    expect(about.get('Data synced')?.v).toBe('Never synced')
    expect(about.get('Search')?.v).toBe('None')
    expect(about.get('Rows')?.v).toBe(0)
  })

  it('continues on further sheets, each with its header, when a sheet is full', async () => {
    const rows = Array.from({ length: 10 }, (_, index) => generatedRow(index))
    const filePath = join(folder.path, 'split.xlsx')
    const result = await writeExport({
      source: arrayRowSource(rows, 4),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath,
      format: 'xlsx',
      maxRowsPerSheet: 4,
    })
    expect(result.sheets).toBe(4)
    const book = await readXlsx(filePath)
    expect(book.sheetNames).toEqual([
      'Employees',
      'Employees (2)',
      'Employees (3)',
      'Employees (4)',
      'About this export',
    ])
    const parts = [rows.slice(0, 3), rows.slice(3, 6), rows.slice(6, 9), rows.slice(9)]
    parts.forEach((part, index) => {
      const sheet = book.sheets[index] as DumpedSheet
      expect(sheet.rows[0]?.map((cell) => cell?.v)).toEqual(GENERATED_COLUMNS.map((column) => column.label))
      expect(sheet.freezePanes).toBe('A2')
      expect(sheet.autoFilter).toBe(`A1:H${part.length + 1}`)
      expectDataRows(sheet, part, GENERATED_COLUMNS)
    })
    expect(
      book.definedNames
        .filter((name) => name.name === '_xlnm._FilterDatabase')
        .map((name) => [name.localSheetId, name.value]),
    ).toEqual([
      [0, "'Employees'!$A$1:$H$4"],
      [1, "'Employees (2)'!$A$1:$H$4"],
      [2, "'Employees (3)'!$A$1:$H$4"],
      [3, "'Employees (4)'!$A$1:$H$2"],
    ])
    // Each continuation sheet repeats its own header on every printed page.
    expect(book.sheets.slice(0, 4).map((each) => each.print.titleRows)).toEqual([
      '$1:$1',
      '$1:$1',
      '$1:$1',
      '$1:$1',
    ])
    const about = aboutCells(book)
    expect(about.get('Rows')?.v).toBe(10)
    expect(about.get('Sheets')?.v).toBe(
      'Employees, Employees (2), Employees (3), Employees (4) (at most 3 rows each)',
    )
  })

  it('keeps 2,500 rows in order and intact across many batches', async () => {
    const rows = Array.from({ length: 2500 }, (_, index) => generatedRow(index))
    const filePath = join(folder.path, 'volume.xlsx')
    const result = await writeExport({
      source: arrayRowSource(rows, 333),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath,
      format: 'xlsx',
    })
    expect(result.rows).toBe(2500)
    expectDataRows(sheetNamed(await readXlsx(filePath), 'Employees'), rows, GENERATED_COLUMNS)
  })

  it("cuts text beyond Excel's 32,767 characters without splitting a character, and says so", async () => {
    const long = `${'x'.repeat(32_766)}🙂 and more`
    const filePath = join(folder.path, 'long.xlsx')
    await writeExport({
      source: arrayRowSource([{ UUID: 'u-1', firstName: long }]),
      columns: [
        { key: 'UUID', label: 'UUID', kind: 'text' },
        { key: 'firstName', label: 'First name', kind: 'text' },
      ],
      about: ABOUT,
      filePath,
      format: 'xlsx',
    })
    const book = await readXlsx(filePath)
    const cell = sheetNamed(book, 'Employees').rows[1]?.[1]
    expect(cell?.v).toBe('x'.repeat(32_766))
    expect(aboutCells(book).get('Shortened cells')?.v).toMatch(/^1 cell/)
  })
})
