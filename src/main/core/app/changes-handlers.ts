import type { ChangeHistory } from '../changes/change-history'
import { changesExportFileName } from '../export/export-file-name'
import type { InvokeHandlers } from '../ipc/dispatch'
import { exportToChosenFile, type ExportFileDeps } from './export-handlers'

export interface ChangesHandlerDeps extends ExportFileDeps {
  /** The change report's history: the last complete syncs and whom each added, removed or changed. */
  readonly changes: ChangeHistory
}

export type ChangesChannel = 'changes:history' | 'changes:list' | 'changes:export'

/** The `changes:*` channels: the syncs the history holds, a window of one's changes, and their export to a file. */
export function createChangesHandlers(deps: ChangesHandlerDeps): Pick<InvokeHandlers, ChangesChannel> {
  return {
    'changes:history': async () => deps.changes.list(),
    'changes:list': async (runId, kind, offset, limit, options) =>
      deps.changes.page(runId, kind, offset, limit, options),
    'changes:export': async (request) => {
      // One export at a time: refused before the save dialog opens.
      deps.exports.ensureIdle()
      // A sync the history no longer holds is refused before the save dialog opens.
      const run = deps.changes.run(request.runId)
      return exportToChosenFile(
        deps,
        changesExportFileName(new Date(run.endedAt), request.format),
        request.format,
        (filePath, onProgress) => deps.exports.exportChanges({ request, filePath, onProgress }),
      )
    },
  }
}
