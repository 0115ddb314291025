import type { RefObject } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { chordLabel, findShortcut, SEARCH_SHORTCUTS } from '../../../shared/shortcuts'
import { isMac } from '../hooks/use-app-commands'

interface SearchBoxProps {
  readonly value: string
  readonly onChange: (value: string) => void
  readonly inputRef: RefObject<HTMLInputElement | null>
  /** Columns the text can be looked for in, one at a time. */
  readonly columns: readonly ColumnInfo[]
  /** undefined: the default search (names and identifiers). */
  readonly column: string | undefined
  readonly onColumnChange: (column: string | undefined) => void
  /** ↓ or Enter: on to the results (the first row), as a spreadsheet's Enter moves down. */
  readonly onEnterResults: () => void
}

const NAMES = ''
/** The default search, as the "Search in" list and the placeholder name it. */
const NAMES_LABEL = 'Names and IDs'
const FIND_CHORD = SEARCH_SHORTCUTS.find((shortcut) => shortcut.id === 'find')?.chords[0]
const FIND_KEY = FIND_CHORD === undefined ? '' : chordLabel(FIND_CHORD, isMac)

/** A label inside a sentence: "Employee number" → "employee number", acronyms kept ("UUID"). */
function inSentence(label: string): string {
  const first = label.split(' ')[0] ?? ''
  return first.length > 1 && first === first.toUpperCase()
    ? label
    : label.charAt(0).toLowerCase() + label.slice(1)
}

/** "a, b or c" */
function listOf(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`
}

/**
 * The identifier columns the default search looks in, as words for a sentence: each column the cache marks as
 * an identifier (core/query/column-role.ts decides which), the UUID last: ["employee number", "email", "UUID"].
 */
function identifierWords(columns: readonly ColumnInfo[]): string[] {
  const others = columns.filter((c) => c.identifier !== undefined && c.identifier !== 'uuid')
  const uuid = columns.filter((c) => c.identifier === 'uuid')
  return [...others, ...uuid].map((c) => inSentence(c.label))
}

/**
 * The default search box's placeholder and its fuller hint (the box's title), true to the rules of the engine.
 * The placeholder says no more than the "Search in" list does ("Search names and IDs (Ctrl+F)"), so it shows
 * whole in the toolbar at 1366 px; listing every identifier column there ("…email or UI") was cut.
 */
export function defaultSearchText(columns: readonly ColumnInfo[]): { placeholder: string; hint: string } {
  const identifiers = identifierWords(columns)
  return {
    placeholder: `Search ${identifiers.length === 0 ? 'names' : inSentence(NAMES_LABEL)} (${FIND_KEY})`,
    hint:
      identifiers.length === 0
        ? 'Finds names in any word order'
        : `Finds names in any word order, and ${listOf(identifiers)} whole or from the start${
            columns.some((c) => c.identifier === 'uuid') ? ', and a pasted part of a UUID' : ''
          }`,
  }
}

/**
 * Search over names (any word order, accents and spellings like "Mueller" for Müller) and, whole or from their
 * start, the identifier columns and the UUID; or over one chosen column (a department). Ctrl/Cmd+F focuses it
 * (see useFindShortcut).
 */
export function SearchBox(props: SearchBoxProps) {
  const { value, onChange, inputRef, columns, column, onColumnChange, onEnterResults } = props
  const chosen = columns.find((c) => c.key === column)
  const everywhere = defaultSearchText(columns)
  const placeholder =
    chosen === undefined ? everywhere.placeholder : `Search by ${inSentence(chosen.label)} (${FIND_KEY})`
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
        <option value={NAMES}>{NAMES_LABEL}</option>
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
        placeholder={placeholder}
        title={chosen === undefined ? everywhere.hint : undefined}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value !== '') {
            event.preventDefault()
            onChange('')
          } else if (findShortcut(event, SEARCH_SHORTCUTS, isMac) === 'to-results') {
            event.preventDefault()
            onEnterResults()
          }
        }}
      />
    </div>
  )
}
