import { useEffect, type RefObject } from 'react'
import { findShortcut, SEARCH_SHORTCUTS } from '../../../shared/shortcuts'
import { isMac } from './use-app-commands'

/** Ctrl+F (Cmd+F on macOS) moves the focus to the search box instead of the browser's find bar. */
export function useFindShortcut(target: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (findShortcut(event, SEARCH_SHORTCUTS, isMac) !== 'find') return
      const input = target.current
      if (!input) return
      event.preventDefault()
      input.focus()
      input.select()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [target])
}
