/**
 * Remembers what has the focus now and returns a function that gives it back, for a panel, dialog or export that
 * takes the focus (or disables the button that had it) and must not leave the clerk on the page's start when it
 * ends. `fallback` is focused instead when the remembered element is gone (its row scrolled away, its button hid).
 */
export function rememberFocus(fallback?: () => HTMLElement | null | undefined): () => void {
  const active = document.activeElement
  const remembered = active instanceof HTMLElement && active !== document.body ? active : undefined
  return () => {
    const target =
      remembered !== undefined && remembered.isConnected && !isDisabled(remembered)
        ? remembered
        : fallback?.()
    target?.focus({ preventScroll: false })
  }
}

function isDisabled(element: HTMLElement): boolean {
  return element.matches(':disabled') || element.closest('[hidden], [inert]') !== null
}
