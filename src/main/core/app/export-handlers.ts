import type {
  ExportFormat,
  ExportProgress,
  ExportRequest,
  ExportResult,
  SavedFileKind,
} from '../../../shared/domain/export'
import type { Clock } from '../clock'
import { RosterDeskError } from '../errors'
import { profileFileName } from '../export/export-file-name'
import type { ExportMemory } from '../export/export-memory'
import type { ExportService } from '../export/export-service'
import type { PagePrinter } from '../export/print-view'
import { clipboardContent, copiedColumns, type ClipboardWriter } from '../export/copy-rows'
import type { ExportRecord } from '../export-record/export-record'
import type { QueryEngine } from '../query/query-engine'
import type { EventSink, InvokeHandlers } from '../ipc/dispatch'

/** What an export to a file the clerk picks needs; `changes:export` (changes-handlers.ts) writes one too. */
export interface ExportFileDeps {
  readonly exports: ExportService
  readonly exportMemory: ExportMemory
  /** The active profile: its name starts every file name offered, its id keeps its own last folder. */
  readonly exportProfile: () => { readonly id: string; readonly name: string }
  readonly events: EventSink
  /** The native save dialog, opened at `defaultPath` (a file name, in the last folder used when there is one). */
  readonly chooseExportPath: (defaultPath: string, kind: SavedFileKind) => Promise<string | undefined>
}

export interface ExportHandlerDeps extends ExportFileDeps {
  readonly clock: Pick<Clock, 'now'>
  readonly revealFile: (path: string) => void
  readonly defaultExportFileName: (request: ExportRequest, now: Date) => string
  /** Prints a generated page (the shell's hidden print window); absent where nothing can print (the CLI). */
  readonly printPage?: PagePrinter
  /** The saved employees a copy reads its rows and columns from. */
  readonly queries: QueryEngine
  /** Writes the system clipboard (main's `clipboard.write`); absent where there is none to write (the CLI). */
  readonly writeClipboard?: ClipboardWriter
  /** The user's export record, which Help → Export history lists; absent: nothing is recorded (tests). */
  readonly exportRecord?: Pick<ExportRecord, 'newestFirst'>
}

export type ExportChannel =
  | 'export:start'
  | 'export:cancel'
  | 'export:show-in-folder'
  | 'export:print'
  | 'export:copy-rows'
  | 'export:history'

const COPY_FAILED = 'RosterDesk could not copy to the clipboard. Try again.'

/**
 * The save dialog at `fileName` after the active profile's name (`profileFileName`), in the last folder that profile
 * used, with the export's writer made ready meanwhile (exceljs loading on the core worker), then `write` to the file
 * chosen, its progress sent to the window; the folder is remembered as that profile's once the file is written. The save location always comes from main's dialog, never from the renderer.
 * A format the machine policy forbids is refused first ('not-allowed').
 */
export async function exportToChosenFile(
  deps: ExportFileDeps,
  fileName: string,
  format: ExportFormat,
  write: (filePath: string, onProgress: (progress: ExportProgress) => void) => Promise<ExportResult>,
): Promise<ExportResult> {
  // What the organisation does not allow is refused before the clerk picks a file.
  deps.exports.ensureAllowed(format)
  // The profile the dialog was opened for, whatever happens meanwhile.
  const profile = deps.exportProfile()
  const defaultPath = deps.exportMemory.defaultPath(profile.id, profileFileName(profile.name, fileName))
  const ready = deps.exports.prepare(format)
  let filePath: string | undefined
  try {
    filePath = await deps.chooseExportPath(defaultPath, format)
  } finally {
    // The export that follows keeps the writer busy itself; a cancelled dialog lets it go idle.
    ready()
  }
  if (filePath === undefined) return { status: 'cancelled' }
  const result = await write(filePath, (progress) => deps.events.emit('export:progress', progress))
  if (result.status === 'written') deps.exportMemory.remember(profile.id, filePath)
  return result
}

/** The `export:*` channels: the view to a file, its cancel, the file shown in its folder, and printing the view. */
export function createExportHandlers(deps: ExportHandlerDeps): Pick<InvokeHandlers, ExportChannel> {
  // One print dialog at a time: a second Ctrl+P while the first dialog is open is refused, not queued.
  let printing = false

  return {
    'export:start': async (request) => {
      // One export at a time: a second is refused before its save dialog opens, not after a file is chosen.
      deps.exports.ensureIdle()
      // Over the policy's row limit, when the request's size is known, is refused before the save dialog too.
      deps.exports.ensureRowsAllowed(request)
      // As is an export whose every column the policy keeps out (its sensitive columns).
      deps.exports.allowedRequest(request)
      return exportToChosenFile(
        deps,
        deps.defaultExportFileName(request, new Date(deps.clock.now())),
        request.format,
        (filePath, onProgress) => deps.exports.exportToFile({ request, filePath, onProgress }),
      )
    },
    'export:cancel': async () => deps.exports.cancel(),
    'export:show-in-folder': async () => {
      const file = deps.exports.lastExportedFile()
      if (file === undefined) return false
      deps.revealFile(file)
      return true
    },
    'export:print': async (request, options) => {
      const printPage = deps.printPage
      if (printPage === undefined) {
        throw new RosterDeskError(
          'config',
          'Printing is not available here. Export the view to Excel and print it from there.',
        )
      }
      if (printing) throw new RosterDeskError('busy', 'The print dialog is already open.')
      printing = true
      try {
        const view = await deps.exports.preparePrint(
          request,
          options === undefined
            ? {}
            : {
                locale: options.locale,
                ...(options.currency === undefined ? {} : { currency: options.currency }),
              },
        )
        const outcome = await printPage({ html: view.html, title: view.title }).catch((error: unknown) => {
          throw new RosterDeskError(
            'internal',
            'The page could not be printed. Check the printer, or export the view to Excel and print it from there.',
            { cause: error, detail: error instanceof Error ? error.message : String(error) },
          )
        })
        if (outcome !== 'printed') return { status: 'cancelled' }
        deps.exports.notePrinted(request, view.rows)
        return { status: 'printed', rows: view.rows, total: view.total }
      } finally {
        printing = false
      }
    },
    'export:copy-rows': async (request) => {
      const writeClipboard = deps.writeClipboard
      if (writeClipboard === undefined) throw new RosterDeskError('config', COPY_FAILED)
      await deps.queries.open()
      // The machine policy's sensitive columns leave only where it allows (a copy asks nothing: under `ask`, not).
      const columns = copiedColumns(deps.exports.allowedColumns(request.columns), deps.queries.listColumns())
      const rows = deps.queries.rowsOfUuids(request.uuids)
      await writeClipboard(clipboardContent(columns, rows, request.headers)).catch((error: unknown) => {
        throw new RosterDeskError('internal', COPY_FAILED, {
          cause: error,
          detail: error instanceof Error ? error.message : String(error),
        })
      })
      deps.exports.noteCopied(
        columns.map((column) => column.key),
        rows.length,
      )
      return { rows: rows.length, columns: columns.length }
    },
    'export:history': async () => {
      let read: ReturnType<ExportRecord['newestFirst']>
      try {
        read = deps.exportRecord?.newestFirst() ?? { entries: [], skipped: 0 }
      } catch (error) {
        const code = (error as { code?: unknown }).code
        throw new RosterDeskError(
          'storage',
          'The export history cannot be read. Ask IT to check that your RosterDesk folder is readable.',
          { cause: error, detail: typeof code === 'string' ? code : String(error) },
        )
      }
      return { entries: [...read.entries], skippedLines: read.skipped }
    },
  }
}
