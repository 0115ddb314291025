import { describe, expect, it, vi } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'
import { appMenuTemplate } from '../../../src/main/shell/app-menu'
import {
  APP_COMMANDS,
  APP_SHORTCUTS,
  ariaKeyShortcuts,
  chordAccelerator,
  chordLabel,
  findShortcut,
  GRID_SHORTCUTS,
  SHORTCUT_SECTIONS,
  type KeyState,
} from '../../../src/shared/shortcuts'

// app-menu.ts builds its template without Electron; only installing it needs Menu (not installed here).
vi.mock('electron', () => ({ Menu: {} }))

const key = (value: string, modifiers: Partial<KeyState> = {}): KeyState => ({
  key: value,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...modifiers,
})

function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])])
}

describe('the one table of shortcuts', () => {
  it('matches Ctrl on Windows and Linux, Cmd on macOS, and never the other', () => {
    expect(findShortcut(key('e', { ctrlKey: true }), APP_SHORTCUTS, false)).toBe('export')
    expect(findShortcut(key('E', { ctrlKey: true, shiftKey: true }), APP_SHORTCUTS, false)).toBeUndefined()
    expect(findShortcut(key('e', { metaKey: true }), APP_SHORTCUTS, false)).toBeUndefined()
    expect(findShortcut(key('e', { metaKey: true }), APP_SHORTCUTS, true)).toBe('export')
    expect(findShortcut(key('e', { ctrlKey: true }), APP_SHORTCUTS, true)).toBeUndefined()
    expect(findShortcut(key('F5'), APP_SHORTCUTS, false)).toBe('sync')
    expect(findShortcut(key('r', { ctrlKey: true }), APP_SHORTCUTS, false)).toBe('sync')
    expect(findShortcut(key(',', { ctrlKey: true }), APP_SHORTCUTS, false)).toBe('settings')
    // "/" is Shift+7 on a German keyboard: Shift does not matter for punctuation.
    expect(findShortcut(key('/', { ctrlKey: true, shiftKey: true }), APP_SHORTCUTS, false)).toBe('shortcuts')
    expect(findShortcut(key('e', { ctrlKey: true, altKey: true }), APP_SHORTCUTS, false)).toBeUndefined()
    expect(findShortcut(key('p', { ctrlKey: true }), APP_SHORTCUTS, false)).toBe('print')
    expect(findShortcut(key('p', { metaKey: true }), APP_SHORTCUTS, true)).toBe('print')
    expect(findShortcut(key('P', { ctrlKey: true, shiftKey: true }), APP_SHORTCUTS, false)).toBeUndefined()
  })

  it('tells ↓ from Shift+↓ and Home from Ctrl+Home in the table', () => {
    expect(findShortcut(key('ArrowDown'), GRID_SHORTCUTS, false)).toBe('row-down')
    expect(findShortcut(key('ArrowDown', { shiftKey: true }), GRID_SHORTCUTS, false)).toBe('extend-down')
    expect(findShortcut(key('Home', { ctrlKey: true }), GRID_SHORTCUTS, false)).toBe('first-row')
    expect(findShortcut(key('F10', { shiftKey: true }), GRID_SHORTCUTS, false)).toBe('menu')
    expect(findShortcut(key('F10'), GRID_SHORTCUTS, false)).toBeUndefined()
  })

  it('names keys for the clerk and for Electron', () => {
    expect(chordLabel({ key: 'e', mod: true }, false)).toBe('Ctrl+E')
    expect(chordLabel({ key: 'e', mod: true }, true)).toBe('⌘E')
    expect(chordLabel({ key: 'F10', shift: true }, false)).toBe('Shift+F10')
    expect(chordLabel({ key: 'ArrowDown' }, false)).toBe('↓')
    expect(chordAccelerator({ key: ',', mod: true })).toBe('CmdOrCtrl+,')
    expect(chordAccelerator({ key: 'e', mod: true })).toBe('CmdOrCtrl+E')
    expect(ariaKeyShortcuts([{ key: 'p', mod: true }])).toBe('Control+P Meta+P')
    expect(ariaKeyShortcuts([{ key: 'r', mod: true }, { key: 'F5' }])).toBe('Control+R Meta+R F5')
  })

  it('lists every app command in the Help panel and in the menu, with the same keys', () => {
    const listed = SHORTCUT_SECTIONS.flatMap((section) => section.shortcuts.map((shortcut) => shortcut.id))
    for (const command of APP_COMMANDS) expect(listed).toContain(command)

    for (const platform of ['win32', 'darwin'] as const) {
      const sent: string[] = []
      const template = appMenuTemplate({
        appName: 'RosterDesk',
        platform,
        isPackaged: true,
        openLogFolder: () => undefined,
        showAbout: () => undefined,
        checkForUpdates: () => undefined,
        sendCommand: (command) => sent.push(command),
      })
      const commandItems = items(template).filter((item) => item.accelerator !== undefined)
      for (const shortcut of APP_SHORTCUTS) {
        const item = commandItems.find((entry) => entry.accelerator === chordAccelerator(shortcut.chords[0]!))
        expect(item, `${platform} ${shortcut.id}`).toBeDefined()
        // Shown, not registered: the page handles the keys, so one press never runs a command twice.
        expect(item?.registerAccelerator).toBe(false)
        ;(item?.click as () => void)()
      }
      expect(sent).toEqual(APP_SHORTCUTS.map((shortcut) => shortcut.id))
      expect(items(template).some((item) => item.label === 'Keyboard shortcuts')).toBe(true)
      // Help → Export history asks the window to open it (no key of its own).
      sent.length = 0
      ;(items(template).find((item) => item.label === 'Export history')?.click as () => void)()
      expect(sent).toEqual(['export-history'])
      const file = template.find((item) => item.label === 'File')?.submenu as MenuItemConstructorOptions[]
      const print = file.find((item) => item.label === 'Print…')
      expect(print?.accelerator).toBe('CmdOrCtrl+P')
      sent.length = 0
      ;(print?.click as () => void)()
      expect(sent).toEqual(['print'])
      // Help → Save diagnostics… has no key: the menu asks the window, which asks the core (diagnostics-status.tsx).
      const help = template.find((item) => item.label === 'Help')?.submenu as MenuItemConstructorOptions[]
      const diagnostics = help.find((item) => item.label === 'Save diagnostics…')
      expect(diagnostics?.accelerator).toBeUndefined()
      sent.length = 0
      ;(diagnostics?.click as () => void)()
      expect(sent).toEqual(['save-diagnostics'])
    }
  })
})
