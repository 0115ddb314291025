import { app } from 'electron'
import Store from 'electron-store'
import { join } from 'node:path'
import type { KeyValueBackend } from '../core/settings/settings-store'
import { openRecoveringUnreadable } from '../core/settings/unreadable-file'

/**
 * Settings persistence: electron-store's JSON file in the user-data folder. It holds no secret (SettingsStore
 * refuses unknown fields and secrets live in the SecretStore), so plain JSON is fine here. The schema
 * (shared/settings-schema.ts) and the migrations (core/settings/settings-migrations.ts) are not electron-store's
 * own options, so that they run and are tested under plain Node, and the CLI and the renderer share the schema.
 */
export function createSettingsBackend(log: (message: string) => void): KeyValueBackend {
  const store = openRecoveringUnreadable(
    join(app.getPath('userData'), 'settings.json'),
    // clearInvalidConfig off: electron-store would otherwise silently empty an unreadable file.
    () => new Store<Record<string, unknown>>({ name: 'settings', clearInvalidConfig: false }),
    log,
  )
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    location: store.path,
  }
}
