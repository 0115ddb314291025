import { useEffect, useRef } from 'react'
import { rememberFocus } from '../focus/focus-return'

/**
 * When an export ends, the focus goes back where it was when it started (its button is disabled meanwhile), or to
 * the table's active cell when that control is gone or still disabled.
 */
export function useExportFocusReturn(running: boolean): void {
  const giveBack = useRef<() => void>(undefined)
  useEffect(() => {
    if (running) {
      giveBack.current ??= rememberFocus(() =>
        document.querySelector<HTMLElement>('.employee-grid [tabindex="0"]'),
      )
    } else {
      giveBack.current?.()
      giveBack.current = undefined
    }
  }, [running])
}
