import { applySettingsPatch, type Settings, type SettingsValidation } from '../../../shared/settings-schema'
import { ProfileStore } from './profile-store'
import type { MigrationResult } from './settings-migrations'

/**
 * The persistence the settings need: electron-store in the app (its `get`/`set` match structurally), a map in
 * tests. Synchronous because electron-store is, which lets `get()` answer without awaiting.
 */
export interface KeyValueBackend {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

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
 * The active profile's settings: loaded and migrated once (ProfileStore), validated on every change, written
 * through to the backend. Most of the app reads only these; switching profile is the app core's job, which
 * rebuilds everything that depends on them. Holds no secret: the client secret and tokens live in the
 * SecretStore, and unknown fields are refused.
 */
export class SettingsStore {
  readonly #listeners = new Set<SettingsListener>()
  /** Every profile, and which one is active. */
  readonly profiles: ProfileStore
  /** What loading found, for the log and for telling the clerk which fields were reset. */
  readonly loaded: MigrationResult

  constructor(backend: KeyValueBackend) {
    this.profiles = new ProfileStore(backend)
    this.loaded = this.profiles.loaded
  }

  /** A copy of the active profile's settings. */
  get(): Settings {
    return this.profiles.activeSettings()
  }

  /**
   * Checks `patch` over the current settings with the shared schema (the form checks the same way before
   * sending); saves and notifies only when every field is valid.
   */
  update(patch: unknown): SettingsValidation {
    const result = applySettingsPatch(patch, this.get())
    if (!result.ok) return result
    this.profiles.saveSettings(this.profiles.activeId, result.settings)
    for (const listener of this.#listeners) listener(this.get())
    return { ok: true, settings: this.get() }
  }

  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
