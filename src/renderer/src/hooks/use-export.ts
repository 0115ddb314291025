import { useCallback, useEffect, useState } from 'react'
import type {
  ChangesExportRequest,
  ChangesWritten,
  ExportProgress,
  ExportRequest,
  ExportResult,
} from '../../../shared/domain/export'
import { errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export type ExportState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'running'; readonly label: string; readonly progress: ExportProgress | undefined }
  | {
      readonly phase: 'written'
      readonly rows: number
      readonly fileName: string
      /** "Export changes…": the rows by kind of change. */
      readonly changes?: ChangesWritten
    }
  | { readonly phase: 'cancelled' }
  | { readonly phase: 'failed'; readonly message: string }

export interface ExportController {
  readonly state: ExportState
  /** Starts an export; `label` says what is being exported while it runs. */
  start(request: ExportRequest, label: string): void
  /** Starts "Export changes…" of one sync; progress, cancel and "show in folder" work as for any export. */
  startChanges(request: ChangesExportRequest, label: string): void
  cancel(): void
  showInFolder(): void
  dismiss(): void
}

/** One export at a time: main asks where to save, writes the file and reports progress on `export:progress`. */
export function useExport(): ExportController {
  const client = useClient()
  const [state, setState] = useState<ExportState>({ phase: 'idle' })

  useEffect(
    () =>
      client.on('export:progress', (progress) =>
        setState((current) => (current.phase === 'running' ? { ...current, progress } : current)),
      ),
    [client],
  )

  // Running is set before the request goes, so progress main sends at once is not missed.
  const run = useCallback((label: string, exportFile: () => Promise<ExportResult>) => {
    setState({ phase: 'running', label, progress: undefined })
    exportFile().then(
      (result) =>
        setState(
          result.status === 'written'
            ? {
                phase: 'written',
                rows: result.rows,
                fileName: result.fileName,
                ...(result.changes === undefined ? {} : { changes: result.changes }),
              }
            : { phase: 'cancelled' },
        ),
      (error: unknown) =>
        setState(
          errorCode(error) === 'cancelled'
            ? { phase: 'cancelled' }
            : { phase: 'failed', message: errorMessage(error) },
        ),
    )
  }, [])
  const start = useCallback(
    (request: ExportRequest, label: string) => run(label, () => client.call('export:start', request)),
    [client, run],
  )
  const startChanges = useCallback(
    (request: ChangesExportRequest, label: string) =>
      run(label, () => client.call('changes:export', request)),
    [client, run],
  )
  const cancel = useCallback(() => {
    client.call('export:cancel').catch(() => undefined)
  }, [client])
  const showInFolder = useCallback(() => {
    client.call('export:show-in-folder').then(
      (shown) =>
        shown ||
        setState({
          phase: 'failed',
          message: 'RosterDesk could not find the exported file. Export it again.',
        }),
      (error: unknown) => setState({ phase: 'failed', message: errorMessage(error) }),
    )
  }, [client])
  const dismiss = useCallback(() => setState({ phase: 'idle' }), [])
  return { state, start, startChanges, cancel, showInFolder, dismiss }
}
