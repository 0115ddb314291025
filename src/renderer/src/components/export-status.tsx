import { createPortal } from 'react-dom'
import { changesWrittenItems } from '../format/change-text'
import { formatCount, plural } from '../format/format-value'
import type { ExportController } from '../hooks/use-export'
import { SensitiveColumnsDialog } from './sensitive-columns-dialog'

/** Where the current or last export stands, with Cancel while it runs and "Show in folder" once written. */
export function ExportStatus({ exporter }: { readonly exporter: ExportController }) {
  const { state, question } = exporter
  // The question an export asks first (use-export.ts), on the body: a modal dialog belongs to the whole page.
  const asking =
    question === undefined
      ? null
      : createPortal(
          <SensitiveColumnsDialog labels={question.labels} onAnswer={question.answer} />,
          document.body,
        )
  if (state.phase === 'idle') return asking
  return (
    <>
      {asking}
      <div className={`export-status${state.phase === 'failed' ? ' message-error' : ''}`} role="status">
        {state.phase === 'running' && (
          <>
            <span>Exporting {state.label}…</span>
            <progress
              aria-label="Export progress"
              {...(state.progress && state.progress.rowsTotal > 0
                ? { value: state.progress.rowsWritten, max: state.progress.rowsTotal }
                : {})}
            />
            {state.progress && (
              <span className="muted">
                {formatCount(state.progress.rowsWritten)} of {formatCount(state.progress.rowsTotal)} rows
              </span>
            )}
            <button type="button" onClick={exporter.cancel}>
              Cancel export
            </button>
          </>
        )}
        {state.phase === 'written' && state.rows === 0 && (
          <span className="message-warning" role="alert">
            The export held no rows, so <strong className="identifier">{state.fileName}</strong> has only the
            header. Check the pay cycle and filters, then export again.
          </span>
        )}
        {state.phase === 'written' && state.rows > 0 && (
          <>
            <span>
              Exported {plural(state.rows, 'row')} to <strong className="identifier">{state.fileName}</strong>
              {state.changes === undefined ? '.' : ':'}
            </span>
            {state.changes === undefined ? null : (
              <ul className="export-kinds" aria-label="Rows exported by kind of change">
                {changesWrittenItems(state.changes).map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            )}
            <button type="button" onClick={exporter.showInFolder}>
              Show in folder
            </button>
          </>
        )}
        {state.phase === 'cancelled' && <span>Export cancelled.</span>}
        {state.phase === 'failed' && <span role="alert">{state.message}</span>}
        {state.phase !== 'running' && (
          <button type="button" className="link" onClick={exporter.dismiss}>
            Dismiss
          </button>
        )}
      </div>
    </>
  )
}
