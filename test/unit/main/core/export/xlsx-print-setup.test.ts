import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { arrayRowSource } from '../../../../../src/main/core/export/array-row-source'
import { writeExport } from '../../../../../src/main/core/export/export-engine'
import { footerText } from '../../../../../src/main/core/export/xlsx-print-setup'
import { readXlsx, sheetNamed } from '../../../../helpers/xlsx-reader'
import type { DumpedSheet } from '../../../../helpers/xlsx-reader'
import { ABOUT, GENERATED_COLUMNS, generatedRow } from '../../../../helpers/export-fixtures'
import { useTempFolder, writeTrickyExport } from '../../../../helpers/export-test-setup'

const run = promisify(execFile)

/** What every sheet of an export must say about printing, as openpyxl reads it. */
function expectPrintsTidily(sheet: DumpedSheet, titleRows: string | null): void {
  expect(sheet.print, sheet.name).toMatchObject({
    orientation: 'landscape',
    fitToPage: true,
    fitToWidth: 1,
    fitToHeight: 0,
    titleRows,
    oddFooter: {
      left: 'Exported 2026-11-22 10:45 (UTC+01:00, Europe/Berlin)',
      center: 'Page &P of &N',
      right: '&A',
    },
  })
}

describe('XLSX exports print tidily (read back with openpyxl)', () => {
  const folder = useTempFolder()

  it('sets landscape, one page wide, the header row on every page and a dated, numbered footer on every sheet', async () => {
    const filePath = join(folder.path, 'print.xlsx')
    await writeTrickyExport(filePath, 'xlsx')
    const book = await readXlsx(filePath)
    expectPrintsTidily(sheetNamed(book, 'Employees'), '$1:$1')
    // The About sheet has no header row to repeat, but prints like the rest.
    expectPrintsTidily(sheetNamed(book, 'About this export'), null)
    // Its label and value columns together fit a portrait page's width (about 100 characters).
    const about = sheetNamed(book, 'About this export').columnWidths
    expect((about['A'] ?? 0) + (about['B'] ?? 0)).toBeLessThanOrEqual(95)
    expect(about['A']).toBeGreaterThanOrEqual('Shortened cells'.length)

    // Written as SpreadsheetML says, read straight from the file.
    const xml = await sheetXml(filePath, 'xl/worksheets/sheet1.xml')
    expect(xml).toMatch(/<pageSetUpPr fitToPage="1"\/>/)
    expect(xml).toMatch(/<pageSetup [^>]*orientation="landscape"[^>]*fitToWidth="1" fitToHeight="0"/)
    expect(xml).toContain('<oddFooter>&amp;LExported 2026-11-22 10:45')
  })

  it('gives money columns two decimals and repeats headers on roster, change and continuation sheets', async () => {
    const filePath = join(folder.path, 'sections.xlsx')
    const rows = Array.from({ length: 5 }, (_, index) => generatedRow(index))
    await writeExport({
      sections: [
        { sheetName: "O'Brien's added", columns: GENERATED_COLUMNS, source: arrayRowSource(rows) },
        { sheetName: 'Removed', columns: GENERATED_COLUMNS, source: arrayRowSource(rows.slice(0, 2)) },
      ],
      about: { ...ABOUT, kind: 'changes' },
      filePath,
      format: 'xlsx',
      maxRowsPerSheet: 4,
    })
    const book = await readXlsx(filePath)
    expect(book.sheetNames).toEqual([
      "O'Brien's added",
      "O'Brien's added (2)",
      'Removed',
      'About this export',
    ])
    for (const sheet of book.sheets.slice(0, 3)) expectPrintsTidily(sheet, '$1:$1')
    // A quote in a sheet name is doubled in the print-titles formula, so the workbook stays valid.
    expect(book.definedNames.filter((name) => name.name === '_xlnm.Print_Titles')).toEqual([
      { name: '_xlnm.Print_Titles', localSheetId: 0, value: "'O''Brien''s added'!$1:$1" },
      { name: '_xlnm.Print_Titles', localSheetId: 1, value: "'O''Brien''s added (2)'!$1:$1" },
      { name: '_xlnm.Print_Titles', localSheetId: 2, value: "'Removed'!$1:$1" },
    ])
    const salaries = sheetNamed(book, "O'Brien's added")
      .rows.slice(1)
      .map((row) => row[6])
    expect(salaries.map((cell) => [cell?.t, cell?.v, cell?.fmt])).toEqual(
      rows.slice(0, 3).map((row) => ['n', row['annualSalary'], '#,##0.00']),
    )
    // A count is not money: no decimals.
    const rowCount = sheetNamed(book, 'About this export').rows.find((row) => row[0]?.v === 'Rows')
    expect(rowCount?.[1]?.fmt).toBe('#,##0')
  })

  it('escapes an ampersand in the footer so it is not read as a code', () => {
    expect(footerText('Smith & Co &P')).toBe('Smith && Co &&P')
  })
})

/** One part of the .xlsx package as text. */
async function sheetXml(file: string, part: string): Promise<string> {
  return (await run('/usr/bin/unzip', ['-p', file, part], { maxBuffer: 64 * 1024 * 1024 })).stdout
}
