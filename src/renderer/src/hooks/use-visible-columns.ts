import { useCallback, useMemo, useState } from 'react'
import type { ColumnInfo } from '../../../shared/domain'

const STORAGE_KEY = 'rosterdesk.visibleColumns'
/** Wide identifiers are in the detail panel; the table starts with what a clerk scans for. */
const HIDDEN_BY_DEFAULT = new Set(['UUID', 'managerUUID'])
const DEFAULT_COUNT = 8
/** Clerks look people up by surname, so the name columns lead whatever order main lists them in. */
const KNOWN_ORDER = ['lastName', 'firstName', 'employeeStatus', 'UUID']

/** Known columns in reading order, then discovered ones in the order main found them. */
export function orderColumns(columns: readonly ColumnInfo[]): ColumnInfo[] {
  const rank = (column: ColumnInfo): number => {
    const index = KNOWN_ORDER.indexOf(column.key)
    return column.known ? (index === -1 ? KNOWN_ORDER.length : index) : KNOWN_ORDER.length + 1
  }
  return columns
    .map((column, position) => ({ column, position }))
    .sort((a, b) => rank(a.column) - rank(b.column) || a.position - b.position)
    .map(({ column }) => column)
}

function readStored(): string[] | undefined {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY)
    const parsed: unknown = raw === null ? undefined : JSON.parse(raw)
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined
  } catch {
    return undefined
  }
}

function store(keys: readonly string[]): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(keys))
  } catch {
    // Storage can be unavailable; the choice then lasts for this session only.
  }
}

/** The default columns: the known ones first, then discovered fields, up to a width that fits a laptop. */
export function defaultVisibleColumns(columns: readonly ColumnInfo[]): string[] {
  return orderColumns(columns)
    .filter((column) => !HIDDEN_BY_DEFAULT.has(column.key))
    .slice(0, DEFAULT_COUNT)
    .map((column) => column.key)
}

export interface VisibleColumns {
  /** The shown columns in table order (see orderColumns). */
  readonly visible: readonly ColumnInfo[]
  isVisible(key: string): boolean
  toggle(key: string): void
  reset(): void
}

/** Which columns the table shows; remembered between sessions, and never fewer than one. */
export function useVisibleColumns(columns: readonly ColumnInfo[]): VisibleColumns {
  const [chosen, setChosen] = useState<string[] | undefined>(readStored)
  const keys = useMemo(() => {
    const available = new Set(columns.map((column) => column.key))
    const picked = (chosen ?? defaultVisibleColumns(columns)).filter((key) => available.has(key))
    return new Set(picked.length > 0 ? picked : defaultVisibleColumns(columns))
  }, [chosen, columns])
  const visible = useMemo(
    () => orderColumns(columns).filter((column) => keys.has(column.key)),
    [columns, keys],
  )

  const toggle = useCallback(
    (key: string) => {
      const next = keys.has(key) ? [...keys].filter((item) => item !== key) : [...keys, key]
      if (next.length === 0) return
      setChosen(next)
      store(next)
    },
    [keys],
  )
  const reset = useCallback(() => {
    setChosen(undefined)
    try {
      window.localStorage.removeItem(STORAGE_KEY)
    } catch {
      // Nothing stored to forget.
    }
  }, [])
  return { visible, isVisible: (key) => keys.has(key), toggle, reset }
}
