import { useCallback, useRef, useState } from 'react'
import type { ExportRequest } from '../../../shared/domain/export'
import { errorCode, errorMessage } from '../api/client'
import { displayLocale } from '../format/display-locale'
import { usePayDisplay } from './use-pay-display'
import { useClient } from '../api/client-context'

export type PrintState =
  | { readonly phase: 'idle' }
  /** Main is building the page, or the system print dialog is open. */
  | { readonly phase: 'printing' }
  /** Printed with only the first `rows` of the view's `total` (the page says so too). */
  | { readonly phase: 'cut'; readonly rows: number; readonly total: number }
  | { readonly phase: 'failed'; readonly message: string }

export interface PrintController {
  readonly state: PrintState
  /** Prints what `request` would export, through main's print page and the system print dialog. */
  print(request: ExportRequest): void
  dismiss(): void
}

/** "Print…": one print at a time; the dialog's own outcome (printed, cancelled) needs no message of ours. */
export function usePrint(): PrintController {
  const client = useClient()
  const { currency } = usePayDisplay()
  const [state, setState] = useState<PrintState>({ phase: 'idle' })
  // A second Ctrl+P while the dialog is open does nothing (main would refuse it as busy anyway).
  const printing = useRef(false)
  const print = useCallback(
    (request: ExportRequest) => {
      if (printing.current) return
      printing.current = true
      setState({ phase: 'printing' })
      client
        // The page follows the regional formats the screen shows, and its currency setting.
        .call('export:print', request, {
          locale: displayLocale(),
          ...(currency === '' ? {} : { currency }),
        })
        .then(
          (result) =>
            setState(
              result.status === 'printed' && result.rows < result.total
                ? { phase: 'cut', rows: result.rows, total: result.total }
                : { phase: 'idle' },
            ),
          (error: unknown) =>
            setState(
              errorCode(error) === 'cancelled'
                ? { phase: 'idle' }
                : { phase: 'failed', message: errorMessage(error) },
            ),
        )
        .finally(() => {
          printing.current = false
        })
    },
    [client, currency],
  )
  const dismiss = useCallback(() => setState({ phase: 'idle' }), [])
  return { state, print, dismiss }
}
