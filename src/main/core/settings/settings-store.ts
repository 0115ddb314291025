import { dirname } from 'node:path'
import { applySettingsPatch, type Settings, type SettingsValidation } from '../../../shared/settings-schema'
import { diskFullError, isDiskFull } from '../disk-full'
import { RosterDeskError } from '../errors'
import type { PolicyInForce } from '../policy/policy-in-force'
import { PolicyRules } from '../policy/policy-rules'
import { ProfileStore } from './profile-store'
import type { MigrationResult } from './settings-migrations'
import type { KeyValueBackend } from './key-value-backend'

// The backend lives in a module of its own so the renderer's test fake can hold views in the real ViewStore.
export { MemoryKeyValueBackend, type KeyValueBackend } from './key-value-backend'

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

  readonly #backend: KeyValueBackend

  /**
   * `policy`: what reading the machine policy found (loadMachinePolicy); its rules are enforced by the profiles
   * (ProfileStore) on every read and write. Absent: no policy.
   */
  constructor(backend: KeyValueBackend, policy?: PolicyInForce) {
    this.#backend = backend
    this.profiles = new ProfileStore(backend, new PolicyRules(policy))
    this.loaded = this.profiles.loaded
  }

  /** The machine policy's rules (its `inForce`: the policy, its source, a problem). */
  get policy(): PolicyRules {
    return this.profiles.policy
  }

  /** Refuses `settings` for the active profile when they change a value the machine policy locks. */
  checkPolicy(settings: Settings): void {
    this.profiles.checkPolicy(this.profiles.activeId, settings)
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
    try {
      this.profiles.saveSettings(this.profiles.activeId, result.settings)
    } catch (error) {
      throw settingsWriteError(error, this.#backend.location, this.profiles.list())
    }
    for (const listener of this.#listeners) listener(this.get())
    return { ok: true, settings: this.get() }
  }

  /** Tells the listeners the active profile's settings changed by another way than `update` (decision 039). */
  notifyChanged(): void {
    for (const listener of this.#listeners) listener(this.get())
  }

  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}

/**
 * A backend that could not write, in the clerk's words. electron-store writes a temp file beside settings.json
 * and renames it (fsynced, via `atomically`), so a failed write leaves the file as it was; the error's `path` (the
 * temp file) names the folder.
 */
function settingsWriteError(error: unknown, location: string | undefined, stored: unknown): unknown {
  if (error instanceof RosterDeskError) return error
  const path = typeof error === 'object' && error !== null && 'path' in error ? error.path : location
  const folder = typeof path === 'string' ? dirname(path) : 'the settings folder'
  if (isDiskFull(error)) {
    return diskFullError({
      what: 'Saving the settings',
      folder,
      // The new file is written beside the old one before it replaces it.
      neededBytes: 2 * Buffer.byteLength(JSON.stringify(stored)),
      kept: 'The settings were not changed.',
      cause: error,
    })
  }
  return new RosterDeskError(
    'storage',
    `RosterDesk could not save the settings in ${folder}. Nothing was changed.`,
    {
      detail: error instanceof Error ? error.message : String(error),
      cause: error,
    },
  )
}
