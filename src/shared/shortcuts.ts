/**
 * The keyboard shortcuts, one table: the renderer's key handlers match against it, the Help → Keyboard shortcuts
 * panel lists it, and the Electron menu takes its accelerators from it. Zod-free, so main and the renderer share it.
 */

/** What the menu and the keyboard can ask the window to do; main sends them on `app:command`. */
export const APP_COMMANDS = ['export', 'print', 'sync', 'settings', 'shortcuts'] as const
/** What only the menu asks the window to do (no key): Help → Save diagnostics…, Help → Export history. */
export const MENU_ONLY_COMMANDS = ['save-diagnostics', 'export-history'] as const
/** Every command main may send on `app:command`: the keyed ones and the menu's own. */
export const MENU_COMMANDS = [...APP_COMMANDS, ...MENU_ONLY_COMMANDS] as const
export type MenuCommand = (typeof MENU_COMMANDS)[number]
export type AppCommand = MenuCommand

export interface KeyChord {
  /** `KeyboardEvent.key`: lower case for letters ('e'), as the browser names the others ('F5', 'Home', ','). */
  readonly key: string
  /** Ctrl on Windows and Linux, Cmd on macOS. */
  readonly mod?: boolean
  readonly shift?: boolean
}

export interface Shortcut<Id extends string = string> {
  readonly id: Id
  readonly label: string
  readonly chords: readonly KeyChord[]
}

/** Anywhere in the window (and in the menu). The first chord is the menu's accelerator. */
export const APP_SHORTCUTS: readonly Shortcut<AppCommand>[] = [
  { id: 'export', label: 'Export the current view', chords: [{ key: 'e', mod: true }] },
  { id: 'print', label: 'Print the current view', chords: [{ key: 'p', mod: true }] },
  { id: 'sync', label: 'Sync now', chords: [{ key: 'r', mod: true }, { key: 'F5' }] },
  { id: 'settings', label: 'Open Settings', chords: [{ key: ',', mod: true }] },
  { id: 'shortcuts', label: 'Show keyboard shortcuts', chords: [{ key: '/', mod: true }] },
]

export type SearchAction = 'find' | 'to-results'

export const SEARCH_SHORTCUTS: readonly Shortcut<SearchAction>[] = [
  { id: 'find', label: 'Go to the search box', chords: [{ key: 'f', mod: true }] },
  {
    id: 'to-results',
    label: 'From the search box, go to the first result',
    chords: [{ key: 'ArrowDown' }, { key: 'Enter' }],
  },
]

export type GridAction =
  | 'row-down'
  | 'row-up'
  | 'extend-down'
  | 'extend-up'
  | 'page-down'
  | 'page-up'
  | 'first-row'
  | 'last-row'
  | 'cell-left'
  | 'cell-right'
  | 'open'
  | 'close'
  | 'select-all'
  | 'copy'
  | 'menu'
  | 'widen-column'
  | 'narrow-column'

export const GRID_SHORTCUTS: readonly Shortcut<GridAction>[] = [
  { id: 'row-down', label: 'Next row', chords: [{ key: 'ArrowDown' }] },
  {
    id: 'row-up',
    label: 'Previous row (from the first row: the column headers)',
    chords: [{ key: 'ArrowUp' }],
  },
  {
    id: 'extend-down',
    label: 'Add the next row to the selection',
    chords: [{ key: 'ArrowDown', shift: true }],
  },
  {
    id: 'extend-up',
    label: 'Add the previous row to the selection',
    chords: [{ key: 'ArrowUp', shift: true }],
  },
  { id: 'page-down', label: 'One screen down', chords: [{ key: 'PageDown' }] },
  { id: 'page-up', label: 'One screen up', chords: [{ key: 'PageUp' }] },
  { id: 'first-row', label: 'First row', chords: [{ key: 'Home' }, { key: 'Home', mod: true }] },
  { id: 'last-row', label: 'Last row', chords: [{ key: 'End' }, { key: 'End', mod: true }] },
  { id: 'cell-left', label: 'Previous column', chords: [{ key: 'ArrowLeft' }] },
  { id: 'cell-right', label: 'Next column', chords: [{ key: 'ArrowRight' }] },
  { id: 'open', label: 'Open the details (on a header: sort by it)', chords: [{ key: 'Enter' }] },
  { id: 'close', label: 'Close the details', chords: [{ key: 'Escape' }] },
  { id: 'select-all', label: 'Select every row', chords: [{ key: 'a', mod: true }] },
  {
    id: 'copy',
    label: 'Copy the selected rows (tab-separated, with headers)',
    chords: [{ key: 'c', mod: true }],
  },
  { id: 'menu', label: 'Row menu', chords: [{ key: 'ContextMenu' }, { key: 'F10', shift: true }] },
  {
    id: 'widen-column',
    label: 'Widen the current column',
    chords: [{ key: 'ArrowRight', mod: true, shift: true }],
  },
  {
    id: 'narrow-column',
    label: 'Narrow the current column',
    chords: [{ key: 'ArrowLeft', mod: true, shift: true }],
  },
]

/** The shortcuts panel's sections, in the order it shows them. */
export const SHORTCUT_SECTIONS: readonly {
  readonly title: string
  readonly shortcuts: readonly Shortcut[]
}[] = [
  { title: 'Anywhere', shortcuts: [...APP_SHORTCUTS, ...SEARCH_SHORTCUTS.filter((s) => s.id === 'find')] },
  { title: 'Search box', shortcuts: SEARCH_SHORTCUTS.filter((s) => s.id !== 'find') },
  { title: 'Employee table', shortcuts: GRID_SHORTCUTS },
]

/** The modifier and key state of a keyboard event: the DOM's KeyboardEvent and React's both fit. */
export interface KeyState {
  readonly key: string
  readonly ctrlKey: boolean
  readonly metaKey: boolean
  readonly altKey: boolean
  readonly shiftKey: boolean
}

/** True on macOS, where the shortcuts' modifier is Cmd. */
export function isMacPlatform(platform: string): boolean {
  return /^mac|darwin/i.test(platform)
}

/**
 * Whether an event is this chord. Shift is ignored for punctuation, whose key already says it ('/' is Shift+7 on a
 * German keyboard); for letters and named keys it must match, so Shift+↓ is not ↓.
 */
export function matchesChord(event: KeyState, chord: KeyChord, mac: boolean): boolean {
  const mod = mac ? event.metaKey : event.ctrlKey
  const other = mac ? event.ctrlKey : event.metaKey
  if (mod !== (chord.mod === true) || other || event.altKey) return false
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
  if (key !== chord.key) return false
  const punctuation = chord.key.length === 1 && !/[a-z0-9]/.test(chord.key)
  return punctuation || event.shiftKey === (chord.shift === true)
}

/** The id of the first shortcut in `list` the event is, if any. */
export function findShortcut<Id extends string>(
  event: KeyState,
  list: readonly Shortcut<Id>[],
  mac: boolean,
): Id | undefined {
  return list.find((shortcut) => shortcut.chords.some((chord) => matchesChord(event, chord, mac)))?.id
}

const KEY_NAMES: Readonly<Record<string, string>> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  PageDown: 'Page Down',
  PageUp: 'Page Up',
  Escape: 'Esc',
  ContextMenu: 'Menu key',
}

/** A chord as the clerk reads it: "Ctrl+E", "⌘E" on macOS, "Shift+F10". */
export function chordLabel(chord: KeyChord, mac: boolean): string {
  const key = KEY_NAMES[chord.key] ?? (chord.key.length === 1 ? chord.key.toUpperCase() : chord.key)
  if (mac) return `${chord.shift === true ? '⇧' : ''}${chord.mod === true ? '⌘' : ''}${key}`
  return [chord.mod === true ? 'Ctrl' : '', chord.shift === true ? 'Shift' : '', key]
    .filter(Boolean)
    .join('+')
}

/**
 * Chords as `aria-keyshortcuts` says them ("Control+P Meta+P"): both modifiers, because the attribute
 * describes the keys for assistive technology on any platform.
 */
export function ariaKeyShortcuts(chords: readonly KeyChord[]): string {
  return chords
    .flatMap((chord) => {
      const key = chord.key.length === 1 ? chord.key.toUpperCase() : chord.key
      const shift = chord.shift === true ? 'Shift+' : ''
      return chord.mod === true ? [`Control+${shift}${key}`, `Meta+${shift}${key}`] : [`${shift}${key}`]
    })
    .join(' ')
}

/** A chord as an Electron accelerator ("CmdOrCtrl+E", "F5"). */
export function chordAccelerator(chord: KeyChord): string {
  const key = chord.key.length === 1 ? chord.key.toUpperCase() : chord.key
  return [chord.mod === true ? 'CmdOrCtrl' : '', chord.shift === true ? 'Shift' : '', key]
    .filter(Boolean)
    .join('+')
}
