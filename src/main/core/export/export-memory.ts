import { dirname, isAbsolute, join } from 'node:path'
import type { KeyValueBackend } from '../settings/settings-store'

const KEY = 'exportMemory'

/** What is stored: each profile's last folder by its id, and the one folder releases before that remembered. */
interface Stored {
  readonly folders: Readonly<Record<string, string>>
  readonly lastFolder?: string
}

/**
 * Where each profile last saved an export, so its next save dialog opens there and never in another client's
 * folder (issue 33, point 7). Kept beside the settings rather than in them: it is not something the clerk sets, and
 * changing a setting re-reads the sign-in state. The one folder older releases remembered for every profile
 * (`lastFolder`) is offered to a profile that has none of its own yet.
 */
export class ExportMemory {
  constructor(private readonly backend: KeyValueBackend) {}

  /** The path profile `profileId`'s save dialog should offer: its last folder used, with `fileName` in it. */
  defaultPath(profileId: string, fileName: string): string {
    const folder = this.lastFolder(profileId)
    return folder === undefined ? fileName : join(folder, fileName)
  }

  /** Remembers, as profile `profileId`'s, the folder of a file it wrote. */
  remember(profileId: string, filePath: string): void {
    if (!isAbsolute(filePath)) return
    const stored = this.read()
    this.backend.set(KEY, { ...stored, folders: { ...stored.folders, [profileId]: dirname(filePath) } })
  }

  /** Forgets profile `profileId`'s folder (the profile was deleted). */
  forget(profileId: string): void {
    const stored = this.read()
    if (!(profileId in stored.folders)) return
    const folders = Object.fromEntries(Object.entries(stored.folders).filter(([id]) => id !== profileId))
    this.backend.set(KEY, { ...stored, folders })
  }

  /** The folder profile `profileId` last wrote a file to, else the older releases' one, if remembered. */
  lastFolder(profileId: string): string | undefined {
    const stored = this.read()
    return stored.folders[profileId] ?? stored.lastFolder
  }

  /** Every folder remembered, each once (where the start sweeps part files a killed export left). */
  folders(): string[] {
    const stored = this.read()
    const all = [
      ...Object.values(stored.folders),
      ...(stored.lastFolder === undefined ? [] : [stored.lastFolder]),
    ]
    return [...new Set(all)]
  }

  /**
   * What the file holds, only its absolute folders: whatever is there is only a suggestion for the dialog, but a
   * relative path would be resolved against wherever the app happens to run.
   */
  private read(): Stored {
    const stored: unknown = this.backend.get(KEY)
    if (typeof stored !== 'object' || stored === null) return { folders: {} }
    const { folders, lastFolder } = stored as { folders?: unknown; lastFolder?: unknown }
    const kept: Record<string, string> = {}
    if (typeof folders === 'object' && folders !== null && !Array.isArray(folders)) {
      for (const [id, folder] of Object.entries(folders)) if (absolute(folder)) kept[id] = folder
    }
    return { folders: kept, ...(absolute(lastFolder) ? { lastFolder } : {}) }
  }
}

function absolute(folder: unknown): folder is string {
  return typeof folder === 'string' && isAbsolute(folder)
}
