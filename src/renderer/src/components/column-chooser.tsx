import { useEffect, useRef, useState } from 'react'
import type { ColumnInfo } from '../../../shared/domain'
import { orderColumns, type VisibleColumns } from '../hooks/use-visible-columns'

interface ColumnChooserProps {
  readonly columns: readonly ColumnInfo[]
  readonly visible: VisibleColumns
}

/** Picks the table's columns from every field the data has, the discovered ones included. */
export function ColumnChooser({ columns, visible }: ColumnChooserProps) {
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    const onPointer = (event: MouseEvent): void => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('mousedown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('mousedown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  return (
    <div className="column-chooser" ref={root}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="column-chooser-list"
        onClick={() => setOpen(!open)}
      >
        Columns
      </button>
      {open && (
        <div className="popover" id="column-chooser-list">
          <fieldset>
            <legend>Show columns</legend>
            {orderColumns(columns).map((column) => (
              <label key={column.key} className="column-option">
                <input
                  type="checkbox"
                  checked={visible.isVisible(column.key)}
                  onChange={() => visible.toggle(column.key)}
                />
                {column.label}
                {column.known ? null : <span className="muted small"> (from data)</span>}
              </label>
            ))}
          </fieldset>
          <button type="button" className="link" onClick={visible.reset}>
            Reset columns
          </button>
        </div>
      )}
    </div>
  )
}
