import { useCallback, useEffect, type KeyboardEvent, type RefObject } from 'react'
import { rememberFocus } from '../focus/focus-return'

/**
 * The modal dialogs open now, the newest last. Only the newest keeps the focus and hears Esc: a dialog can open
 * over another (a proxy's sign-in request during a sync, while the roster dialog is open), and two that each pulled
 * the focus back into themselves would pass it to and fro for ever, and one Esc would close both.
 */
const openDialogs: HTMLElement[] = []
const isNewest = (dialog: HTMLElement | null): boolean => dialog !== null && openDialogs.at(-1) === dialog

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * The keyboard manners of a modal dialog (WAI-ARIA's dialog pattern) for the element `ref` holds: focus moves
 * into it when it opens (to the element marked `data-autofocus`, else the dialog itself), Esc closes it, and
 * focus returns to whatever opened it when it closes (`rememberFocus`). Returns the dialog's keydown handler,
 * which keeps Tab cycling within it. Every modal dialog uses this one hook; when one opens over another, the newer
 * one alone does all this until it closes (`openDialogs`).
 */
export function useModalDialog<E extends HTMLElement>(
  ref: RefObject<E | null>,
  onClose: () => void,
): (event: KeyboardEvent<E>) => void {
  useEffect(() => {
    const giveFocusBack = rememberFocus()
    const dialog = ref.current
    if (dialog !== null) openDialogs.push(dialog)
    ;(dialog?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog)?.focus()
    // A click on the backdrop leaves the focus on the page's body, where Tab would walk into the page behind
    // the dialog: focus that arrives anywhere outside is brought back in.
    const keepFocusIn = (event: FocusEvent): void => {
      if (!isNewest(dialog) || !(event.target instanceof Node)) return
      if (dialog !== null && !dialog.contains(event.target)) dialog.focus()
    }
    document.addEventListener('focusin', keepFocusIn)
    return () => {
      document.removeEventListener('focusin', keepFocusIn)
      const index = dialog === null ? -1 : openDialogs.lastIndexOf(dialog)
      if (index !== -1) openDialogs.splice(index, 1)
      giveFocusBack()
    }
  }, [ref])

  // Esc is heard on the document, so it closes the dialog even when the focus fell out of it (onto the page's
  // body when the focused control went away); a control that uses Esc itself prevents its default first.
  useEffect(() => {
    const onEscape = (event: globalThis.KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented && isNewest(ref.current)) onClose()
    }
    document.addEventListener('keydown', onEscape)
    return () => document.removeEventListener('keydown', onEscape)
  }, [onClose, ref])

  return useCallback(
    (event: KeyboardEvent<E>) => {
      const dialog = ref.current
      if (event.key !== 'Tab' || dialog === null) return
      const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)]
      const first = focusable[0]
      const last = focusable.at(-1)
      if (first === undefined || last === undefined) return
      const active = document.activeElement
      if (event.shiftKey && (active === first || active === dialog)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && active === last) {
        event.preventDefault()
        first.focus()
      }
    },
    [ref],
  )
}
