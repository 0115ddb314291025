import { afterEach, beforeEach } from 'vitest'
import { arrayRowSource } from '../../src/main/core/export/array-row-source'
import { writeExport } from '../../src/main/core/export/export-engine'
import type { ExportFormat, WriteExportResult } from '../../src/main/core/export/export-types'
import { ABOUT, TRICKY_COLUMNS, TRICKY_ROWS, tempFolder } from './export-fixtures'

/** A fresh temp folder for each test of the calling block, removed after the test. */
export function useTempFolder(): { readonly path: string; files: () => string[] } {
  let folder: ReturnType<typeof tempFolder> | undefined
  beforeEach(() => {
    folder = tempFolder()
  })
  afterEach(() => {
    folder?.remove()
    folder = undefined
  })
  const current = () => {
    if (folder === undefined) throw new Error('the temp folder exists only during a test')
    return folder
  }
  return {
    get path() {
      return current().path
    },
    files: () => current().files(),
  }
}

/** Exports the tricky rows and columns with the fixtures' About, read from the rows `batchSize` at a time. */
export function writeTrickyExport(
  filePath: string,
  format: ExportFormat,
  batchSize?: number,
): Promise<WriteExportResult> {
  return writeExport({
    source: arrayRowSource(TRICKY_ROWS, batchSize),
    columns: TRICKY_COLUMNS,
    about: ABOUT,
    filePath,
    format,
  })
}
