import type { stream } from 'exceljs'
import { Writable } from 'node:stream'
import type { Logger } from '../log/logger'
import {
  canMeasureZipBacklog,
  customPropertiesWritten,
  hasZipArchive,
  rawRowSink,
  sheetDefinedNamesSettable,
  withCustomProperties,
  workbookStyleId,
} from './exceljs-internals'

/** exceljs's streaming workbook writer, the one class of exceljs an export constructs. */
export type WorkbookWriterClass = typeof stream.xlsx.WorkbookWriter

/** exceljs as an export uses it: the writer class, and whether the internals RosterDesk reaches are in place. */
export interface LoadedExcelJs {
  readonly WorkbookWriter: WorkbookWriterClass
  /** The internals of exceljs-internals.ts that are missing or changed shape; empty when all are as pinned. */
  readonly movedInternals: readonly string[]
}

/** How exceljs is found: its streaming writer alone, else the whole package. Replaceable in tests. */
export interface ExcelJsModules {
  /** exceljs's own file for WorkbookWriter: a third of the package's modules, so it loads in a third of the time. */
  writerModule(): Promise<unknown>
  /** The package's entry (`stream.xlsx.WorkbookWriter`), when the writer's own file moved. */
  packageModule(): Promise<unknown>
}

const EXCELJS_MODULES: ExcelJsModules = {
  // With its `.js`: the built bundles keep this a native import(), which adds no extension (tsx, running from
  // source, adds one and so hid a missing one; test/shell/core-worker-bundle.test.ts holds the bundle to it).
  writerModule: () => import('exceljs/lib/stream/xlsx/workbook-writer.js'),
  packageModule: () => import('exceljs'),
}

let loading: Promise<LoadedExcelJs> | null = null
let warned = false

/**
 * exceljs, loaded once per thread (each start of the core worker, the CLI's process): module loading is
 * ~100–300 ms of synchronous work, which the first export should not pay. The first load probes the internals
 * the export reaches (see exceljs-internals.ts); when they moved, `logger` hears it once and every export
 * writes through exceljs's public API only ("plain streaming").
 * A failed load is not remembered, so the next export tries again and reports its own error.
 */
export function loadExcelJs(
  logger?: Pick<Logger, 'warn'>,
  modules: ExcelJsModules = EXCELJS_MODULES,
): Promise<LoadedExcelJs> {
  const pending = (loading ??= load(modules))
  pending.catch(() => {
    if (loading === pending) loading = null
  })
  return pending.then((loaded) => {
    if (logger !== undefined && !warned && loaded.movedInternals.length > 0) {
      warned = true
      logger.warn(
        `Export: exceljs's internals are not as RosterDesk expects (${loaded.movedInternals.join('; ')}); ` +
          'spreadsheets are written through its plain streaming API (slower, more memory, no LibreOffice filter ' +
          'buttons or repeated print header). Reinstall RosterDesk if this persists.',
      )
    }
    return loaded
  })
}

/**
 * Starts loading exceljs in the background without delaying what runs now: scheduled after the current
 * event-loop turn (the window's first paint, the CLI's argument parsing). Errors are left to the export that
 * needs exceljs.
 */
export function preloadExcelJs(logger?: Pick<Logger, 'warn'>): void {
  setImmediate(() => {
    loadExcelJs(logger).catch(() => undefined)
  })
}

/** Forgets the loaded module (tests that load a stand-in). */
export function resetExcelJsForTests(): void {
  loading = null
  warned = false
}

async function load(modules: ExcelJsModules): Promise<LoadedExcelJs> {
  const moved: string[] = []
  let WorkbookWriter = writerClass(await modules.writerModule().catch(() => undefined))
  if (WorkbookWriter === null) {
    moved.push('lib/stream/xlsx/workbook-writer')
    const main = (await modules.packageModule()) as { default?: unknown; stream?: unknown }
    const entry = (main.default ?? main) as { stream?: { xlsx?: { WorkbookWriter?: unknown } } }
    WorkbookWriter = writerClass(entry.stream?.xlsx?.WorkbookWriter)
    if (WorkbookWriter === null) throw new Error('exceljs has no stream.xlsx.WorkbookWriter.')
  }
  moved.push(...(await probeInternals(WorkbookWriter)))
  return { WorkbookWriter, movedInternals: moved }
}

/** The writer class from a module namespace (`default` under ESM interop) or the value itself; null if unlike. */
function writerClass(candidate: unknown): WorkbookWriterClass | null {
  const value =
    typeof candidate === 'object' && candidate !== null && 'default' in candidate
      ? (candidate as { default: unknown }).default
      : candidate
  if (typeof value !== 'function') return null
  const prototype = (value as { prototype?: Record<string, unknown> }).prototype
  return typeof prototype?.['addWorksheet'] === 'function' && typeof prototype['commit'] === 'function'
    ? (value as WorkbookWriterClass)
    : null
}

/** How `movedInternals` names the package parts a sensitivity label's custom properties go into. */
export const CUSTOM_PROPERTIES_INTERNAL = 'package relationships and content types'

/**
 * Writes a one-cell workbook into a sink that keeps nothing and checks, on the way, every internal the export
 * reaches, a custom properties part among them (withCustomProperties); what it cannot find is named. A few
 * milliseconds, once per thread that loads it.
 */
export async function probeInternals(WorkbookWriter: WorkbookWriterClass): Promise<string[]> {
  const moved: string[] = []
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
  try {
    const Labelled = withCustomProperties(WorkbookWriter, '<Properties/>')
    const workbook = new Labelled({ stream: sink, useStyles: true, useSharedStrings: false })
    if (!hasZipArchive(workbook)) moved.push('workbook zip')
    if (workbookStyleId(workbook, { numFmt: '@' }) === null) moved.push('style registry')
    const sheet = workbook.addWorksheet('Probe')
    if (!canMeasureZipBacklog(sheet)) moved.push('worksheet stream queues')
    sheet.addRow(['probe']).commit()
    if (rawRowSink(sheet) === null) moved.push('worksheet data stream')
    sheet.commit()
    if (!sheetDefinedNamesSettable(workbook)) moved.push('workbook defined names')
    await workbook.commit()
    if (!customPropertiesWritten(workbook)) moved.push(CUSTOM_PROPERTIES_INTERNAL)
  } catch (error) {
    moved.push(
      `probe failed: ${error instanceof Error ? error.message : String(error)}`,
      CUSTOM_PROPERTIES_INTERNAL,
    )
  }
  return moved
}
