import { useEffect, useRef, type KeyboardEvent } from 'react'

export interface MenuItem {
  readonly label: string
  /** Shown beside the label ("Ctrl+C"). */
  readonly hint?: string
  readonly disabled?: boolean
  /** Why it is disabled, read with it. */
  readonly reason?: string
  readonly run: () => void
}

interface RowContextMenuProps {
  /** Viewport coordinates of its top-left corner (the pointer, or the row for the keyboard). */
  readonly x: number
  readonly y: number
  readonly items: readonly MenuItem[]
  /** Closing without choosing (Esc, Tab, a click elsewhere) or after an item ran. */
  readonly onClose: () => void
}

/**
 * The rows' menu (right-click, the Menu key, Shift+F10): a WAI-ARIA menu that takes the focus, moves with the
 * arrows, Home and End, runs an item on Enter or Space, and closes on Esc, Tab or a click outside; the table then
 * puts the focus back on its row.
 */
export function RowContextMenu({ x, y, items, onClose }: RowContextMenuProps) {
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => {
    root.current?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')?.focus()
    const onPointer = (event: MouseEvent): void => {
      if (root.current && !root.current.contains(event.target as Node)) onClose()
    }
    document.addEventListener('mousedown', onPointer)
    window.addEventListener('blur', onClose)
    return () => {
      document.removeEventListener('mousedown', onPointer)
      window.removeEventListener('blur', onClose)
    }
  }, [onClose])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const entries = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
    const at = entries.indexOf(document.activeElement as HTMLElement)
    const go = (index: number): void => entries[(index + entries.length) % entries.length]?.focus()
    const moves: Record<string, () => void> = {
      ArrowDown: () => go(at + 1),
      ArrowUp: () => go(at - 1),
      Home: () => go(0),
      End: () => go(entries.length - 1),
      Escape: onClose,
      Tab: onClose,
    }
    const move = moves[event.key]
    if (move === undefined) return
    event.preventDefault()
    event.stopPropagation()
    move()
  }

  // Kept inside the window whatever the pointer's place (measured in rem-free px: the menu is about 15rem wide).
  const left = Math.max(0, Math.min(x, window.innerWidth - 260))
  const top = Math.max(0, Math.min(y, window.innerHeight - 40 * items.length))
  return (
    <div
      ref={root}
      className="row-menu"
      role="menu"
      aria-label="Row actions"
      style={{ left: `${left}px`, top: `${top}px` }}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          aria-disabled={item.disabled === true}
          title={item.reason}
          onClick={() => {
            if (item.disabled === true) return
            onClose()
            item.run()
          }}
        >
          <span>{item.label}</span>
          {item.hint !== undefined && <span className="menu-hint">{item.hint}</span>}
        </button>
      ))}
    </div>
  )
}
