import { useCallback, useEffect, useMemo, useState } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { isMoneyColumn } from '../../../shared/money'
import { columnLayoutSchema, VIEW_LIMITS, type ColumnLayout } from '../../../shared/view-schema'
import type { EmployeeFilters } from '../data/employee-filters'
import { forgetLegacyColumns, readLegacyColumns } from '../data/legacy-column-layout'

export type { ColumnLayout } from '../../../shared/view-schema'

/** Wide identifiers are in the detail panel; the table starts with what a clerk scans for. */
const HIDDEN_BY_DEFAULT = new Set(['UUID', 'managerUUID'])
const DEFAULT_COUNT = 8
/** Clerks look people up by surname, so the name columns lead whatever order main lists them in. */
const KNOWN_ORDER = ['lastName', 'firstName', 'employeeStatus', 'UUID']
/** The columns that stay in view while the table scrolls right, when they lead it. */
export const FROZEN_KEYS: ReadonlySet<string> = new Set(['lastName', 'firstName'])

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

/** How many of the leading shown columns are frozen: the name columns, as long as nothing is put before them. */
export function frozenCount(keys: readonly string[]): number {
  let count = 0
  while (count < keys.length && FROZEN_KEYS.has(keys[count] ?? '')) count += 1
  return count
}

/** A layout as the view schema takes it, or undefined when it is not one (an older or damaged value). */
export function parseColumnLayout(value: unknown): ColumnLayout | undefined {
  const parsed = columnLayoutSchema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

/** The pay cycle's field: with the money columns, the pay data a clerk checks a roster by. */
export const PAY_CYCLE_FIELD = 'payCycleId'
/** The status's field, which the Status filter chooses by. */
const STATUS_FIELD = 'employeeStatus'

/**
 * The columns (by key) the clerk sorted or filtered on, the sorted one first: the column searched in ("Search in"),
 * the status and the pay cycle when their filters are on. What the table keeps in view beside the detail panel.
 */
export function keptColumns(filters: EmployeeFilters): string[] {
  const keys = [
    filters.sort?.column,
    filters.text.trim() === '' ? undefined : filters.searchColumn,
    filters.statuses.length > 0 ? STATUS_FIELD : undefined,
    filters.payCycleIds.length > 0 ? PAY_CYCLE_FIELD : undefined,
  ]
  return [...new Set(keys.filter((key) => key !== undefined))]
}

/** The default columns before the pay data: who the employee is. */
const DEFAULT_LEAD = ['lastName', 'firstName', 'employeeStatus', 'employeeNumber']
/** The default columns after the pay data, when the service sends them, before any other discovered field. */
const DEFAULT_AFTER_PAY = ['department', 'hireDate', 'jobTitle', 'email']

/** Whether a column is pay data: the pay cycle or an amount of money (what "Hide pay" hides is `isMoneyColumn`). */
export function isPayColumn(column: ColumnInfo): boolean {
  return column.key === PAY_CYCLE_FIELD || isMoneyColumn(column)
}

/**
 * The default columns: who the employee is (names, status, number), then the pay data the service sends (pay
 * cycle, money), then other fields, up to a count whose default widths (column-width.ts) show last name through
 * the pay data at 1366 px without scrolling sideways.
 */
export function defaultVisibleColumns(columns: readonly ColumnInfo[]): string[] {
  const rank = (column: ColumnInfo): number => {
    const lead = DEFAULT_LEAD.indexOf(column.key)
    if (lead !== -1) return lead
    // The pay cycle, then the amounts it pays.
    if (column.key === PAY_CYCLE_FIELD) return DEFAULT_LEAD.length
    if (isPayColumn(column)) return DEFAULT_LEAD.length + 1
    const after = DEFAULT_AFTER_PAY.indexOf(column.key)
    return DEFAULT_LEAD.length + 2 + (after === -1 ? DEFAULT_AFTER_PAY.length : after)
  }
  return orderColumns(columns)
    .filter((column) => !HIDDEN_BY_DEFAULT.has(column.key))
    .map((column, position) => ({ column, position }))
    .sort((a, b) => rank(a.column) - rank(b.column) || a.position - b.position)
    .slice(0, DEFAULT_COUNT)
    .map(({ column }) => column.key)
}

/** A width dragged by the clerk, kept within what the layout schema accepts. */
export function clampWidth(px: number): number {
  return Math.min(VIEW_LIMITS.widthMax, Math.max(VIEW_LIMITS.widthMin, Math.round(px)))
}

/** `keys` with `key` moved to position `to` (clamped); unchanged when `key` is not among them. */
export function moveKey(keys: readonly string[], key: string, to: number): string[] {
  const from = keys.indexOf(key)
  if (from === -1) return [...keys]
  const rest = keys.filter((item) => item !== key)
  const at = Math.min(rest.length, Math.max(0, to))
  return [...rest.slice(0, at), key, ...rest.slice(at)]
}

interface Chosen {
  readonly layout: ColumnLayout
  /** The first release's list of keys: shown in the known order rather than as listed. */
  readonly legacy: boolean
}

export interface VisibleColumns {
  /** The shown columns in on-screen order. */
  readonly visible: readonly ColumnInfo[]
  /** The layout as shown: keys the data no longer has are left out, the default when none was chosen. */
  readonly layout: ColumnLayout
  /**
   * The layout the browse view keeps (main's current view), or undefined while there is none to keep: the shown
   * one once the data's columns are read; before that only one restored or chosen, as it is, so a layout cut down
   * to the fallback columns (or their default) never replaces the kept one.
   */
  readonly viewLayout: ColumnLayout | undefined
  /** How many leading columns stay in view while scrolling right. */
  readonly frozen: number
  isVisible(key: string): boolean
  toggle(key: string): void
  /** Moves a shown column to position `to` of the shown ones. */
  move(key: string, to: number): void
  /** Sets a column's width in CSS pixels. */
  setWidth(key: string, px: number): void
  /** Replaces the whole layout (a saved view applies its own this way); undefined: the default. */
  setLayout(layout: ColumnLayout | undefined): void
  /**
   * Shows the layout main kept for `profileId` (views:get-current). With none, the first profile takes the list the
   * first release kept in this window's storage, which is forgotten once the view holds it.
   */
  restore(layout: ColumnLayout | undefined, profileId: string): void
  reset(): void
}

/**
 * Which columns the table shows, in which order and how wide; never fewer than one. The layout lives in the
 * browse view's state (main keeps it per profile, see use-view-state.ts): this hook holds it while on screen and
 * keeps nothing itself. `columnsRead`: `columns` are the data's own, not the fallback used until main answers.
 */
export function useVisibleColumns(columns: readonly ColumnInfo[], columnsRead: boolean): VisibleColumns {
  const [chosen, setChosen] = useState<Chosen>()

  const layout = useMemo((): ColumnLayout => {
    const available = new Set(columns.map((column) => column.key))
    let picked = (chosen?.layout.keys ?? []).filter((key) => available.has(key))
    if (chosen?.legacy === true) {
      const order = orderColumns(columns).map((column) => column.key)
      picked = order.filter((key) => picked.includes(key))
    }
    const keys = picked.length > 0 ? picked : defaultVisibleColumns(columns)
    const widths = Object.fromEntries(
      Object.entries(chosen?.layout.widths ?? {}).filter(([key]) => available.has(key)),
    )
    return { keys, widths }
  }, [chosen, columns])
  const viewLayout = columnsRead ? layout : chosen?.legacy === false ? chosen.layout : undefined
  const visible = useMemo(() => {
    const byKey = new Map(columns.map((column) => [column.key, column]))
    return layout.keys.flatMap((key) => {
      const column = byKey.get(key)
      return column === undefined ? [] : [column]
    })
  }, [columns, layout])

  // The first release's list is forgotten in the commit that hands the view its ordered layout to keep.
  const migrated = chosen?.legacy === true && columnsRead
  useEffect(() => {
    if (migrated) forgetLegacyColumns()
  }, [migrated])

  const setLayout = useCallback((next: ColumnLayout | undefined) => {
    const valid = next === undefined ? undefined : parseColumnLayout(next)
    if (next !== undefined && valid === undefined) return
    setChosen(valid === undefined ? undefined : { layout: valid, legacy: false })
  }, [])
  const restore = useCallback((kept: ColumnLayout | undefined, profileId: string) => {
    const valid = kept === undefined ? undefined : parseColumnLayout(kept)
    const keys = readLegacyColumns(profileId)
    if (valid !== undefined) {
      // Main's layout is the newer one: the first release's list has nothing left to give.
      if (keys !== undefined) forgetLegacyColumns()
      setChosen({ layout: valid, legacy: false })
      return
    }
    const legacy = keys === undefined ? undefined : parseColumnLayout({ keys, widths: {} })
    if (legacy !== undefined) setChosen({ layout: legacy, legacy: true })
  }, [])
  const toggle = useCallback(
    (key: string) => {
      const keys = layout.keys.includes(key)
        ? layout.keys.filter((item) => item !== key)
        : [...layout.keys, key]
      if (keys.length === 0) return
      setLayout({ ...layout, keys })
    },
    [layout, setLayout],
  )
  const move = useCallback(
    (key: string, to: number) => setLayout({ ...layout, keys: moveKey(layout.keys, key, to) }),
    [layout, setLayout],
  )
  const setWidth = useCallback(
    (key: string, px: number) =>
      setLayout({ ...layout, widths: { ...layout.widths, [key]: clampWidth(px) } }),
    [layout, setLayout],
  )
  const reset = useCallback(() => setLayout(undefined), [setLayout])
  const shown = useMemo(() => new Set(layout.keys), [layout])
  return {
    visible,
    layout,
    viewLayout,
    frozen: frozenCount(layout.keys),
    isVisible: (key) => shown.has(key),
    toggle,
    move,
    setWidth,
    setLayout,
    restore,
    reset,
  }
}
