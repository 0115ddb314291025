import type { AddWorksheetOptions, Style, Worksheet, stream } from 'exceljs'
import type { Writable } from 'node:stream'
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'
import type { EmployeeRow } from '../../../shared/domain/rows'
import { formatMoney } from '../../../shared/money'
import { aboutLines } from './about-lines'
import { cleanCellText, nestedValueText, parseIsoDate } from './cell-values'
import { ColumnWidths } from './column-widths'
import { MoneyColumns } from './money-columns'
import { columnLetter } from './column-letter'
import {
  abortZip,
  customPropertiesWritten,
  onZipError,
  rawRowSink,
  setSheetDefinedNames,
  workbookStyleId,
  zipBacklogBytes,
} from './exceljs-internals'
import type { RawRowSink, SheetDefinedName } from './exceljs-internals'
import type { LoadedExcelJs } from './exceljs-loader'
import type { SensitivityLabel } from '../policy/policy-schema'
import { labelNotWritten, labelledWriter } from './sensitivity-label'
import type { ExportAbout, ExportColumn } from './export-types'
import type { Checkpoint, FormatWriter } from './format-writer'
import { writeAboutSheet } from './xlsx-about-sheet'
import {
  DATE_STYLE,
  DATE_TIME_STYLE,
  DATE_TIME_UTC_STYLE,
  HEADER_STYLE,
  MONEY_STYLE,
  NUMBER_STYLE,
  TEXT_STYLE,
} from './xlsx-styles'
import { printTitlesRange, quotedSheetName, sheetHeaderFooter, sheetPageSetup } from './xlsx-print-setup'
import { RowXmlBuilder, isPlainXmlText } from './xlsx-row-xml'
import type { CellScalar } from './xlsx-row-xml'
import { Utf8Chunk } from './utf8-chunk'
import { fieldOf } from '../../../shared/row-field'

/** Rows per sheet in Excel and LibreOffice, the header included. */
export const EXCEL_MAX_ROWS = 1_048_576
export const DATA_SHEET_NAME = 'Employees'
export const ABOUT_SHEET_NAME = 'About this export'

/** Rows sampled to size the columns before the first row is written (exceljs writes widths before any row). */
const SAMPLE_ROWS = 1000
/**
 * Rendered XML between pauses (about 18 rows of 13 columns, a fraction of a millisecond). exceljs hands the zip
 * compressor 64 KiB chunks, and the compressor finishes at most one per event-loop turn (each is a round trip to
 * libuv's thread pool), so it must get several turns per chunk written to keep pace on a busy machine: with a
 * chunk per turn (or 100 rows, ~88 KiB, as before) it fell behind and the writer spent 15–20% of an export
 * waiting for it (measured at 100,000 rows: 350 ms with 64 KiB per turn, 150 ms with 32 KiB, 20–60 ms with 16).
 */
const XML_BYTES_PER_TURN = 16 * 1024
/** The rendered rows' buffer: a turn's XML and then any row of up to ~80,000 characters (longer ones go alone). */
const XML_CHUNK_CAPACITY = 256 * 1024
/** Rows between pauses when they go through exceljs's Row objects (the fallback: no byte count to go by). */
const ROWS_PER_TURN = 100
/**
 * Uncompressed XML allowed to wait for the compressor; beyond it the writer waits until it is below the low mark.
 * Kept small: a chunk that waits long outlives a young-generation collection or two, and its 64 KiB is then freed
 * only by a full collection, which V8 puts off until tens of MB of such buffers have built up. With 8 MiB the
 * CLI's export of 100,000 rows peaked at 215–265 MB; with 1 MiB at 175–190 MB, no slower.
 */
const ZIP_HIGH_WATER = 1024 * 1024
const ZIP_LOW_WATER = 512 * 1024

/** Excel refuses these characters in a sheet name, and names longer than 31 characters. */
const SHEET_NAME_FORBIDDEN = /[\\/?*[\]:]/g
const SHEET_NAME_MAX = 31

/**
 * What the data sheets are called: a roster's after its pay cycle ("Roster PC-2026-11-A"), so the tab says what
 * the file holds; any other export's "Employees". Room is left for the " (2)" of a roster spanning sheets.
 */
export function dataSheetBaseName(about: Pick<ExportAbout, 'kind' | 'payCycleId'>): string {
  if (about.kind !== 'roster' || about.payCycleId === undefined) return DATA_SHEET_NAME
  const name = `Roster ${about.payCycleId}`
    .replace(SHEET_NAME_FORBIDDEN, '-')
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .slice(0, SHEET_NAME_MAX - ' (99)'.length)
    .replace(/^'+|'+$/g, '')
    .trim()
  return name === '' || name.toLowerCase() === ABOUT_SHEET_NAME.toLowerCase() ? DATA_SHEET_NAME : name
}

/** The name of the n-th (1-based) data sheet: "Employees", "Employees (2)", ... */
export function dataSheetName(index: number, base: string = DATA_SHEET_NAME): string {
  return index === 1 ? base : `${base} (${index})`
}

export interface XlsxWriterOptions {
  readonly out: Writable
  /**
   * exceljs, loaded by the caller (exceljs-loader.ts). When its internals moved, the file is written through
   * exceljs's public API alone: Row objects, no sheet-local names.
   */
  readonly excel: LoadedExcelJs
  readonly columns: ReadonlyArray<ExportColumn>
  readonly about: ExportAbout
  /** Rows per sheet, header included. */
  readonly maxRowsPerSheet: number
  readonly checkpoint: Checkpoint
  /**
   * Render data rows directly (default) rather than through exceljs Row objects. Both produce the same cells;
   * the exceljs path is the fallback when its internals are not as expected, and tests compare the two.
   */
  readonly rawRows?: boolean
  /** The first data sheet's name; by default the export kind's (see dataSheetBaseName). */
  readonly sheetName?: string
  /** The organisation's sensitivity label, written as Office writes one (sensitivity-label.ts); absent: none. */
  readonly sensitivityLabel?: SensitivityLabel
}

/**
 * Writes an .xlsx with exceljs's streaming writer: a bold, frozen, filterable header on each data sheet,
 * typed cells (real dates, numbers, text that stays text), continuation sheets past the row limit and an
 * "About this export" sheet last. Data rows are rendered by RowXmlBuilder (see there for why); everything else
 * is exceljs's.
 */
export class XlsxWriter implements FormatWriter {
  private readonly workbook: stream.xlsx.WorkbookWriter
  /** Whether the internals exceljs-internals.ts reaches were found (else plain streaming). */
  private readonly internals: boolean
  // The current section's layout (nextSection replaces it): its columns, sheet name and per-column buffers.
  private columns: ReadonlyArray<ExportColumn> = []
  private sheetBase = DATA_SHEET_NAME
  private keys: ReadonlyArray<string> = []
  /** Which numbers are amounts of money (shared/money.ts), written with two decimals. */
  private money = new MoneyColumns([])
  private lastColumn = 'A'
  private values: Array<CellScalar | undefined> = []
  private styles: Array<Partial<Style> | undefined> = []
  /** Which text values need no cleaning, escaping or preserving (isPlainXmlText): the usual case, done once. */
  private plain: boolean[] = []
  private styleIds: number[] = []
  private rowXml = new RowXmlBuilder(0)
  /** Sheets and rows of the current section, and each finished section's name and rows (for the About sheet). */
  private sectionSheets = 0
  private sectionRows = 0
  private readonly sections: Array<{ readonly name: string; readonly rows: number }> = []
  private readonly dataRowsPerSheet: number
  /** Workbook style ids of the data-cell styles; null when rows must go through exceljs Row objects. */
  private readonly dataStyleIds: ReadonlyMap<Partial<Style>, number> | null
  private rawSink: RawRowSink | null = null
  /** Rendered rows not yet handed to the sheet's stream (one buffer reused for the whole file). */
  private readonly pendingXml = new Utf8Chunk(XML_CHUNK_CAPACITY)
  private readonly sheetNames: string[] = []
  private readonly sheetDefinedNames: SheetDefinedName[] = []
  /** Every sheet prints alike: landscape, one page wide, with the export's date and page numbers below. */
  private readonly printOptions: Partial<Pick<AddWorksheetOptions, 'pageSetup' | 'headerFooter'>>
  private sample: EmployeeRow[] | null = []
  private widths: number[] = []
  private sheet: Worksheet | undefined
  private sheetRows = 0
  private rows = 0
  private sinceTurn = 0
  private truncatedCells = 0
  private convertedTimes = false
  private zipFailure: unknown = undefined
  /** Rejects when the zip or the output stream fails, so finishing can never wait for a 'finish' that won't come. */
  private readonly failed: Promise<never>

  constructor(private readonly options: XlsxWriterOptions) {
    this.useSection(options.columns, options.sheetName ?? dataSheetBaseName(options.about))
    this.dataRowsPerSheet = options.maxRowsPerSheet - 1
    this.printOptions = { pageSetup: sheetPageSetup(), headerFooter: sheetHeaderFooter(options.about) }
    this.internals = options.excel.movedInternals.length === 0
    const label = options.sensitivityLabel
    // With a label, a writer that also writes it (or a refusal now, before any row).
    const Writer =
      label === undefined
        ? options.excel.WorkbookWriter
        : labelledWriter(options.excel, label, options.about.createdAt)
    this.workbook = new Writer({
      stream: options.out,
      // Styles are needed for the header and date formats. Shared strings would keep every distinct string in
      // memory until the end; inline strings keep memory flat however many rows there are.
      useStyles: true,
      useSharedStrings: false,
      // exceljs's default already, stated on purpose: level 1 is what lets compression keep pace with the rows.
      zip: { zlib: { level: 1 } },
    })
    this.workbook.creator = 'RosterDesk'
    this.workbook.lastModifiedBy = 'RosterDesk'
    this.workbook.created = options.about.createdAt
    this.workbook.modified = options.about.createdAt
    let fail: (error: unknown) => void = () => undefined
    this.failed = new Promise<never>((_resolve, reject) => {
      fail = reject
    })
    // Nobody awaits this until finish(); without a handler an early failure would be an unhandled rejection.
    this.failed.catch(() => undefined)
    onZipError(this.workbook, (error) => {
      if (this.zipFailure === undefined) this.zipFailure = error
      fail(error)
    })
    const out = options.out
    out.once('error', fail)
    out.once('close', () => {
      if (!out.writableFinished) fail(new Error('The export file was closed before it was complete.'))
    })
    this.dataStyleIds = options.rawRows === false || !this.internals ? null : this.registerDataStyles()
  }

  private registerDataStyles(): ReadonlyMap<Partial<Style>, number> | null {
    const ids = new Map<Partial<Style>, number>()
    for (const style of [
      TEXT_STYLE,
      NUMBER_STYLE,
      MONEY_STYLE,
      DATE_STYLE,
      DATE_TIME_STYLE,
      DATE_TIME_UTC_STYLE,
    ]) {
      const id = workbookStyleId(this.workbook, style)
      if (id === null) return null
      ids.set(style, id)
    }
    return ids
  }

  async writeBatch(rows: ReadonlyArray<EmployeeRow>): Promise<void> {
    if (this.sample !== null) {
      for (const row of rows) this.sample.push(row)
      if (this.sample.length >= SAMPLE_ROWS) await this.flushSample()
      return
    }
    await this.writeRows(rows)
  }

  /**
   * Ends the current section (its sheet is written even when it holds no rows, so every section has its tab) and
   * starts the next, with its own columns and sheet name.
   */
  async nextSection(section: {
    readonly columns: ReadonlyArray<ExportColumn>
    readonly sheetName?: string
  }): Promise<void> {
    await this.endSection()
    this.useSection(section.columns, section.sheetName ?? DATA_SHEET_NAME)
  }

  async finish(): Promise<{ readonly sheets: number }> {
    await this.endSection()
    this.writeAbout()
    if (this.internals) setSheetDefinedNames(this.workbook, this.sheetDefinedNames)
    this.checkpoint()
    await Promise.race([this.workbook.commit(), this.failed])
    this.checkpoint()
    const label = this.options.sensitivityLabel
    if (label !== undefined && !customPropertiesWritten(this.workbook))
      throw labelNotWritten(label, 'exceljs wrote its package parts otherwise than pinned')
    return { sheets: this.sheetNames.length }
  }

  abort(): void {
    abortZip(this.workbook)
  }

  private checkpoint(): void {
    if (this.zipFailure !== undefined) throw this.zipFailure
    this.options.checkpoint()
  }

  private useSection(columns: ReadonlyArray<ExportColumn>, sheetBase: string): void {
    this.columns = columns
    this.sheetBase = sheetBase
    this.keys = columns.map((column) => column.key)
    this.money = new MoneyColumns(columns)
    this.lastColumn = columnLetter(columns.length)
    this.values = new Array<CellScalar | undefined>(this.keys.length)
    this.styles = new Array<Partial<Style> | undefined>(this.keys.length)
    this.plain = new Array<boolean>(this.keys.length).fill(false)
    this.styleIds = new Array<number>(this.keys.length).fill(0)
    this.rowXml = new RowXmlBuilder(this.keys.length)
    this.sample = []
    this.widths = []
    this.sectionSheets = 0
    this.sectionRows = 0
  }

  private async endSection(): Promise<void> {
    if (this.sample !== null) await this.flushSample()
    if (this.sheet === undefined) this.openSheet()
    this.closeSheet()
    this.sections.push({ name: this.sheetBase, rows: this.sectionRows })
  }

  /** Sizes the columns from the rows held back so far, then writes them. */
  private async flushSample(): Promise<void> {
    const sample = this.sample ?? []
    this.sample = null
    const measure = new ColumnWidths(this.columns)
    const truncated = this.truncatedCells
    const converted = this.convertedTimes
    for (const row of sample) {
      this.convertRow(row)
      for (let index = 0; index < this.keys.length; index++) {
        const value = this.values[index]
        if (value === undefined) continue
        const style = this.styles[index]
        if (style === DATE_STYLE || style === DATE_TIME_STYLE || style === DATE_TIME_UTC_STYLE)
          measure.observeDate(index, style !== DATE_STYLE, style === DATE_TIME_UTC_STYLE)
        else if (typeof value === 'string') measure.observeText(index, value)
        else if (style === MONEY_STYLE) measure.observeChars(index, formatMoney(value as number).length)
        else measure.observeChars(index, String(value).length)
      }
    }
    this.widths = measure.widths()
    // The sample was converted to measure it; counting its truncations again when writing would double them.
    this.truncatedCells = truncated
    this.convertedTimes = converted
    await this.pause()
    await this.writeRows(sample)
  }

  private async writeRows(rows: ReadonlyArray<EmployeeRow>): Promise<void> {
    for (const source of rows) {
      if (this.sheet === undefined || this.sheetRows === this.dataRowsPerSheet) this.openSheet()
      this.convertRow(source)
      let turn: boolean
      if (this.rawSink !== null) {
        // A row written on its own is a turn's worth of XML by itself (tens of thousands of characters).
        const alone = this.appendRawRow(this.rawSink)
        turn = alone || this.pendingXml.size >= XML_BYTES_PER_TURN
      } else {
        this.addExcelJsRow(this.sheet as Worksheet)
        turn = ++this.sinceTurn >= ROWS_PER_TURN
      }
      this.sheetRows++
      this.sectionRows++
      this.rows++
      if (turn) {
        this.sinceTurn = 0
        this.flushRawRows()
        await this.pause()
      }
    }
  }

  /** Adds the row's XML to the chunk; true when it was too long for it and went to the sink on its own. */
  private appendRawRow(sink: RawRowSink): boolean {
    const ids = this.dataStyleIds as ReadonlyMap<Partial<Style>, number>
    for (let index = 0; index < this.keys.length; index++) {
      const style = this.styles[index]
      this.styleIds[index] = style === undefined ? 0 : (ids.get(style) ?? 0)
    }
    // Row 1 is the header: data row n of this sheet is spreadsheet row n + 1.
    const xml = this.rowXml.row(this.sheetRows + 2, this.values, this.styleIds, this.plain)
    if (this.pendingXml.append(xml)) return false
    this.flushRawRows()
    if (this.pendingXml.append(xml)) return false
    // A row too long for the chunk even when empty (cells of thousands of characters) goes as it is.
    sink.write(xml)
    return true
  }

  private flushRawRows(): void {
    if (this.pendingXml.size === 0 || this.rawSink === null) return
    // The sink copies the bytes before returning (exceljs-internals.ts), so the chunk's buffer is reused.
    this.rawSink.write(this.pendingXml.take())
  }

  private addExcelJsRow(sheet: Worksheet): void {
    const row = sheet.addRow([])
    for (let index = 0; index < this.keys.length; index++) {
      const value = this.values[index]
      if (value === undefined) continue
      const cell = row.getCell(index + 1)
      cell.value = value
      cell.style = this.styles[index] as Partial<Style>
    }
    row.commit()
  }

  /** Lets the event loop run (IPC, zlib callbacks) and waits while the compressor is far behind. */
  private async pause(): Promise<void> {
    await nextTurn()
    this.checkpoint()
    const sheet = this.sheet
    if (!this.internals || sheet === undefined || zipBacklogBytes(sheet) <= ZIP_HIGH_WATER) return
    do {
      await sleep(2)
      this.checkpoint()
    } while (zipBacklogBytes(sheet) > ZIP_LOW_WATER)
  }

  /** Fills `values` and `styles` for one row: the hot path of every export. */
  private convertRow(source: EmployeeRow): void {
    const keys = this.keys
    for (let index = 0; index < keys.length; index++) {
      const value = fieldOf(source, keys[index] as string)
      let cell: CellScalar | undefined
      let style: Partial<Style> | undefined
      let plain = false
      if (value === null || value === undefined) {
        cell = undefined
      } else if (typeof value === 'number') {
        if (Number.isFinite(value)) {
          cell = value
          style = this.money.isMoney(index, source) ? MONEY_STYLE : NUMBER_STYLE
        } else {
          cell = String(value)
          style = TEXT_STYLE
        }
      } else if (typeof value === 'string') {
        const date = parseIsoDate(value)
        if (date !== null) {
          cell = date.serial
          style = !date.hasTime ? DATE_STYLE : date.utc ? DATE_TIME_UTC_STYLE : DATE_TIME_STYLE
          if (date.convertedToUtc) this.convertedTimes = true
        } else if (isPlainXmlText(value)) {
          cell = value
          style = TEXT_STYLE
          plain = true
        } else {
          const cleaned = cleanCellText(value)
          if (cleaned.truncated) this.truncatedCells++
          cell = cleaned.text === '' ? undefined : cleaned.text
          style = TEXT_STYLE
        }
      } else if (typeof value === 'boolean') {
        cell = value
        style = NUMBER_STYLE
      } else {
        // Never hand exceljs an object: it reads {formula}, {hyperlink} or {richText} as instructions.
        const cleaned = cleanCellText(nestedValueText(value))
        if (cleaned.truncated) this.truncatedCells++
        cell = cleaned.text
        style = TEXT_STYLE
      }
      this.values[index] = cell
      this.styles[index] = style
      this.plain[index] = plain
    }
  }

  private openSheet(): void {
    if (this.sheet !== undefined) this.closeSheet()
    this.sectionSheets++
    const name = dataSheetName(this.sectionSheets, this.sheetBase)
    this.sheetNames.push(name)
    const sheet = this.workbook.addWorksheet(name, {
      views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
      ...this.printOptions,
    })
    if (this.widths.length === 0) this.widths = new ColumnWidths(this.columns).widths()
    sheet.columns = this.widths.map((width) => ({ width }))
    const header = sheet.addRow([])
    this.columns.forEach((column, index) => {
      const cell = header.getCell(index + 1)
      cell.value = cleanCellText(column.label).text
      cell.style = HEADER_STYLE
    })
    header.commit()
    this.sheet = sheet
    this.sheetRows = 0
    this.rawSink = this.dataStyleIds === null ? null : rawRowSink(sheet)
  }

  private closeSheet(): void {
    const sheet = this.sheet
    if (sheet === undefined) return
    this.flushRawRows()
    this.rawSink = null
    const lastRow = this.sheetRows + 1
    sheet.autoFilter = `A1:${this.lastColumn}${lastRow}`
    const sheetIndex = this.sheetNames.length - 1
    this.sheetDefinedNames.push(
      {
        name: '_xlnm._FilterDatabase',
        sheetIndex,
        range: `${quotedSheetName(sheet.name)}!$A$1:$${this.lastColumn}$${lastRow}`,
      },
      // The header row atop every printed page.
      { name: '_xlnm.Print_Titles', sheetIndex, range: printTitlesRange(sheet.name) },
    )
    sheet.commit()
    this.sheet = undefined
  }

  private writeAbout(): void {
    writeAboutSheet(
      this.workbook.addWorksheet(ABOUT_SHEET_NAME, this.printOptions),
      aboutLines(this.options.about, {
        rows: this.rows,
        columnLabels: this.columns.map((column) => column.label),
        sections: this.sections,
        sheetNames: this.sheetNames,
        rowsPerSheet: this.dataRowsPerSheet,
        truncatedCells: this.truncatedCells,
        convertedTimes: this.convertedTimes,
      }),
    )
  }
}
