import { applySettingsPatch, type Settings, type SettingsValidation } from '../../../shared/settings-schema'
import { SETTINGS_VERSION } from './settings-defaults'
import { migrateSettings, type MigrationResult } from './settings-migrations'

/**
 * The persistence the settings need: electron-store in the app (its `get`/`set` match structurally), a map in
 * tests. Synchronous because electron-store is, which lets `get()` answer without awaiting.
 */
export interface KeyValueBackend {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

/** Keys the store writes in its backend. */
export const SETTINGS_STORAGE_KEYS = { settings: 'settings', version: 'settingsVersion' } as const

/** A KeyValueBackend over a Map, for tests and for the CLI, which keeps no settings between runs. */
export class MemoryKeyValueBackend implements KeyValueBackend {
  readonly values = new Map<string, unknown>()

  get(key: string): unknown {
    return structuredClone(this.values.get(key))
  }

  set(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value))
  }
}

export type SettingsListener = (settings: Settings) => void

/**
 * The clerk's settings: loaded and migrated once, validated on every change, written through to the backend.
 * Holds no secret: the client secret and tokens live in the SecretStore, and unknown fields are refused.
 */
export class SettingsStore {
  readonly #backend: KeyValueBackend
  readonly #listeners = new Set<SettingsListener>()
  #settings: Settings
  /** What loading found, for the log and for telling the clerk which fields were reset. */
  readonly loaded: MigrationResult

  constructor(backend: KeyValueBackend) {
    this.#backend = backend
    this.loaded = migrateSettings(
      backend.get(SETTINGS_STORAGE_KEYS.settings),
      backend.get(SETTINGS_STORAGE_KEYS.version),
    )
    this.#settings = this.loaded.settings
    if (this.loaded.changed) this.#write()
  }

  /** A copy of the current settings. */
  get(): Settings {
    return structuredClone(this.#settings)
  }

  /**
   * Checks `patch` over the current settings with the shared schema (the form checks the same way before
   * sending); saves and notifies only when every field is valid.
   */
  update(patch: unknown): SettingsValidation {
    const result = applySettingsPatch(patch, this.#settings)
    if (!result.ok) return result
    this.#settings = result.settings
    this.#write()
    for (const listener of this.#listeners) listener(this.get())
    return { ok: true, settings: this.get() }
  }

  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #write(): void {
    this.#backend.set(SETTINGS_STORAGE_KEYS.settings, this.#settings)
    this.#backend.set(SETTINGS_STORAGE_KEYS.version, SETTINGS_VERSION)
  }
}
