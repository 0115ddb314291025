import { dirname, isAbsolute, join } from 'node:path'
import type { KeyValueBackend } from '../settings/settings-store'

const KEY = 'exportMemory'

/**
 * Where the clerk last saved an export, so the next save dialog opens there. Kept beside the settings rather
 * than in them: it is not something the clerk sets, and changing a setting re-reads the sign-in state.
 */
export class ExportMemory {
  constructor(private readonly backend: KeyValueBackend) {}

  /** The path the save dialog should offer: the last folder used, with `fileName` in it. */
  defaultPath(fileName: string): string {
    const folder = this.lastFolder()
    return folder === undefined ? fileName : join(folder, fileName)
  }

  /** Remembers the folder of a file that was written. */
  remember(filePath: string): void {
    if (isAbsolute(filePath)) this.backend.set(KEY, { lastFolder: dirname(filePath) })
  }

  /** The folder of the last file written, if it is remembered (and absolute). */
  lastFolder(): string | undefined {
    const stored: unknown = this.backend.get(KEY)
    if (typeof stored !== 'object' || stored === null) return undefined
    const folder = (stored as { lastFolder?: unknown }).lastFolder
    // Whatever is in the file is only a suggestion for the dialog, but a relative path would be resolved
    // against wherever the app happens to run.
    return typeof folder === 'string' && isAbsolute(folder) ? folder : undefined
  }
}
