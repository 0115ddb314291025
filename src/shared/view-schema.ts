import * as z from 'zod/mini'
import { COLUMN_NAME_MAX_LENGTH, MAX_COLUMNS } from './column-names'

/**
 * The one schema of a browse view: what the clerk searched, filtered, sorted and which columns showed, kept per
 * profile as the "current" view (restored after a reload, a restart or signing in again) and under a name as a
 * saved view (applied from the views menu, used as a roster template, and by the CLI's `--view NAME`). Main's
 * store, the IPC contract, the renderer and the CLI all read it from here, and the renderer tests' fake core
 * applies the same list rules (saveViewIn, renameViewIn, deleteViewIn), so a rule and its message exist once.
 *
 * Written with zod/mini because the renderer bundles this file (see settings-schema.ts).
 */

export const VIEW_LIMITS = {
  /** As many characters as an employees query's text takes. */
  text: 200,
  /** Statuses or pay cycles one view filters on, and the length of each (as an employees query takes). */
  values: 50,
  valueLength: 100,
  /** Columns a layout holds: as many as an export of the view writes (column-names.ts). */
  columns: MAX_COLUMNS,
  /** A column's width in CSS pixels: narrower is unreadable, wider than any screen is a mistake. */
  widthMin: 24,
  widthMax: 2000,
  /** Saved views per profile: enough for every client report a bureau runs, few enough to pick from a menu. */
  saved: 100,
  nameLength: 60,
} as const

/** A column's name as the cache lists it: any characters (column-names.ts); main looks it up where it is used. */
const columnName = z.string().check(z.maxLength(COLUMN_NAME_MAX_LENGTH))
const filterValues = z
  .array(z.string().check(z.maxLength(VIEW_LIMITS.valueLength)))
  .check(z.maxLength(VIEW_LIMITS.values))

/** The table's columns: the shown keys in order, and the widths the clerk dragged them to (others: default). */
export const columnLayoutSchema = z.strictObject({
  keys: z.array(columnName).check(z.minLength(1), z.maxLength(VIEW_LIMITS.columns)),
  widths: z
    .record(columnName, z.number().check(z.int(), z.gte(VIEW_LIMITS.widthMin), z.lte(VIEW_LIMITS.widthMax)))
    .check(
      z.refine((widths) => Object.keys(widths).length <= VIEW_LIMITS.columns, 'Too many column widths.'),
    ),
})
export type ColumnLayout = z.infer<typeof columnLayoutSchema>

export const viewSortSchema = z.strictObject({
  column: columnName,
  order: z.enum(['asc', 'desc']),
})

/** Everything a browse view is, without the window of rows on screen. */
export const viewStateSchema = z.strictObject({
  /** The search box as typed (an employees query trims it). */
  text: z.string().check(z.maxLength(VIEW_LIMITS.text)),
  /** "Search in": one column; absent: names and identifiers. */
  searchColumn: z.optional(columnName),
  statuses: filterValues,
  payCycleIds: filterValues,
  sort: z.optional(viewSortSchema),
  /** Absent: the table's default columns. */
  columns: z.optional(columnLayoutSchema),
})
export type ViewState = z.infer<typeof viewStateSchema>

export const EMPTY_VIEW_STATE: ViewState = { text: '', statuses: [], payCycleIds: [] }

export const savedViewSchema = z.strictObject({
  /** `v1`, `v2`, … within a profile; stable across renames. */
  id: z.string().check(z.regex(/^v[0-9]{1,9}$/)),
  name: z.string().check(z.minLength(1), z.maxLength(VIEW_LIMITS.nameLength)),
  state: viewStateSchema,
  /** When it was last saved (ISO 8601). */
  savedAt: z.string(),
})
export type SavedView = z.infer<typeof savedViewSchema>

/** Spaces trimmed and runs of them made one, so "Leavers  Nov" and "Leavers Nov" are one name. */
export function normalizeViewName(name: string): string {
  return name.trim().replace(/\s+/g, ' ')
}

/**
 * Why a (normalized) view name cannot be used, worded for a clerk, or undefined. Names are unique ignoring case,
 * because a clerk (and `--view NAME`) picks a view by its name.
 */
export function viewNameProblem(name: string, otherNames: readonly string[]): string | undefined {
  if (name === '') return 'Enter a name for the view.'
  if (name.length > VIEW_LIMITS.nameLength) {
    return `Use at most ${VIEW_LIMITS.nameLength} characters for the view's name.`
  }
  const lower = name.toLowerCase()
  if (otherNames.some((other) => other.toLowerCase() === lower)) return `A view named "${name}" exists.`
  return undefined
}

/** The saved view named `name`, ignoring case and extra spaces (how the menu and `--view NAME` find one). */
export function findViewByName(views: readonly SavedView[], name: string): SavedView | undefined {
  const wanted = normalizeViewName(name).toLowerCase()
  return views.find((view) => view.name.toLowerCase() === wanted)
}

/** Saved views in the order the menu lists them: by name, as a clerk reads a list. */
export function sortViews(views: readonly SavedView[]): SavedView[] {
  return [...views].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
}

/** What a list change answers: the new list, or the clerk's problem ('not-found' when the view is gone). */
export type ViewListChange =
  | { readonly ok: true; readonly views: SavedView[]; readonly view: SavedView }
  | { readonly ok: false; readonly code: 'validation' | 'not-found'; readonly problem: string }

/**
 * Saves `state` under `name`. A name already used is replaced only when `replace` is set (the menu asks the clerk
 * first); the replaced view keeps its id. New views take the next free id.
 */
export function saveViewIn(
  views: readonly SavedView[],
  input: {
    readonly name: string
    readonly state: ViewState
    readonly replace: boolean
    readonly savedAt: string
  },
): ViewListChange {
  const name = normalizeViewName(input.name)
  const existing = findViewByName(views, name)
  if (existing !== undefined && !input.replace) {
    return { ok: false, code: 'validation', problem: `A view named "${existing.name}" exists. Replace it?` }
  }
  const problem = viewNameProblem(
    name,
    views.filter((view) => view !== existing).map((view) => view.name),
  )
  if (problem !== undefined) return { ok: false, code: 'validation', problem }
  if (existing === undefined && views.length >= VIEW_LIMITS.saved) {
    return {
      ok: false,
      code: 'validation',
      problem: `A profile keeps at most ${VIEW_LIMITS.saved} saved views. Delete one you no longer use first.`,
    }
  }
  const view: SavedView = {
    id: existing?.id ?? nextViewId(views),
    name,
    state: structuredClone(input.state),
    savedAt: input.savedAt,
  }
  return {
    ok: true,
    view,
    views: existing === undefined ? [...views, view] : views.map((v) => (v === existing ? view : v)),
  }
}

export function renameViewIn(views: readonly SavedView[], id: string, name: string): ViewListChange {
  const target = views.find((view) => view.id === id)
  if (target === undefined) return { ok: false, code: 'not-found', problem: 'That view no longer exists.' }
  const normalized = normalizeViewName(name)
  const problem = viewNameProblem(
    normalized,
    views.filter((view) => view.id !== id).map((view) => view.name),
  )
  if (problem !== undefined) return { ok: false, code: 'validation', problem }
  const view = { ...target, name: normalized }
  return { ok: true, view, views: views.map((v) => (v.id === id ? view : v)) }
}

export function deleteViewIn(views: readonly SavedView[], id: string): ViewListChange {
  const target = views.find((view) => view.id === id)
  if (target === undefined) return { ok: false, code: 'not-found', problem: 'That view no longer exists.' }
  return { ok: true, view: target, views: views.filter((view) => view.id !== id) }
}

function nextViewId(views: readonly SavedView[]): string {
  return `v${Math.max(0, ...views.map((view) => Number(view.id.slice(1)) || 0)) + 1}`
}

/**
 * Reads what a stored file holds: entries that do not parse (a hand-edited file, a field a newer release added)
 * are skipped one by one, so one bad view never costs the clerk the others.
 */
export function readSavedViews(value: unknown): SavedView[] {
  if (!Array.isArray(value)) return []
  const views: SavedView[] = []
  for (const entry of value as unknown[]) {
    const parsed = savedViewSchema.safeParse(entry)
    if (!parsed.success) continue
    const name = normalizeViewName(parsed.data.name)
    if (views.some((view) => view.id === parsed.data.id) || findViewByName(views, name) !== undefined)
      continue
    views.push({ ...parsed.data, name })
  }
  return views.slice(0, VIEW_LIMITS.saved)
}

/** The stored current view, or undefined when none is stored or it no longer reads. */
export function readViewState(value: unknown): ViewState | undefined {
  const parsed = viewStateSchema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

/**
 * Two states are the same view when they would show the same table: the same search (text as an employees query
 * trims it), the same filters in any order, sort and columns. The menu says a saved view is "changed" otherwise.
 */
export function sameViewState(a: ViewState, b: ViewState): boolean {
  return canonicalView(a) === canonicalView(b)
}

function canonicalView(state: ViewState): string {
  const text = state.text.trim()
  return JSON.stringify([
    text,
    text === '' ? null : (state.searchColumn ?? null),
    [...state.statuses].sort(),
    [...state.payCycleIds].sort(),
    state.sort === undefined ? null : [state.sort.column, state.sort.order],
    state.columns === undefined
      ? null
      : [state.columns.keys, Object.entries(state.columns.widths).sort(([x], [y]) => (x < y ? -1 : 1))],
  ])
}
