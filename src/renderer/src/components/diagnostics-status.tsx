import { useCallback, useState } from 'react'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { useCommand } from '../hooks/use-app-commands'
import { plural } from '../format/format-value'

type DiagnosticsState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'saving' }
  | { readonly phase: 'written'; readonly fileName: string; readonly replaced: number }
  | { readonly phase: 'failed'; readonly message: string }

/**
 * Help → Save diagnostics… (the menu's `save-diagnostics` command): main asks where to save, writes the zip for IT
 * and this line says where it went, with "Show in folder"; a cancelled dialog says nothing.
 */
export function DiagnosticsStatus() {
  const client = useClient()
  const [state, setState] = useState<DiagnosticsState>({ phase: 'idle' })
  useCommand('save-diagnostics', () => {
    if (state.phase === 'saving') return
    setState({ phase: 'saving' })
    client.call('diagnostics:save').then(
      (result) =>
        setState(
          result.status === 'written'
            ? { phase: 'written', fileName: result.fileName, replaced: result.replaced }
            : { phase: 'idle' },
        ),
      (error: unknown) => setState({ phase: 'failed', message: errorMessage(error) }),
    )
  })
  const showInFolder = useCallback(() => {
    client.call('diagnostics:show-in-folder').then(
      (shown) =>
        shown ||
        setState({
          phase: 'failed',
          message: 'RosterDesk could not find the diagnostics file. Save it again.',
        }),
      (error: unknown) => setState({ phase: 'failed', message: errorMessage(error) }),
    )
  }, [client])
  if (state.phase === 'idle') return null
  return (
    <div className={`export-status${state.phase === 'failed' ? ' message-error' : ''}`} role="status">
      {state.phase === 'saving' && <span>Saving diagnostics…</span>}
      {state.phase === 'written' && (
        <>
          <span>
            Diagnostics saved to <strong className="identifier">{state.fileName}</strong>. Send this file to
            your IT department; it holds no employee data, passwords or sign-in details
            {state.replaced > 0
              ? ` (${plural(state.replaced, 'value')} that looked personal were removed)`
              : ''}
            .
          </span>
          <button type="button" onClick={showInFolder}>
            Show in folder
          </button>
        </>
      )}
      {state.phase === 'failed' && <span role="alert">{state.message}</span>}
      {state.phase !== 'saving' && (
        <button type="button" className="link" onClick={() => setState({ phase: 'idle' })}>
          Dismiss
        </button>
      )}
    </div>
  )
}
