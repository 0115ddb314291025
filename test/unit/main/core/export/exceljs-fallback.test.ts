import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  loadExcelJs,
  resetExcelJsForTests,
  type ExcelJsModules,
  type LoadedExcelJs,
  type WorkbookWriterClass,
} from '../../../../../src/main/core/export/exceljs-loader'
import { XlsxWriter } from '../../../../../src/main/core/export/xlsx-writer'
import { readXlsx } from '../../../../helpers/xlsx-reader'
import { ABOUT, TRICKY_COLUMNS, TRICKY_ROWS, tempFolder } from '../../../../helpers/export-fixtures'

/**
 * exceljs's internals as an upgrade might leave them: the real writer, but the workbook's zip and defined names and
 * each worksheet's stream no longer where exceljs-internals.ts looks (hidden from outside; exceljs's own methods
 * still see them, so the files it writes stay correct).
 */
function movedWorkbookWriter(): WorkbookWriterClass {
  const hide = <T extends object>(target: T, hidden: ReadonlySet<PropertyKey>): T =>
    new Proxy(target, {
      get(object, property) {
        if (hidden.has(property)) return undefined
        const value: unknown = Reflect.get(object, property, object)
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value
      },
      set: (object, property, value) => Reflect.set(object, property, value, object),
    })
  function Moved(options: ConstructorParameters<WorkbookWriterClass>[0]): object {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter(options)
    const addWorksheet = workbook.addWorksheet.bind(workbook)
    workbook.addWorksheet = (...args: Parameters<typeof addWorksheet>) =>
      hide(addWorksheet(...args), new Set(['stream', 'startedData']))
    return hide(workbook, new Set(['zip', '_definedNames']))
  }
  Moved.prototype = ExcelJS.stream.xlsx.WorkbookWriter.prototype
  return Moved as unknown as WorkbookWriterClass
}

function recordingLogger(): { warn: (message: string) => void; warnings: string[] } {
  const warnings: string[] = []
  return { warnings, warn: (message) => void warnings.push(message) }
}

describe('exceljs internals moved', () => {
  let folder: ReturnType<typeof tempFolder>
  beforeEach(() => {
    folder = tempFolder()
    resetExcelJsForTests()
  })
  afterEach(() => {
    folder.remove()
    resetExcelJsForTests()
  })

  it('finds every internal in the pinned exceljs, loading its streaming writer alone', async () => {
    const logger = recordingLogger()
    const loaded = await loadExcelJs(logger)
    expect(loaded.movedInternals).toEqual([])
    expect(loaded.WorkbookWriter).toBe(ExcelJS.stream.xlsx.WorkbookWriter)
    expect(logger.warnings).toEqual([])
  })

  it('logs one warning naming what moved, and falls back to the package entry when the writer file moved', async () => {
    const modules: ExcelJsModules = {
      writerModule: () => Promise.reject(new Error('Cannot find module')),
      packageModule: () => Promise.resolve({ stream: { xlsx: { WorkbookWriter: movedWorkbookWriter() } } }),
    }
    const logger = recordingLogger()
    const loaded = await loadExcelJs(logger, modules)
    expect(loaded.movedInternals).toEqual([
      'lib/stream/xlsx/workbook-writer',
      'workbook zip',
      'worksheet stream queues',
      'worksheet data stream',
      'workbook defined names',
      // The zip hidden, a sensitivity label has nowhere to go: a labelled export is refused.
      'package relationships and content types',
    ])
    // Loaded once per process: later exports neither reload nor warn again.
    expect(await loadExcelJs(logger)).toBe(loaded)
    expect(logger.warnings).toHaveLength(1)
    expect(logger.warnings[0]).toMatch(/plain streaming/)
    expect(logger.warnings[0]).toMatch(/worksheet data stream/)
  })

  it('writes the same cells through plain streaming, without the sheet-local names', async () => {
    async function write(name: string, excel: LoadedExcelJs): Promise<string> {
      const filePath = join(folder.path, name)
      const out = createWriteStream(filePath)
      const closed = once(out, 'close')
      const writer = new XlsxWriter({
        out,
        excel,
        columns: TRICKY_COLUMNS,
        about: ABOUT,
        maxRowsPerSheet: 4,
        checkpoint: () => undefined,
      })
      await writer.writeBatch(TRICKY_ROWS)
      expect(await writer.finish()).toEqual({ sheets: 3 })
      await closed
      return filePath
    }
    const pinned = await loadExcelJs()
    resetExcelJsForTests()
    const moved = await loadExcelJs(undefined, {
      writerModule: () => Promise.resolve({ default: movedWorkbookWriter() }),
      packageModule: () => Promise.reject(new Error('not needed')),
    })
    expect(moved.movedInternals.length).toBeGreaterThan(0)
    const fast = await readXlsx(await write('fast.xlsx', pinned))
    const plain = await readXlsx(await write('plain.xlsx', moved))
    expect(plain.sheetNames).toEqual(fast.sheetNames)
    // Every cell, style, width, filter and page setup alike; only the repeated print header (a sheet-local name)
    // is lost.
    const withoutTitleRows = (sheets: typeof fast.sheets) =>
      sheets.map((sheet) => ({ ...sheet, print: { ...sheet.print, titleRows: null } }))
    expect(withoutTitleRows(plain.sheets)).toEqual(withoutTitleRows(fast.sheets))
    expect(fast.sheets[0]?.print.titleRows).toBe('$1:$1')
    expect(fast.definedNames.length).toBeGreaterThan(0)
    expect(plain.definedNames).toEqual([])
  })
})
