import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadExcelJs } from '../../../src/main/core/export/exceljs-loader'
import { XlsxWriter } from '../../../src/main/core/export/xlsx-writer'
import { readXlsx } from '../../helpers/xlsx-reader'
import { ABOUT, TRICKY_COLUMNS, TRICKY_ROWS, tempFolder } from './export-fixtures'

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

  async function write(name: string, rawRows: boolean): Promise<string> {
    const filePath = join(folder.path, name)
    const out = createWriteStream(filePath)
    const closed = once(out, 'close')
    const writer = new XlsxWriter({
      out,
      excel: await loadExcelJs(),
      columns: TRICKY_COLUMNS,
      about: ABOUT,
      maxRowsPerSheet: 4,
      checkpoint: () => undefined,
      rawRows,
    })
    await writer.writeBatch(TRICKY_ROWS.slice(0, 5))
    await writer.writeBatch(TRICKY_ROWS.slice(5))
    expect(await writer.finish()).toEqual({ sheets: 3 })
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
})
