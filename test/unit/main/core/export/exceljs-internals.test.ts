import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readXlsx } from '../../../../helpers/xlsx-reader'
import { tempFolder } from '../../../../helpers/export-fixtures'
import {
  canMeasureZipBacklog,
  rawRowSink,
  setSheetDefinedNames,
  workbookStyleId,
  zipBacklogBytes,
} from '../../../../../src/main/core/export/exceljs-internals'

/**
 * Pins the exceljs 4.4 internals the export relies on. If an upgrade moves them the export still writes correct
 * files, but memory is no longer bounded and LibreOffice loses the filter buttons: this test says so first.
 */
describe('exceljs internals used by the export', () => {
  it('exposes the worksheet queue the back-pressure reads, and the defined-name model', async () => {
    const out = new PassThrough()
    const chunks: Buffer[] = []
    out.on('data', (chunk: Buffer) => chunks.push(chunk))
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true })
    const style = Object.freeze({ numFmt: '@' })
    const id = workbookStyleId(workbook, style)
    expect(id).toBeGreaterThan(0)
    // Registering the same object again finds the same style (exceljs caches by identity).
    expect(workbookStyleId(workbook, style)).toBe(id)
    const sheet = workbook.addWorksheet('Employees')
    expect(canMeasureZipBacklog(sheet)).toBe(true)
    // No sink until exceljs has opened the sheet's data with a committed row.
    expect(rawRowSink(sheet)).toBeNull()
    sheet.addRow(['header']).commit()
    const sink = rawRowSink(sheet)
    expect(sink).not.toBeNull()
    sink?.write('<row r="2"><c r="A2" t="inlineStr"><is><t>raw</t></is></c></row>')
    for (let index = 0; index < 3000; index++) {
      sink?.write(`<row r="${index + 3}"><c r="A${index + 3}"><v>${index}</v></c></row>`)
    }
    // Nothing has had an event-loop turn to compress yet, so the XML is queued.
    expect(zipBacklogBytes(sheet)).toBeGreaterThan(100_000)
    sheet.commit()
    expect(
      setSheetDefinedNames(workbook, [
        { name: '_xlnm._FilterDatabase', sheetIndex: 0, range: "'Employees'!$A$1:$C$3000" },
        { name: '_xlnm.Print_Titles', sheetIndex: 0, range: "'Employees'!$1:$1" },
      ]),
    ).toBe(true)
    await workbook.commit()
    expect(Buffer.concat(chunks).subarray(0, 2).toString()).toBe('PK')
  })

  it('copies the bytes a sink is given before returning, so the writer may reuse its buffer', async () => {
    const folder = tempFolder()
    try {
      const file = join(folder.path, 'reuse.xlsx')
      const out = createWriteStream(file)
      const closed = once(out, 'close')
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true })
      const sheet = workbook.addWorksheet('Employees')
      sheet.addRow(['header']).commit()
      const stream = (sheet as unknown as { stream: { batch: boolean } }).stream
      // Not in batch mode, the stream would pipe the caller's buffer on as it is: refused.
      stream.batch = false
      expect(rawRowSink(sheet)).toBeNull()
      stream.batch = true
      const sink = rawRowSink(sheet)
      expect(sink).not.toBeNull()
      // One buffer, overwritten after each write: rows 2..201 must each keep their own text.
      const reused = Buffer.alloc(128)
      for (let row = 2; row <= 201; row++) {
        reused.fill(0x20)
        const length = reused.write(`<row r="${row}"><c r="A${row}"><v>${row * 10}</v></c></row>`)
        sink?.write(reused.subarray(0, length))
      }
      reused.fill(0x20)
      sheet.commit()
      await workbook.commit()
      await closed
      const [employees] = (await readXlsx(file)).sheets
      expect(employees?.rows.map((row) => row[0]?.v)).toEqual([
        'header',
        ...Array.from({ length: 200 }, (_, index) => (index + 2) * 10),
      ])
    } finally {
      folder.remove()
    }
  })
})
