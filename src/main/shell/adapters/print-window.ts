import { BrowserWindow, session } from 'electron'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { printFolderPrefix } from '../../core/export/print-folder'
import type { PagePrinter } from '../../core/export/print-view'
import { OWNER_FILE_MODE } from '../../core/owner-only'
import { PRINT_PARTITION } from '../window-and-startup/window-security'

/**
 * The shell's PagePrinter: loads the generated page (core/export/print-page.ts) in a hidden window that runs no
 * JavaScript, may not navigate, open windows or ask for permissions, and hands it to the system print dialog.
 *
 * The page goes through a private temporary file rather than a data: URL, because Chromium refuses URLs over
 * 2 MB and 5,000 rows of a wide view are more; the folder (mkdtemp's, 0700) and the file (0600) are the user's
 * only, and removed once the dialog closes. The folder is named with this process's pid (print-folder.ts), so the
 * core's start sweep removes one a crash left and never one being printed.
 */
export function createPrintWindowPrinter(parent: () => BrowserWindow | undefined): PagePrinter {
  return async ({ html, title }) => {
    const folder = await mkdtemp(join(tmpdir(), printFolderPrefix()))
    const file = join(folder, 'print.html')
    const owner = parent()
    const printSession = session.fromPartition(PRINT_PARTITION)
    printSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
    const window = new BrowserWindow({
      show: false,
      title,
      ...(owner === undefined ? {} : { parent: owner }),
      // Written out rather than built by a function so auditors' tools see the values; the unit test
      // window-literal.test.ts holds this object to printWebPreferences() in window-security.ts.
      webPreferences: {
        partition: PRINT_PARTITION,
        javascript: false,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
        spellcheck: false,
        disableBlinkFeatures: 'Auxclick',
      },
    })
    const contents = window.webContents
    contents.on('will-navigate', (event) => event.preventDefault())
    contents.on('will-redirect', (event) => event.preventDefault())
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(() => ({ action: 'deny' }))
    try {
      await writeFile(file, html, { encoding: 'utf8', mode: OWNER_FILE_MODE })
      await window.loadFile(file)
      return await new Promise((resolve, reject) => {
        contents.print({ silent: false, printBackground: true, landscape: true }, (success, reason) => {
          if (success) resolve('printed')
          else if (reason === 'cancelled' || reason === 'Print job canceled') resolve('cancelled')
          else reject(new Error(`Printing failed: ${reason}`))
        })
      })
    } finally {
      window.destroy()
      await rm(folder, { recursive: true, force: true })
    }
  }
}
