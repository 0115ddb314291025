import { Menu, type MenuItemConstructorOptions } from 'electron'

export interface AppMenuActions {
  readonly appName: string
  readonly platform: NodeJS.Platform
  /** Reload and DevTools exist only in development; a packaged build has neither in any menu. */
  readonly isPackaged: boolean
  openLogFolder(): void
  showAbout(): void
}

/**
 * The application menu a desktop user expects. Edit's roles are what make copy, paste and select-all work in the
 * page (Electron routes the shortcuts through them); View offers zoom; Help leads support to the log.
 */
export function appMenuTemplate(actions: AppMenuActions): MenuItemConstructorOptions[] {
  const mac = actions.platform === 'darwin'
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
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
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
              { role: 'reload' },
              { role: 'toggleDevTools' },
            ] satisfies MenuItemConstructorOptions[])),
      ],
    },
    { label: 'Window', submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }] : [{ role: 'minimize' }] },
    {
      label: 'Help',
      submenu: [
        { label: 'Open log folder', click: () => actions.openLogFolder() },
        ...(mac ? [] : [{ type: 'separator' } satisfies MenuItemConstructorOptions, about]),
      ],
    },
  )
  return template
}

export function installAppMenu(actions: AppMenuActions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(actions)))
}
