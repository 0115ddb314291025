import { useContext } from 'react'
import type { ExportRequest } from '../../../shared/domain/export'
import { formatCount } from '../format/format-value'
import { APP_SHORTCUTS, ariaKeyShortcuts } from '../../../shared/shortcuts'
import { useCommand } from '../hooks/use-app-commands'
import { ExportRulesContext } from '../hooks/use-export-format'
import { usePrint } from '../hooks/use-print'

const PRINT_KEYS = ariaKeyShortcuts(APP_SHORTCUTS.find((shortcut) => shortcut.id === 'print')?.chords ?? [])

interface PrintButtonProps {
  /** What to print: the request the Export button would send for the same view. */
  readonly request: () => ExportRequest
  readonly disabled: boolean
}

/**
 * "Print…" (and the `print` command: Ctrl/Cmd+P or File → Print…): main builds a tidy page of the view (title,
 * filters, the rows with the visible columns, page numbers) and opens the system print dialog for it.
 */
export function PrintButton({ request, disabled }: PrintButtonProps) {
  const printer = usePrint()
  const { state } = printer
  // The machine policy's row limit holds a print as it holds an export (the page says so too).
  const { maxRows } = useContext(ExportRulesContext)
  const print = (): void => {
    if (!disabled) printer.print(request())
  }
  useCommand('print', print)
  return (
    <>
      <button
        type="button"
        disabled={disabled || state.phase === 'printing'}
        aria-keyshortcuts={PRINT_KEYS}
        onClick={print}
      >
        Print…
      </button>
      {state.phase === 'printing' && (
        <span className="muted" role="status">
          Preparing the page to print…
        </span>
      )}
      {state.phase === 'cut' && (
        <span className="message-warning" role="status">
          Printed the first {formatCount(state.rows)} of {formatCount(state.total)} rows.{' '}
          {state.rows === maxRows
            ? `Your organisation allows at most ${formatCount(maxRows)} in one export or print; narrow the view to print the others.`
            : 'Narrow the view, or export it for all of them.'}{' '}
          <button type="button" className="link" onClick={printer.dismiss}>
            Dismiss
          </button>
        </span>
      )}
      {state.phase === 'failed' && (
        <span className="message-error" role="alert">
          {state.message}{' '}
          <button type="button" className="link" onClick={printer.dismiss}>
            Dismiss
          </button>
        </span>
      )}
    </>
  )
}
