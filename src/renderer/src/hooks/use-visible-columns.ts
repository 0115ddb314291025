import { useCallback, useMemo, useState } from 'react'
import type { ColumnInfo } from '../../../shared/domain'
import { columnLayoutSchema, VIEW_LIMITS, type ColumnLayout } from '../../../shared/view-schema'

export type { ColumnLayout } from '../../../shared/view-schema'

/** One layout per profile; the first profile also reads what a release before profiles kept (its bare key). */
const STORAGE_KEY = 'rosterdesk.visibleColumns'
const FIRST_PROFILE = 'p1'
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

export function layoutStorageKey(profileId: string): string {
  return `${STORAGE_KEY}.${profileId}`
}

/** A stored layout, or undefined when there is none or it is not one (an older or damaged value). */
export function parseColumnLayout(value: unknown): ColumnLayout | undefined {
  const parsed = columnLayoutSchema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

function readJson(key: string): unknown {
  const raw = window.localStorage.getItem(key)
  return raw === null ? undefined : JSON.parse(raw)
}

interface StoredLayout {
  readonly layout: ColumnLayout
  /** Kept by a release before layouts: a set of keys, shown in the known order rather than as listed. */
  readonly legacy: boolean
}

function readStored(profileId: string): StoredLayout | undefined {
  try {
    const own = readJson(layoutStorageKey(profileId))
    if (own !== undefined) {
      const layout = parseColumnLayout(own)
      return layout === undefined ? undefined : { layout, legacy: false }
    }
    if (profileId !== FIRST_PROFILE) return undefined
    const legacy = readJson(STORAGE_KEY)
    const layout =
      Array.isArray(legacy) && legacy.length > 0 && legacy.every((key) => typeof key === 'string')
        ? parseColumnLayout({ keys: legacy, widths: {} })
        : undefined
    return layout === undefined ? undefined : { layout, legacy: true }
  } catch {
    return undefined
  }
}

function store(profileId: string, layout: ColumnLayout | undefined): void {
  try {
    if (layout === undefined) window.localStorage.removeItem(layoutStorageKey(profileId))
    else window.localStorage.setItem(layoutStorageKey(profileId), JSON.stringify(layout))
  } catch {
    // Storage can be unavailable; the layout then lasts for this session only.
  }
}

/** The default columns: the known ones first, then discovered fields, up to a width that fits a laptop. */
export function defaultVisibleColumns(columns: readonly ColumnInfo[]): string[] {
  return orderColumns(columns)
    .filter((column) => !HIDDEN_BY_DEFAULT.has(column.key))
    .slice(0, DEFAULT_COUNT)
    .map((column) => column.key)
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

export interface VisibleColumns {
  /** The shown columns in on-screen order. */
  readonly visible: readonly ColumnInfo[]
  /** The layout as shown: keys the data no longer has are left out. A plain value, kept per profile. */
  readonly layout: ColumnLayout
  /** How many leading columns stay in view while scrolling right. */
  readonly frozen: number
  isVisible(key: string): boolean
  toggle(key: string): void
  /** Moves a shown column to position `to` of the shown ones. */
  move(key: string, to: number): void
  /** Sets a column's width in CSS pixels. */
  setWidth(key: string, px: number): void
  /** Replaces the whole layout (a saved view applies its own this way). */
  setLayout(layout: ColumnLayout | undefined): void
  reset(): void
}

/**
 * Which columns the table shows, in which order and how wide, remembered per profile (`profileId`) between
 * sessions; never fewer than one.
 */
export function useVisibleColumns(columns: readonly ColumnInfo[], profileId: string): VisibleColumns {
  // The workspace remounts on a profile switch; the id is kept with the layout all the same, so a layout can
  // never be shown (or saved) under another profile.
  const [chosen, setChosen] = useState(() => ({ profileId, stored: readStored(profileId) }))
  if (chosen.profileId !== profileId) setChosen({ profileId, stored: readStored(profileId) })
  const stored = chosen.profileId === profileId ? chosen.stored : undefined

  const layout = useMemo((): ColumnLayout => {
    const available = new Set(columns.map((column) => column.key))
    let picked = (stored?.layout.keys ?? []).filter((key) => available.has(key))
    if (stored?.legacy === true) {
      const order = orderColumns(columns).map((column) => column.key)
      picked = order.filter((key) => picked.includes(key))
    }
    const keys = picked.length > 0 ? picked : defaultVisibleColumns(columns)
    const widths = Object.fromEntries(
      Object.entries(stored?.layout.widths ?? {}).filter(([key]) => available.has(key)),
    )
    return { keys, widths }
  }, [stored, columns])
  const visible = useMemo(() => {
    const byKey = new Map(columns.map((column) => [column.key, column]))
    return layout.keys.flatMap((key) => {
      const column = byKey.get(key)
      return column === undefined ? [] : [column]
    })
  }, [columns, layout])

  const setLayout = useCallback(
    (next: ColumnLayout | undefined) => {
      const valid = next === undefined ? undefined : parseColumnLayout(next)
      if (next !== undefined && valid === undefined) return
      setChosen({ profileId, stored: valid === undefined ? undefined : { layout: valid, legacy: false } })
      store(profileId, valid)
    },
    [profileId],
  )
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
    frozen: frozenCount(layout.keys),
    isVisible: (key) => shown.has(key),
    toggle,
    move,
    setWidth,
    setLayout,
    reset,
  }
}
