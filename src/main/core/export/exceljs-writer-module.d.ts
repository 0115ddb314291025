/**
 * exceljs's own file for its streaming workbook writer (exceljs 4.4, pinned exactly). exceljs-loader.ts loads it
 * alone, rather than the package entry, and checks its shape at run time.
 */
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type { stream } from 'exceljs'

  const WorkbookWriter: typeof stream.xlsx.WorkbookWriter
  export = WorkbookWriter
}
