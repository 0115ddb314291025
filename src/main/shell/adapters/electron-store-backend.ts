import { app } from 'electron'
import Store from 'electron-store'
import { join } from 'node:path'
import type { KeyValueBackend } from '../../core/settings/settings-store'
import { SETTINGS_STORE_NAME } from '../../core/settings/settings-defaults'
import { confBackend } from '../../core/settings/settings-file'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../../core/owner-only'
import { openRecoveringUnreadable } from '../../core/settings/unreadable-file'

/**
 * Settings persistence: electron-store's JSON file in the user-data folder. It holds no secret (SettingsStore
 * refuses unknown fields and secrets live in the SecretStore), so plain JSON is fine here. The schema
 * (shared/settings-schema.ts) and the migrations (core/settings/settings-migrations.ts) are not electron-store's
 * own options, so that they run and are tested under plain Node, and the CLI and the renderer share the schema.
 * The shell reads it at start; the core process (core/settings/settings-file.ts, the same file through conf)
 * is its only writer once it runs. Each file is written 0600, and the user-data folder, when this creates it,
 * is 0700 (owner-only.ts).
 */
export function createSettingsBackend(log: (message: string) => void): KeyValueBackend {
  return openStore(SETTINGS_STORE_NAME, log)
}

/**
 * The shell's own small memories (the window's bounds), in a file of their own: two processes writing one
 * electron-store file could each overwrite the other's change.
 */
export function createWindowStateBackend(log: (message: string) => void): KeyValueBackend {
  return openStore('window-state', log)
}

function openStore(name: string, log: (message: string) => void): KeyValueBackend {
  mkdirOwnerOnly(app.getPath('userData'))
  const store = openRecoveringUnreadable(
    join(app.getPath('userData'), `${name}.json`),
    // clearInvalidConfig off: electron-store would otherwise silently empty an unreadable file.
    () =>
      new Store<Record<string, unknown>>({
        name,
        clearInvalidConfig: false,
        configFileMode: OWNER_FILE_MODE,
      }),
    log,
  )
  return confBackend(store)
}
