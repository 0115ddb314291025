import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { formatCount } from '../format/format-value'
import { usePayDisplay } from '../hooks/use-pay-display'
import { orderColumns, type VisibleColumns } from '../hooks/use-visible-columns'
import { isMoneyColumn } from '../../../shared/money'

interface ColumnChooserProps {
  readonly columns: readonly ColumnInfo[]
  readonly visible: VisibleColumns
}

/** Hidden fields listed at once: a service may send thousands, and the search box narrows them. */
export const MAX_LISTED_FIELDS = 50

function matches(column: ColumnInfo, needle: string): boolean {
  return (
    needle === '' || column.label.toLowerCase().includes(needle) || column.key.toLowerCase().includes(needle)
  )
}

interface ShownColumnsProps {
  readonly shown: readonly ColumnInfo[]
  readonly needle: string
  readonly visible: VisibleColumns
  readonly onMove: (key: string, to: number, direction: 'up' | 'down') => void
}

/**
 * The shown columns in table order, those matching the search, each with Move left / Move right; a money column
 * shown while "Hide pay" is on says that it is hidden.
 */
function ShownColumns({ shown, needle, visible, onMove }: ShownColumnsProps) {
  const { hidePay } = usePayDisplay()
  return (
    <ol className="column-list" aria-label="Shown columns, in table order">
      {shown.map((column, index) =>
        matches(column, needle) ? (
          <li key={column.key} className="column-option">
            <label>
              <input
                type="checkbox"
                checked
                disabled={shown.length === 1}
                onChange={() => visible.toggle(column.key)}
              />
              {column.label}
              {hidePay && isMoneyColumn(column) ? (
                <span className="muted small"> (hidden by Hide pay)</span>
              ) : null}
            </label>
            <span className="move-buttons">
              <button
                type="button"
                className="icon-button"
                data-move="up"
                data-key={column.key}
                aria-label={`Move ${column.label} left`}
                title="Move left"
                disabled={index === 0}
                onClick={() => onMove(column.key, index - 1, 'up')}
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-button"
                data-move="down"
                data-key={column.key}
                aria-label={`Move ${column.label} right`}
                title="Move right"
                disabled={index === shown.length - 1}
                onClick={() => onMove(column.key, index + 1, 'down')}
              >
                ↓
              </button>
            </span>
          </li>
        ) : null,
      )}
    </ol>
  )
}

interface HiddenFieldsProps {
  readonly columns: readonly ColumnInfo[]
  readonly visible: VisibleColumns
  readonly label?: string
  readonly labelledBy?: string
}

/** A list of fields not shown, each with the checkbox that shows it. */
function HiddenFields({ columns, visible, label, labelledBy }: HiddenFieldsProps) {
  if (columns.length === 0) return null
  return (
    <ul className="column-list" aria-label={label} aria-labelledby={labelledBy}>
      {columns.map((column) => (
        <li key={column.key} className="column-option">
          <label>
            <input type="checkbox" checked={false} onChange={() => visible.toggle(column.key)} />
            {column.label}
          </label>
        </li>
      ))}
    </ul>
  )
}

/**
 * Picks the table's columns from every field the data has, the discovered ones included: the shown ones in table
 * order with Move up / Move down (the keyboard's way to reorder; the mouse can also drag headers), then the other
 * fields (the spec's own, then "More fields from the service"), found by a search box and listed a few dozen at a
 * time.
 */
export function ColumnChooser({ columns, visible }: ColumnChooserProps) {
  const [open, setOpen] = useState(false)
  const [search, setSearch] = useState('')
  const root = useRef<HTMLDivElement>(null)
  const toggleButton = useRef<HTMLButtonElement>(null)
  const searchId = useId()

  useEffect(() => {
    if (!open) return
    const onPointer = (event: MouseEvent): void => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return
      setOpen(false)
      toggleButton.current?.focus()
    }
    document.addEventListener('mousedown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('mousedown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const needle = search.trim().toLowerCase()
  const shown = visible.visible
  const hidden = useMemo(
    () => orderColumns(columns).filter((column) => !visible.isVisible(column.key) && matches(column, needle)),
    [columns, visible, needle],
  )
  const listed = hidden.slice(0, MAX_LISTED_FIELDS)
  // The spec's own fields, then the ones the service sends besides them (the data's own columns).
  const listedKnown = listed.filter((column) => column.known)
  const listedMore = listed.filter((column) => !column.known)
  const moreId = useId()

  /** Moves a column and keeps the focus on the same button of its new place, so repeated presses walk it along. */
  const move = (key: string, to: number, direction: 'up' | 'down'): void => {
    visible.move(key, to)
    requestAnimationFrame(() => {
      // The same button of the column's new place, or its other one once it reached an end.
      const buttons = [...(root.current?.querySelectorAll<HTMLButtonElement>('[data-move]') ?? [])].filter(
        (button) => button.dataset['key'] === key && !button.disabled,
      )
      ;(buttons.find((button) => button.dataset['move'] === direction) ?? buttons[0])?.focus()
    })
  }

  return (
    <div className="column-chooser" ref={root}>
      <button
        type="button"
        ref={toggleButton}
        aria-expanded={open}
        aria-controls="column-chooser-list"
        onClick={() => setOpen(!open)}
      >
        Columns
      </button>
      {open && (
        <div className="popover column-popover" id="column-chooser-list">
          <fieldset>
            <legend>Show columns</legend>
            <label htmlFor={searchId} className="visually-hidden">
              Find a column
            </label>
            <input
              id={searchId}
              type="search"
              className="column-search"
              placeholder="Find a column"
              value={search}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setSearch(event.target.value)}
            />
            <ShownColumns shown={shown} needle={needle} visible={visible} onMove={move} />
            <HiddenFields columns={listedKnown} label="Other fields" visible={visible} />
            {listedMore.length > 0 && (
              <>
                <p className="column-group-heading" id={moreId}>
                  More fields from the service
                </p>
                <HiddenFields columns={listedMore} labelledBy={moreId} visible={visible} />
              </>
            )}
            {hidden.length > listed.length && (
              <p className="muted small" role="status">
                {formatCount(hidden.length - listed.length)} more fields; type to narrow the list.
              </p>
            )}
            {needle !== '' && hidden.length === 0 && !shown.some((column) => matches(column, needle)) && (
              <p className="muted small" role="status">
                No column matches “{search.trim()}”.
              </p>
            )}
          </fieldset>
          <button type="button" className="link" onClick={visible.reset}>
            Reset columns
          </button>
        </div>
      )}
    </div>
  )
}
