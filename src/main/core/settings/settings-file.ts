import Conf from 'conf'
import { join } from 'node:path'
import type { KeyValueBackend } from './key-value-backend'
import { openRecoveringUnreadable } from './unreadable-file'

/** electron-store's name for the settings file in the user-data folder (`<name>.json`). */
export const SETTINGS_STORE_NAME = 'settings'
export const SETTINGS_FILE_NAME = `${SETTINGS_STORE_NAME}.json`

/**
 * The settings file as the core process keeps it: conf, the library electron-store is built on (electron-store
 * is conf with Electron's paths, which a utility process does not have), over the same file the shell's
 * electron-store opens, so the format, the atomic write and the recovery of an unreadable file are the same.
 * Only the core process writes it once it runs; the shell reads it before starting it.
 */
export function openSettingsFile(dataDir: string, log: (message: string) => void): KeyValueBackend {
  const store = openRecoveringUnreadable(
    join(dataDir, SETTINGS_FILE_NAME),
    // clearInvalidConfig off: conf would otherwise silently empty an unreadable file.
    () =>
      new Conf<Record<string, unknown>>({
        cwd: dataDir,
        configName: SETTINGS_STORE_NAME,
        clearInvalidConfig: false,
      }),
    log,
  )
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    location: store.path,
  }
}
