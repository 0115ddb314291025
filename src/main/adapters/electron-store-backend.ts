import Store from 'electron-store'
import type { KeyValueBackend } from '../core/settings/settings-store'

/**
 * Settings persistence: electron-store's JSON file in the user-data folder. It holds no secret (SettingsStore
 * refuses unknown fields and secrets live in the SecretStore), so plain JSON is fine here.
 */
export function createSettingsBackend(): KeyValueBackend {
  const store = new Store<Record<string, unknown>>({ name: 'settings', clearInvalidConfig: false })
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
  }
}
