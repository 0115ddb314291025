import { useCallback, useEffect, useState } from 'react'
import type { ExportProgress, ExportRequest } from '../../../shared/domain'
import { errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export type ExportState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'running'; readonly label: string; readonly progress: ExportProgress | undefined }
  | { readonly phase: 'written'; readonly rows: number; readonly fileName: string }
  | { readonly phase: 'cancelled' }
  | { readonly phase: 'failed'; readonly message: string }

export interface ExportController {
  readonly state: ExportState
  /** Starts an export; `label` says what is being exported while it runs. */
  start(request: ExportRequest, label: string): void
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

  const start = useCallback(
    (request: ExportRequest, label: string) => {
      setState({ phase: 'running', label, progress: undefined })
      client.call('export:start', request).then(
        (result) =>
          setState(
            result.status === 'written'
              ? { phase: 'written', rows: result.rows, fileName: result.fileName }
              : { phase: 'cancelled' },
          ),
        (error: unknown) =>
          setState(
            errorCode(error) === 'cancelled'
              ? { phase: 'cancelled' }
              : { phase: 'failed', message: errorMessage(error) },
          ),
      )
    },
    [client],
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
  return { state, start, cancel, showInFolder, dismiss }
}
