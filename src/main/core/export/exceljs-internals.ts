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

interface AppendingZip {
  append(source: unknown, data: { readonly name?: unknown }): unknown
}

/** OPC's content type, relationship type and part name for custom file properties (ECMA-376 Part 1, §15.2.12.2). */
const CUSTOM_PROPERTIES = {
  partName: '/docProps/custom.xml',
  contentType: 'application/vnd.openxmlformats-officedocument.custom-properties+xml',
  relationshipType: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties',
} as const

/** The part names exceljs 4.4's WorkbookWriter gives the package's relationships and its content types. */
const PACKAGE_RELS = '/_rels/.rels'
const CONTENT_TYPES = '[Content_Types].xml'

/** A workbook writer that also writes a custom properties part, and says whether it could. */
export interface CustomPropertiesWriter {
  /**
   * Whether the package's relationships and content types both name the part: true once `commit()` has
   * written them; false if exceljs wrote either part otherwise than pinned (the file must not be kept then).
   */
  customPropertiesWritten(): boolean
}

/** Whether `workbook` (made by withCustomProperties) wrote its custom properties part where Office finds it. */
export function customPropertiesWritten(workbook: object): boolean {
  const check = (workbook as Partial<CustomPropertiesWriter>).customPropertiesWritten
  return typeof check === 'function' && check.call(workbook) === true
}

/**
 * exceljs's WorkbookWriter with one more part, `docProps/custom.xml` holding `customXml` (exceljs writes no
 * custom document properties). exceljs 4.4 writes the package's relationships in its constructor
 * (`addOfficeRels`) and its content types in `commit()` (`addContentTypes`), each as one string handed to the
 * archiver's `append`: while each runs, that string gets one more entry before its closing tag, the part's
 * relationship and its content type override (as CUSTOM_PROPERTIES names them); the part itself goes into the
 * zip beside the relationships.
 */
export function withCustomProperties(
  WorkbookWriter: typeof stream.xlsx.WorkbookWriter,
  customXml: string,
): new (
  options: Partial<stream.xlsx.WorkbookStreamWriterOptions>,
) => WorkbookWriter & CustomPropertiesWriter {
  const part = CUSTOM_PROPERTIES
  const target = part.partName.replace(/^\//, '')
  const edits: ReadonlyMap<string, readonly [string, string]> = new Map([
    [
      PACKAGE_RELS,
      [
        '</Relationships>',
        `<Relationship Id="rIdRosterDeskCustom" Type="${part.relationshipType}" Target="${target}"/>`,
      ],
    ],
    [
      CONTENT_TYPES,
      ['</Types>', `<Override PartName="${part.partName}" ContentType="${part.contentType}"/>`],
    ],
  ])
  const base = WorkbookWriter as unknown as new (options: unknown) => WorkbookWriter
  class LabelledWorkbookWriter extends base implements CustomPropertiesWriter {
    /** Filled by the constructor's own addOfficeRels call, before this class's fields could be initialised. */
    declare edited?: Set<string>

    customPropertiesWritten(): boolean {
      return this.edited?.size === edits.size
    }

    /** Runs `write` with the zip's `append` editing the part `name` as `edits` says (noted in `edited`). */
    editing(name: string, write: () => Promise<void>): Promise<void> {
      const zip = (this as unknown as { zip?: Partial<AppendingZip> }).zip
      const append = zip?.append
      const edit = edits.get(name)
      if (zip === undefined || typeof append !== 'function' || edit === undefined) return write()
      const [closing, entry] = edit
      const edited = (this.edited ??= new Set())
      zip.append = function (source, data) {
        if (data.name === name && typeof source === 'string' && source.includes(closing)) {
          const at = source.lastIndexOf(closing)
          edited.add(name)
          return append.call(this, source.slice(0, at) + entry + source.slice(at), data)
        }
        return append.call(this, source, data)
      }
      try {
        return write()
      } finally {
        zip.append = append
      }
    }

    override addOfficeRels(): Promise<void> {
      const written = this.editing(PACKAGE_RELS, () => super.addOfficeRels())
      ;(this as unknown as { zip: AppendingZip }).zip.append(customXml, { name: target })
      return written
    }

    override addContentTypes(): Promise<void> {
      return this.editing(CONTENT_TYPES, () => super.addContentTypes())
    }
  }
  return LabelledWorkbookWriter as unknown as new (
    options: Partial<stream.xlsx.WorkbookStreamWriterOptions>,
  ) => WorkbookWriter & CustomPropertiesWriter
}
