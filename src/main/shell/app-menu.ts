import { Menu, type MenuItemConstructorOptions } from 'electron'
import { APP_SHORTCUTS, chordAccelerator, type MenuCommand } from '../../shared/shortcuts'

export interface AppMenuActions {
  readonly appName: string
  readonly platform: NodeJS.Platform
  /** Reload and DevTools exist only in development; a packaged build has neither in any menu. */
  readonly isPackaged: boolean
  openLogFolder(): void
  showAbout(): void
  /** Help → Check for updates…: checks now, then shows About with the update state. */
  checkForUpdates(): void
  /** Asks the window to carry out a command (`app:command`), as its keyboard shortcut would. */
  sendCommand(command: MenuCommand): void
}

/**
 * A menu item for a window command, with its shortcut from the one table (shared/shortcuts.ts). The accelerator is
 * shown but not registered: the page handles the keys itself (so they work in the browser tests too), and a
 * registered one would run the command twice or swallow Ctrl+R before the page sees it.
 */
function commandItem(
  command: MenuCommand,
  label: string,
  send: (command: MenuCommand) => void,
): MenuItemConstructorOptions {
  const chord = APP_SHORTCUTS.find((shortcut) => shortcut.id === command)?.chords[0]
  return {
    label,
    ...(chord === undefined ? {} : { accelerator: chordAccelerator(chord), registerAccelerator: false }),
    click: () => send(command),
  }
}

/**
 * The application menu a desktop user expects. Edit's roles are what make copy, paste and select-all work in the
 * page (Electron routes the shortcuts through them); View offers zoom; Help leads support to the log.
 */
export function appMenuTemplate(actions: AppMenuActions): MenuItemConstructorOptions[] {
  const mac = actions.platform === 'darwin'
  const send = (command: MenuCommand): void => actions.sendCommand(command)
  const settings = commandItem('settings', 'Settings…', send)
  const about: MenuItemConstructorOptions = {
    label: `About ${actions.appName}`,
    click: () => actions.showAbout(),
  }
  const template: MenuItemConstructorOptions[] = []
  if (mac) {
    template.push({
      label: actions.appName,
      submenu: [
        about,
        { type: 'separator' },
        settings,
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    })
  }
  template.push(
    {
      label: 'File',
      submenu: [
        commandItem('export', 'Export…', send),
        commandItem('print', 'Print…', send),
        commandItem('sync', 'Sync', send),
        ...(mac ? [] : [settings]),
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'delete' },
        { type: 'separator' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(actions.isPackaged
          ? []
          : ([
              { type: 'separator' },
              // Not 'reload', whose Ctrl+R is Sync's; a developer reloads with Ctrl+Shift+R.
              { role: 'forceReload' },
              { role: 'toggleDevTools' },
            ] satisfies MenuItemConstructorOptions[])),
      ],
    },
    { label: 'Window', submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }] : [{ role: 'minimize' }] },
    {
      label: 'Help',
      submenu: [
        commandItem('shortcuts', 'Keyboard shortcuts', send),
        commandItem('export-history', 'Export history', send),
        { label: 'Open log folder', click: () => actions.openLogFolder() },
        commandItem('save-diagnostics', 'Save diagnostics…', send),
        { label: 'Check for updates…', click: () => actions.checkForUpdates() },
        ...(mac ? [] : [{ type: 'separator' } satisfies MenuItemConstructorOptions, about]),
      ],
    },
  )
  return template
}

export function installAppMenu(actions: AppMenuActions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(actions)))
}
