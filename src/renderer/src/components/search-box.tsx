import type { RefObject } from 'react'
import type { ColumnInfo } from '../../../shared/domain'

interface SearchBoxProps {
  readonly value: string
  readonly onChange: (value: string) => void
  readonly inputRef: RefObject<HTMLInputElement | null>
  /** Columns the text can be looked for in, one at a time. */
  readonly columns: readonly ColumnInfo[]
  /** undefined: names and UUID. */
  readonly column: string | undefined
  readonly onColumnChange: (column: string | undefined) => void
}

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)

const NAMES = ''

/**
 * Prefix search over names and UUID, or over one chosen column (an employee number, a department); Ctrl/Cmd+F
 * focuses it (see useFindShortcut).
 */
export function SearchBox({ value, onChange, inputRef, columns, column, onColumnChange }: SearchBoxProps) {
  const chosen = columns.find((c) => c.key === column)
  const where = chosen === undefined ? 'name or UUID' : chosen.label.toLowerCase()
  return (
    <div className="search-box">
      <label htmlFor="employee-search-column" className="visually-hidden">
        Search in
      </label>
      <select
        id="employee-search-column"
        value={chosen?.key ?? NAMES}
        onChange={(event) => onColumnChange(event.target.value === NAMES ? undefined : event.target.value)}
      >
        <option value={NAMES}>Names and UUID</option>
        {columns.map((c) => (
          <option key={c.key} value={c.key}>
            {c.label}
          </option>
        ))}
      </select>
      <label htmlFor="employee-search" className="visually-hidden">
        Search employees
      </label>
      <input
        id="employee-search"
        ref={inputRef}
        type="search"
        value={value}
        placeholder={`Search by ${where} (${isMac ? '⌘' : 'Ctrl+'}F)`}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value !== '') {
            event.preventDefault()
            onChange('')
          }
        }}
      />
    </div>
  )
}
