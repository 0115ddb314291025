import Conf from 'conf'
import { join } from 'node:path'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../owner-only'
import type { KeyValueBackend } from './key-value-backend'
import { SETTINGS_FILE_NAME, SETTINGS_STORE_NAME } from './settings-defaults'
import { openRecoveringUnreadable } from './unreadable-file'

/**
 * The settings file as the core process keeps it: conf, the library electron-store is built on (electron-store
 * is conf with Electron's paths, which a utility process does not have), over the same file the shell's
 * electron-store opens, so the format, the atomic write and the recovery of an unreadable file are the same.
 * Only the core process writes it once it runs; the shell reads it before starting it. The folder, when this
 * creates it, is 0700 and the file is written 0600 (owner-only.ts: saved searches name employees).
 */
export function openSettingsFile(dataDir: string, log: (message: string) => void): KeyValueBackend {
  mkdirOwnerOnly(dataDir)
  const store = openRecoveringUnreadable(
    join(dataDir, SETTINGS_FILE_NAME),
    // clearInvalidConfig off: conf would otherwise silently empty an unreadable file.
    () =>
      new Conf<Record<string, unknown>>({
        cwd: dataDir,
        configName: SETTINGS_STORE_NAME,
        clearInvalidConfig: false,
        configFileMode: OWNER_FILE_MODE,
      }),
    log,
  )
  return confBackend(store)
}

/** A conf store as the settings' KeyValueBackend (electron-store's stores are conf stores too). */
export function confBackend(store: Conf<Record<string, unknown>>): KeyValueBackend {
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    location: store.path,
  }
}
