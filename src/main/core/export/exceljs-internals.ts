import type { Worksheet, stream } from 'exceljs'

/**
 * The places RosterDesk reaches past exceljs 4.4's public API, kept in one file and shape-checked at run time:
 * exceljs-loader.ts probes them all once per thread that loads exceljs and, if an exceljs upgrade moved any, logs
 * a warning and has every export use exceljs's plain streaming API (the file stays correct: rows go through
 * exceljs's own Row objects, memory is less bounded, LibreOffice loses its filter buttons, printed pages their
 * repeated header).
 * Each function also degrades on its own, and test/unit/main/core/export/exceljs-internals.test.ts fails first.
 */

type WorkbookWriter = stream.xlsx.WorkbookWriter

interface QueueState {
  readonly length?: unknown
}
interface PipedStream {
  readonly _writableState?: QueueState
  readonly _readableState?: QueueState
}
interface SheetStream {
  readonly buffers?: unknown
  readonly bufSize?: unknown
  readonly pipes?: unknown
}
interface ZipArchive {
  on(event: 'error', listener: (error: unknown) => void): unknown
  abort(): unknown
}

function queued(state: QueueState | undefined): number {
  return typeof state?.length === 'number' ? state.length : 0
}

/**
 * Bytes of worksheet XML written but not yet compressed. exceljs pushes each sheet's XML into the zip
 * compressor without honouring back-pressure, and zlib finishes one 64 KiB chunk per event-loop turn; a
 * writer that never waits holds the whole uncompressed sheet in memory (about 380 MB per million rows).
 * The export waits while this is high.
 */
export function zipBacklogBytes(worksheet: Worksheet): number {
  const sheetStream = (worksheet as unknown as { stream?: SheetStream }).stream
  if (sheetStream === undefined) return 0
  let bytes = 0
  // Chunks not yet handed to the compressor (all of them while the zip is still busy with an earlier sheet).
  if (Array.isArray(sheetStream.buffers) && typeof sheetStream.bufSize === 'number') {
    bytes += sheetStream.buffers.length * sheetStream.bufSize
  }
  if (Array.isArray(sheetStream.pipes)) {
    for (const pipe of sheetStream.pipes as PipedStream[]) {
      bytes += queued(pipe._writableState) + queued(pipe._readableState)
    }
  }
  return bytes
}

/** Whether `zipBacklogBytes` can see exceljs's queues (pinned by a unit test so an upgrade cannot hide it). */
export function canMeasureZipBacklog(worksheet: Worksheet): boolean {
  const sheetStream = (worksheet as unknown as { stream?: SheetStream }).stream
  return (
    Array.isArray(sheetStream?.buffers) &&
    typeof sheetStream?.bufSize === 'number' &&
    Array.isArray(sheetStream?.pipes)
  )
}

function zipOf(workbook: WorkbookWriter): ZipArchive | undefined {
  const zip = (workbook as unknown as { zip?: unknown }).zip
  if (typeof zip !== 'object' || zip === null) return undefined
  const candidate = zip as Partial<ZipArchive>
  return typeof candidate.on === 'function' && typeof candidate.abort === 'function'
    ? (zip as ZipArchive)
    : undefined
}

/** Whether the workbook's zip archive is where onZipError and abortZip reach it. */
export function hasZipArchive(workbook: WorkbookWriter): boolean {
  return zipOf(workbook) !== undefined
}

/**
 * exceljs listens for zip errors only while finishing the file; an error before that (a full disk) would be an
 * unhandled 'error' event and take the process down. This hears it from the start.
 */
export function onZipError(workbook: WorkbookWriter, listener: (error: unknown) => void): void {
  zipOf(workbook)?.on('error', listener)
}

/** Stops compressing (cancel): archiver drops queued entries and ends its streams. */
export function abortZip(workbook: WorkbookWriter): void {
  zipOf(workbook)?.abort()
}

/** A built-in name local to one sheet: its filter range or its repeated print rows. */
export interface SheetDefinedName {
  /** `_xlnm._FilterDatabase`: the auto-filter's range; `_xlnm.Print_Titles`: rows printed atop every page. */
  readonly name: '_xlnm._FilterDatabase' | '_xlnm.Print_Titles'
  /** The sheet's 0-based position in the workbook. */
  readonly sheetIndex: number
  /** e.g. `'Employees'!$A$1:$H$101`, `'Employees'!$1:$1` */
  readonly range: string
}

/**
 * Adds sheet-local built-in names to workbook.xml. LibreOffice Calc creates its filter buttons from the hidden
 * `_xlnm._FilterDatabase` name Excel writes beside every auto-filter, not from the sheet's <autoFilter> element;
 * `_xlnm.Print_Titles` repeats the header row on every printed page. The streaming writer's defined-name store
 * cannot express a sheet-local name, so the workbook gets a list in the same model shape. Call just before
 * `commit()`.
 */
export function setSheetDefinedNames(
  workbook: WorkbookWriter,
  names: ReadonlyArray<SheetDefinedName>,
): boolean {
  if (!sheetDefinedNamesSettable(workbook)) return false
  const holder = workbook as unknown as { _definedNames?: unknown }
  const model = names.map((name) => ({
    name: name.name,
    localSheetId: name.sheetIndex,
    ranges: [name.range],
  }))
  holder._definedNames = { model }
  return true
}

/** Whether setSheetDefinedNames can replace the workbook's defined names (checked without changing them). */
export function sheetDefinedNamesSettable(workbook: WorkbookWriter): boolean {
  const current = (workbook as unknown as { _definedNames?: unknown })._definedNames
  return typeof current === 'object' && current !== null && 'model' in current
}

/** Where data-row XML can be appended to a worksheet's <sheetData>. */
export interface RawRowSink {
  /** XML text, or its UTF-8 bytes, which are copied before this returns (the caller may reuse the buffer). */
  write(xml: string | Buffer): void
}

interface WritableSheet {
  readonly startedData?: unknown
  readonly _rows?: unknown
  readonly stream?: { write?: unknown; batch?: unknown }
}

/**
 * A sink for rendered rows, once exceljs has opened the sheet's data (after the first committed row) and holds
 * no uncommitted row of its own; null when exceljs is not in that state or not shaped as expected. Rows written
 * here must continue the row numbers exceljs wrote, and no row may be added through exceljs afterwards.
 *
 * The sheet's stream must be in batch mode (exceljs's StreamBuf with `batch: true`, as its workbook writer opens
 * every part): it then copies each write into its own 64 KiB buffers before returning, which is what lets the
 * writer hand it bytes from one reused buffer. Another mode would keep the caller's buffer, so it is refused.
 */
export function rawRowSink(worksheet: Worksheet): RawRowSink | null {
  const sheet = worksheet as unknown as WritableSheet
  const stream = sheet.stream
  if (sheet.startedData !== true || !Array.isArray(sheet._rows) || sheet._rows.length !== 0) return null
  if (typeof stream?.write !== 'function' || stream.batch !== true) return null
  const write = stream.write as (chunk: string | Buffer) => unknown
  return { write: (xml) => void write.call(stream, xml) }
}

interface StyleRegistry {
  addStyleModel(style: unknown, cellType?: number): unknown
}

/** The workbook's style id (the `s` attribute) for a style object, registering it; null if unavailable. */
export function workbookStyleId(workbook: WorkbookWriter, style: object): number | null {
  const styles = (workbook as unknown as { styles?: Partial<StyleRegistry> }).styles
  if (typeof styles?.addStyleModel !== 'function') return null
  const id = styles.addStyleModel(style)
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null
}
