import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadExcelJs } from '../../../../../src/main/core/export/exceljs-loader'
import { XlsxWriter } from '../../../../../src/main/core/export/xlsx-writer'
import { readXlsx } from '../../../../helpers/xlsx-reader'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import {
  ABOUT,
  TRICKY_COLUMNS,
  TRICKY_ROWS,
  generatedRow,
  tempFolder,
} from '../../../../helpers/export-fixtures'

/**
 * Data rows are rendered by RosterDesk (fast path) unless exceljs's internals are not as expected, when they go
 * through exceljs's own Row objects. Both must give a reader exactly the same workbook.
 */
describe('XLSX data rows: fast path and exceljs path', () => {
  let folder: ReturnType<typeof tempFolder>
  beforeEach(() => {
    folder = tempFolder()
  })
  afterEach(() => folder.remove())

  async function write(
    name: string,
    rawRows: boolean,
    batches: ReadonlyArray<ReadonlyArray<EmployeeRow>> = [TRICKY_ROWS.slice(0, 5), TRICKY_ROWS.slice(5)],
    maxRowsPerSheet = 4,
  ): Promise<string> {
    const filePath = join(folder.path, name)
    const out = createWriteStream(filePath)
    const closed = once(out, 'close')
    const writer = new XlsxWriter({
      out,
      excel: await loadExcelJs(),
      columns: TRICKY_COLUMNS,
      about: ABOUT,
      maxRowsPerSheet,
      checkpoint: () => undefined,
      rawRows,
    })
    for (const batch of batches) await writer.writeBatch(batch)
    await writer.finish()
    await closed
    return filePath
  }

  it('reads back identically, sheet by sheet and cell by cell', async () => {
    const fast = await readXlsx(await write('fast.xlsx', true))
    const plain = await readXlsx(await write('exceljs.xlsx', false))
    expect(fast.sheetNames).toEqual(['Employees', 'Employees (2)', 'Employees (3)', 'About this export'])
    expect(fast.sheets.slice(0, 3)).toEqual(plain.sheets.slice(0, 3))
    expect(fast.definedNames).toEqual(plain.definedNames)
  })

  it('reads back identically over many chunks of XML, with a row too long for one written on its own', async () => {
    // ~2,000 rows are a few hundred KB of XML: many chunks through the one reused buffer, across two sheets.
    const rows = Array.from({ length: 2000 }, (_, index): EmployeeRow => ({
      ...generatedRow(index),
      note: `n${index}`,
    }))
    // Three cells of Excel's maximum in a 3-byte script: ~290 KB of UTF-8, more than the buffer holds at once.
    rows[1500] = {
      ...rows[1500],
      firstName: '李'.repeat(32_767),
      lastName: '小'.repeat(32_767),
      note: '龍'.repeat(32_767),
    }
    const batches = [rows.slice(0, 700), rows.slice(700, 1501), rows.slice(1501)]
    const fast = await readXlsx(await write('fast-many.xlsx', true, batches, 1200))
    const plain = await readXlsx(await write('exceljs-many.xlsx', false, batches, 1200))
    expect(fast.sheetNames).toEqual(['Employees', 'Employees (2)', 'About this export'])
    expect(fast.sheets[0]?.rows.length).toBe(1200)
    expect(fast.sheets[1]?.rows[1501 - 1199]?.[1]?.v).toBe('李'.repeat(32_767))
    expect(fast.sheets.slice(0, 2)).toEqual(plain.sheets.slice(0, 2))
  })

  it('pauses after every row too long for the chunk, so a cancel is seen and the zip keeps pace', async () => {
    const out = createWriteStream(join(folder.path, 'long-rows.xlsx'))
    const closed = once(out, 'close')
    let checkpoints = 0
    const writer = new XlsxWriter({
      out,
      excel: await loadExcelJs(),
      columns: TRICKY_COLUMNS,
      about: ABOUT,
      maxRowsPerSheet: 10_000,
      checkpoint: () => void checkpoints++,
      rawRows: true,
    })
    // Past the rows sampled for column widths, so the next batch is written as it comes.
    await writer.writeBatch(Array.from({ length: 1000 }, (_, index) => generatedRow(index)))
    checkpoints = 0
    // Each row's XML (~90,000 characters, the ampersands escaped) is longer than the chunk holds at once.
    const long = Array.from({ length: 20 }, (_, index): EmployeeRow => ({
      ...generatedRow(1000 + index),
      firstName: 'x'.repeat(30_000),
      note: 'R&D '.repeat(8_000),
    }))
    await writer.writeBatch(long)
    expect(checkpoints).toBeGreaterThanOrEqual(long.length)
    await writer.finish()
    await closed
  })
})
