import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { z } from 'zod'

/**
 * Reads export files back with readers the project did not write: Python's openpyxl (Debian's python3-openpyxl)
 * for .xlsx and Python's csv module for .csv. Neither is exceljs, so a passing test means the file is what
 * another program sees, not what our own library believes it wrote.
 */

const run = promisify(execFile)
export const PYTHON = '/usr/bin/python3'
const XLSX_DUMP = join(__dirname, 'xlsx-dump.py')
const CSV_DUMP = join(__dirname, 'csv-dump.py')

const cellSchema = z.object({
  v: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  /** openpyxl's data_type: 's' text, 'n' number, 'd' date, 'b' boolean, 'f' formula, 'e' error. */
  t: z.string(),
  isDate: z.boolean(),
  fmt: z.string(),
  bold: z.boolean(),
})
export type DumpedCell = z.infer<typeof cellSchema>

const sheetSchema = z.object({
  name: z.string(),
  /** How the sheet prints: openpyxl's page_setup, pageSetUpPr.fitToPage, print_title_rows and oddFooter. */
  print: z.object({
    orientation: z.string().nullable(),
    fitToPage: z.boolean(),
    fitToWidth: z.number().nullable(),
    fitToHeight: z.number().nullable(),
    /** e.g. "$1:$1": the rows repeated atop every printed page. */
    titleRows: z.string().nullable(),
    oddFooter: z.object({
      left: z.string().nullable(),
      center: z.string().nullable(),
      right: z.string().nullable(),
    }),
  }),
  maxRow: z.number(),
  maxColumn: z.number(),
  freezePanes: z.string().nullable(),
  autoFilter: z.string().nullable(),
  columnWidths: z.record(z.string(), z.number()),
  rows: z.array(z.array(cellSchema.nullable())),
})
export type DumpedSheet = z.infer<typeof sheetSchema>

const workbookSchema = z.object({
  openpyxl: z.string(),
  sheetNames: z.array(z.string()),
  definedNames: z.array(
    z.object({ name: z.string(), localSheetId: z.number().nullable(), value: z.string() }),
  ),
  /** The package's custom file properties part (a sensitivity label's), read by zipfile and ElementTree; null: none. */
  customProperties: z
    .object({
      part: z.string(),
      contentType: z.string().nullable(),
      /** How many package relationships name a custom properties part (Office reads one). */
      relationships: z.number(),
      properties: z.array(
        z.object({ name: z.string(), pid: z.number(), fmtid: z.string(), value: z.string().nullable() }),
      ),
    })
    .nullable(),
  sheets: z.array(sheetSchema),
})
export type DumpedWorkbook = z.infer<typeof workbookSchema>

const csvSchema = z.object({ bom: z.boolean(), records: z.array(z.array(z.string())) })
export type DumpedCsv = z.infer<typeof csvSchema>

/** Fails with a message that says what to install, never skips: an export test without its reader proves nothing. */
async function python(script: string, file: string): Promise<string> {
  if (!existsSync(PYTHON))
    throw new Error(`${PYTHON} is missing: install Debian's python3 and python3-openpyxl.`)
  try {
    await run(PYTHON, ['-c', 'import openpyxl'])
  } catch {
    throw new Error(
      `Python's openpyxl is missing: install Debian's python3-openpyxl (apt-get install python3-openpyxl).`,
    )
  }
  const { stdout } = await run(PYTHON, [script, file], { maxBuffer: 512 * 1024 * 1024 })
  return stdout
}

/** Every sheet of an .xlsx as openpyxl reads it. */
export async function readXlsx(file: string): Promise<DumpedWorkbook> {
  return workbookSchema.parse(JSON.parse(await python(XLSX_DUMP, file)))
}

/** The records of a .csv as Python's csv module (strict) reads them, and whether it starts with a UTF-8 BOM. */
export async function readCsv(file: string): Promise<DumpedCsv> {
  return csvSchema.parse(JSON.parse(await python(CSV_DUMP, file)))
}

/** One sheet by name, or a failed expectation naming the sheets there are. */
export function sheetNamed(workbook: DumpedWorkbook, name: string): DumpedSheet {
  const sheet = workbook.sheets.find((candidate) => candidate.name === name)
  if (sheet === undefined)
    throw new Error(`No sheet "${name}"; the file has ${workbook.sheetNames.join(', ')}`)
  return sheet
}

/** The About sheet as label → cell. */
export function aboutCells(workbook: DumpedWorkbook): Map<string, DumpedCell> {
  const about = sheetNamed(workbook, 'About this export')
  const lines = new Map<string, DumpedCell>()
  for (const row of about.rows) {
    const label = row[0]
    const value = row[1]
    if (
      label !== null &&
      label !== undefined &&
      typeof label.v === 'string' &&
      value !== null &&
      value !== undefined
    ) {
      lines.set(label.v, value)
    }
  }
  return lines
}
