import type { SavedFileKind } from '../../../shared/domain/export'
import type { Clock } from '../clock'
import { diagnosticsFileName, type DiagnosticsWritten } from '../diagnostics/diagnostics-file'
import type { ExportMemory } from '../export/export-memory'
import type { InvokeHandlers } from '../ipc/dispatch'
import { basename } from 'node:path'

export interface DiagnosticsHandlerDeps {
  readonly clock: Pick<Clock, 'now'>
  /** The native save dialog (main's), opened at `defaultPath`; undefined when cancelled. */
  readonly chooseExportPath: (defaultPath: string, kind: SavedFileKind) => Promise<string | undefined>
  /** Where the dialog opens: the active profile's last export folder, when it has one. */
  readonly exportMemory: ExportMemory
  readonly exportProfile: () => { readonly id: string; readonly name: string }
  readonly revealFile: (path: string) => void
  /** Gathers and writes the zip (session/app-diagnostics.ts). */
  readonly writeDiagnostics: (filePath: string) => Promise<DiagnosticsWritten>
}

export type DiagnosticsChannel = 'diagnostics:save' | 'diagnostics:show-in-folder'

/**
 * The `diagnostics:*` channels: Help → Save diagnostics… opens main's save dialog at "RosterDesk diagnostics
 * <date>.zip" (in the last export folder), then writes the file there (core/diagnostics/); the location always
 * comes from main's dialog, never from the renderer. "Show in folder" reveals the last one written.
 */
export function createDiagnosticsHandlers(
  deps: DiagnosticsHandlerDeps,
): Pick<InvokeHandlers, DiagnosticsChannel> {
  let written: string | undefined
  return {
    'diagnostics:save': async () => {
      const fileName = diagnosticsFileName(new Date(deps.clock.now()))
      const defaultPath = deps.exportMemory.defaultPath(deps.exportProfile().id, fileName)
      const filePath = await deps.chooseExportPath(defaultPath, 'zip')
      if (filePath === undefined) return { status: 'cancelled' }
      const result = await deps.writeDiagnostics(filePath)
      written = result.filePath
      return { status: 'written', fileName: basename(result.filePath), replaced: result.replaced }
    },
    'diagnostics:show-in-folder': async () => {
      if (written === undefined) return false
      deps.revealFile(written)
      return true
    },
  }
}
