import { useCallback, useContext, useEffect, useState } from 'react'
import type {
  ChangesExportRequest,
  ChangesWritten,
  ExportProgress,
  ExportRequest,
  ExportResult,
} from '../../../shared/domain/export'
import type { ColumnInfo } from '../../../shared/domain/rows'
import type { SensitiveColumnsAnswer } from '../../../shared/policy-view'
import { isSensitiveField } from '../../../shared/sensitive-fields'
import { errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { ExportRulesContext } from './use-export-format'

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

/** The question an export asks first under `exports.sensitiveColumns: "ask"` (SensitiveColumnsDialog). */
export interface SensitiveColumnsQuestion {
  /** The sensitive columns the export would write, by label. */
  readonly labels: readonly string[]
  /** The clerk's answer; undefined: no export. */
  answer(answer: SensitiveColumnsAnswer | undefined): void
}

export interface ExportController {
  readonly state: ExportState
  /** While an export waits for the clerk to say whether its sensitive columns go; undefined otherwise. */
  readonly question: SensitiveColumnsQuestion | undefined
  /** Starts an export; `label` says what is being exported while it runs. */
  start(request: ExportRequest, label: string): void
  /** Starts "Export changes…" of one sync; progress, cancel and "show in folder" work as for any export. */
  startChanges(request: ChangesExportRequest, label: string): void
  cancel(): void
  showInFolder(): void
  dismiss(): void
}

/**
 * One export at a time: main asks where to save, writes the file and reports progress on `export:progress`. Under
 * the machine policy's `exports.sensitiveColumns: "ask"`, an export that would write sensitive columns
 * (shared/sensitive-fields.ts) first asks the clerk, naming them by their labels in `columns` (a change report:
 * the data's sensitive columns, any of whose changes it may hold), and sends the answer with the request; the core
 * decides what is written.
 */
export function useExport(columns: readonly ColumnInfo[] = []): ExportController {
  const client = useClient()
  const rules = useContext(ExportRulesContext)
  const [state, setState] = useState<ExportState>({ phase: 'idle' })
  const [question, setQuestion] = useState<SensitiveColumnsQuestion>()

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
  // Asks first when the rule says so and `keys` hold a sensitive column; `go` gets the answer (none: not asked).
  const askFirst = useCallback(
    (keys: readonly string[], go: (answer: { sensitiveColumns?: SensitiveColumnsAnswer }) => void) => {
      const sensitive = keys.filter(isSensitiveField)
      if (rules.sensitiveColumns !== 'ask' || sensitive.length === 0) return go({})
      const labelOf = (key: string): string => columns.find((column) => column.key === key)?.label ?? key
      setQuestion({
        labels: sensitive.map(labelOf),
        answer: (answer) => {
          setQuestion(undefined)
          if (answer !== undefined) go({ sensitiveColumns: answer })
        },
      })
    },
    [rules.sensitiveColumns, columns],
  )
  const start = useCallback(
    (request: ExportRequest, label: string) =>
      askFirst(request.columns, (answer) =>
        run(label, () => client.call('export:start', { ...request, ...answer })),
      ),
    [client, run, askFirst],
  )
  const startChanges = useCallback(
    (request: ChangesExportRequest, label: string) =>
      askFirst(
        columns.map((column) => column.key),
        (answer) => run(label, () => client.call('changes:export', { ...request, ...answer })),
      ),
    [client, run, askFirst, columns],
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
  return { state, question, start, startChanges, cancel, showInFolder, dismiss }
}
