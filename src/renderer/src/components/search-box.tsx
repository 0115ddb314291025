import type { RefObject } from 'react'

interface SearchBoxProps {
  readonly value: string
  readonly onChange: (value: string) => void
  readonly inputRef: RefObject<HTMLInputElement | null>
}

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)

/** Free-text search over every column; Ctrl/Cmd+F focuses it (see useFindShortcut). */
export function SearchBox({ value, onChange, inputRef }: SearchBoxProps) {
  return (
    <div className="search-box">
      <label htmlFor="employee-search" className="visually-hidden">
        Search employees
      </label>
      <input
        id="employee-search"
        ref={inputRef}
        type="search"
        value={value}
        placeholder={`Search by name or UUID (${isMac ? '⌘' : 'Ctrl+'}F)`}
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
