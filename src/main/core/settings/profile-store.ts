import { join } from 'node:path'
import {
  environmentLabel,
  normalizeProfileName,
  profileNameProblem,
  type Environment,
} from '../../../shared/settings-rules'
import type { Settings } from '../../../shared/settings-schema'
import { RosterDeskError } from '../errors'
import { managedProfileError, NO_POLICY_RULES, type PolicyRules } from '../policy/policy-rules'
import { DEFAULT_SETTINGS, SETTINGS_VERSION, defaultSettings } from './settings-defaults'
import { migrateSettings, type MigrationResult } from './settings-migrations'
import type { KeyValueBackend } from './key-value-backend'
import { ViewStore } from './view-store'

/** One environment a clerk works in: its name and its settings (its cache and secrets are keyed by `id`). */
export interface Profile {
  readonly id: string
  readonly name: string
  readonly settings: Settings
}

import { FIRST_PROFILE_ID } from '../../../shared/settings-rules'

/** Re-exported for core's callers; the id itself is shared with the renderer (settings-rules.ts). */
export { FIRST_PROFILE_ID }

export const CACHE_FILE_NAME = 'employees.sqlite'

/**
 * A profile's cache folder. The first profile's is `<dataDir>/cache`, where a release before profiles kept its
 * one cache (so upgrading moves nothing); every other profile's is `<dataDir>/profiles/<id>/cache`.
 */
export function profileCacheDir(dataDir: string, profileId: string): string {
  return profileId === FIRST_PROFILE_ID
    ? join(dataDir, 'cache')
    : join(profileDataDir(dataDir, profileId), 'cache')
}

/** Everything a profile keeps on disk (what deleting it removes). */
export function profileDataDir(dataDir: string, profileId: string): string {
  return profileId === FIRST_PROFILE_ID ? join(dataDir, 'cache') : join(dataDir, 'profiles', profileId)
}

/**
 * Backend keys. `settingsVersion` 2 means `profiles` holds every profile (each in settings layout
 * SETTINGS_VERSION); 0 and 1 are the flat `settings` of earlier releases, which migration reads into profile 1
 * and leaves in place, so a downgraded release still opens (read-only, as for any newer file) with them.
 */
export const PROFILE_STORAGE_KEYS = {
  profiles: 'profiles',
  flat: 'settings',
  version: 'settingsVersion',
} as const
export const PROFILES_LAYOUT_VERSION = 2

interface StoredProfiles {
  activeId: string
  profiles: Profile[]
  /**
   * The number the next profile's id gets. Kept, not derived from the list: a deleted profile's id is never given
   * again, so a new profile cannot meet what a deleted one left behind (secrets, a cache folder, views).
   */
  nextNumber: number
}

/**
 * The clerk's profiles and which one is active, persisted through the settings' backend. Validates every
 * change (unique names, the active profile cannot be deleted) and writes through. The one place the machine
 * policy meets the settings (`PolicyRules`, decision 042): its profiles are created when missing, its locked
 * values and network are applied to every read (settings.json may have been edited behind the app's back), a
 * write that changes a locked value is refused, and its profiles cannot be renamed or deleted.
 */
export class ProfileStore {
  readonly #backend: KeyValueBackend
  /** The machine policy's rules over these profiles. */
  readonly policy: PolicyRules
  #profiles: Profile[]
  #activeId: string
  #nextNumber: number
  /** What loading the active profile's settings found (fields reset, whether a migration ran). */
  readonly loaded: MigrationResult
  /** Each profile's current and saved views, in the same backend (deleting a profile deletes them). */
  readonly views: ViewStore

  constructor(backend: KeyValueBackend, policy: PolicyRules = NO_POLICY_RULES) {
    this.#backend = backend
    this.policy = policy
    this.views = new ViewStore(backend)
    const stored = readStored(backend.get(PROFILE_STORAGE_KEYS.profiles))
    if (stored === undefined) {
      // A release before profiles: its flat settings become profile 1, named after its environment.
      const flat = migrateSettings(
        backend.get(PROFILE_STORAGE_KEYS.flat),
        backend.get(PROFILE_STORAGE_KEYS.version),
      )
      this.#profiles = [
        { id: FIRST_PROFILE_ID, name: environmentLabel(flat.settings.environment), settings: flat.settings },
      ]
      this.#activeId = FIRST_PROFILE_ID
      this.#nextNumber = 2
      this.#write()
      this.#createPolicyProfiles()
      // A first start (no settings at all) opens on the policy's first profile, the one IT set up for this desk.
      const first = firstStart(backend) ? this.#policyFirstProfile() : undefined
      if (first !== undefined) this.setActive(first)
      this.loaded =
        first === undefined
          ? { ...flat, changed: true }
          : { settings: this.activeSettings(), fromVersion: flat.fromVersion, changed: true, resetFields: [] }
      return
    }
    let changed = stored.changed
    let activeLoad: MigrationResult | undefined
    this.#profiles = stored.profiles.map((raw) => {
      const result = migrateSettings(raw.settings, SETTINGS_VERSION)
      if (result.changed) changed = true
      if (raw.id === stored.activeId) activeLoad = result
      return { id: raw.id, name: raw.name, settings: result.settings }
    })
    this.#activeId = activeLoad === undefined ? (this.#profiles[0]?.id ?? FIRST_PROFILE_ID) : stored.activeId
    // A file from before the counter (or hand-edited below its ids) starts past every id it lists; the counter
    // is written with the next change, at the latest with the delete that would otherwise free an id.
    const pastListed = Math.max(0, ...this.#profiles.map((p) => idNumber(p.id))) + 1
    this.#nextNumber = Math.max(stored.nextNumber ?? 0, pastListed)
    this.loaded = activeLoad ?? {
      settings: this.activeSettings(),
      fromVersion: PROFILES_LAYOUT_VERSION,
      changed: true,
      resetFields: [],
    }
    if (changed || activeLoad === undefined) this.#write()
    this.#createPolicyProfiles()
  }

  /** The policy's profiles that no profile's name matches (ignoring case), created with the policy's values. */
  #createPolicyProfiles(): void {
    const missing = (this.policy.policy?.profiles ?? []).filter(
      (wanted) => !this.#profiles.some((p) => p.name.toLowerCase() === wanted.name.toLowerCase()),
    )
    if (missing.length === 0) return
    for (const wanted of missing) {
      const id = `p${this.#nextNumber}`
      this.#nextNumber += 1
      const settings = this.policy.initialSettings(wanted, defaultSettings())
      this.#profiles = [...this.#profiles, { id, name: wanted.name, settings }]
    }
    this.#write()
  }

  /** The id of the profile named as the policy's first profile (ignoring case), if the policy defines any. */
  #policyFirstProfile(): string | undefined {
    const wanted = this.policy.policy?.profiles?.[0]?.name.toLowerCase()
    return wanted === undefined ? undefined : this.#profiles.find((p) => p.name.toLowerCase() === wanted)?.id
  }

  /** Whether profile `id` is the machine policy's (it cannot be renamed or deleted). */
  isManaged(id: string): boolean {
    return this.policy.isManaged(this.get(id).name)
  }

  /** Refuses `settings` for profile `id` when they change a value the machine policy locks. */
  checkPolicy(id: string, settings: Settings): void {
    this.policy.checkWrite(this.get(id).name, settings)
  }

  get activeId(): string {
    return this.#activeId
  }

  /** Every profile, its settings with the machine policy in force. */
  list(): Profile[] {
    return this.#profiles.map((profile) => this.#enforced(profile))
  }

  /** One profile, its settings with the machine policy in force. */
  get(id: string): Profile {
    const profile = this.#profiles.find((candidate) => candidate.id === id)
    if (profile === undefined) throw new RosterDeskError('not-found', 'That profile no longer exists.')
    return this.#enforced(profile)
  }

  #enforced(profile: Profile): Profile {
    return {
      id: profile.id,
      name: profile.name,
      settings: this.policy.apply(profile.name, structuredClone(profile.settings)),
    }
  }

  activeSettings(): Settings {
    return this.get(this.#activeId).settings
  }

  /** Replaces one profile's settings (already validated by the caller); refused when they change a locked value. */
  saveSettings(id: string, settings: Settings): void {
    this.checkPolicy(id, settings)
    const before = this.#profiles
    this.#profiles = this.#profiles.map((p) =>
      p.id === id ? { ...p, settings: structuredClone(settings) } : p,
    )
    try {
      this.#write()
    } catch (error) {
      // Not saved (a full disk, say): the settings in use stay those on the disk.
      this.#profiles = before
      throw error
    }
  }

  setActive(id: string): void {
    this.get(id)
    this.#activeId = id
    this.#write()
  }

  /**
   * Adds a profile with the first-run settings in the environment the clerk chose (Demo unless said), so a client
   * company's Production profile never starts out as Demo; its address and client id are set after switching.
   */
  create(name: string, environment: Environment = DEFAULT_SETTINGS.environment): Profile {
    const normalized = this.#checkName(name, undefined)
    const id = `p${this.#nextNumber}`
    const profile: Profile = { id, name: normalized, settings: { ...defaultSettings(), environment } }
    this.#profiles = [...this.#profiles, profile]
    this.#nextNumber += 1
    this.#write()
    return structuredClone(profile)
  }

  rename(id: string, name: string): Profile {
    const current = this.get(id)
    if (this.policy.isManaged(current.name))
      throw managedProfileError(current.name, 'renamed', this.policy.inForce.source)
    const normalized = this.#checkName(name, id)
    this.#profiles = this.#profiles.map((p) => (p.id === id ? { ...p, name: normalized } : p))
    this.#write()
    return this.get(id)
  }

  /**
   * Refuses, as `delete` would, to delete profile `id` (gone, the machine policy's, or active): asked before its
   * data is deleted, so a profile that stays keeps its data.
   */
  checkDeletable(id: string): void {
    const current = this.get(id)
    if (this.policy.isManaged(current.name))
      throw managedProfileError(current.name, 'deleted', this.policy.inForce.source)
    if (id === this.#activeId) {
      throw new RosterDeskError('validation', 'Switch to another profile before deleting this one.')
    }
  }

  /**
   * Removes a profile that is not active, and its views; its cache and secrets are the caller's to delete first
   * (`checkDeletable`, then the data, then this), so a failed deletion leaves a profile the clerk can delete again.
   */
  delete(id: string): void {
    this.checkDeletable(id)
    this.#profiles = this.#profiles.filter((p) => p.id !== id)
    this.#write()
    this.views.deleteProfile(id)
  }

  /**
   * Whether `id` was a profile's and that profile is gone: an id below the counter that no profile has. A settings
   * file read afresh (lost, or unreadable and set aside) counts from 2 again, so no folder of a profile it does not
   * know is ever taken for a deleted one's.
   */
  wasDeleted(id: string): boolean {
    return (
      isProfileId(id) &&
      idNumber(id) < this.#nextNumber &&
      !this.#profiles.some((profile) => profile.id === id)
    )
  }

  #checkName(name: string, exceptId: string | undefined): string {
    const normalized = normalizeProfileName(name)
    const problem = profileNameProblem(
      normalized,
      this.#profiles.filter((p) => p.id !== exceptId).map((p) => p.name),
    )
    if (problem !== undefined)
      throw new RosterDeskError('validation', problem, { fieldErrors: { name: problem } })
    return normalized
  }

  #write(): void {
    const stored: StoredProfiles = {
      activeId: this.#activeId,
      profiles: this.#profiles,
      nextNumber: this.#nextNumber,
    }
    this.#backend.set(PROFILE_STORAGE_KEYS.profiles, stored)
    this.#backend.set(PROFILE_STORAGE_KEYS.version, PROFILES_LAYOUT_VERSION)
  }
}

/** Whether the backend holds no settings of any release: the app's first start on this computer for this user. */
function firstStart(backend: KeyValueBackend): boolean {
  return backend.get(PROFILE_STORAGE_KEYS.flat) === undefined
}

const PROFILE_ID = /^p[0-9]{1,9}$/

/** Whether `name` has the form of a profile id (`p12`): how a profile's folder is told from anything beside it. */
export function isProfileId(name: string): boolean {
  return PROFILE_ID.test(name)
}
const MAX_PROFILE_NUMBER = 999_999_999

/** `p12` → 12 (ids are checked against PROFILE_ID on reading). */
function idNumber(id: string): number {
  return Number(id.slice(1))
}

/**
 * The stored list, or undefined when there is none (a release before profiles). Entries without a usable id
 * or name are skipped; their settings are validated field by field by the caller.
 */
function readStored(value: unknown):
  | {
      activeId: string
      profiles: Array<{ id: string; name: string; settings: unknown }>
      nextNumber: number | undefined
      changed: boolean
    }
  | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const raw = value as { activeId?: unknown; profiles?: unknown; nextNumber?: unknown }
  if (!Array.isArray(raw.profiles)) return undefined
  const profiles: Array<{ id: string; name: string; settings: unknown }> = []
  for (const entry of raw.profiles as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue
    const { id, name, settings } = entry as { id?: unknown; name?: unknown; settings?: unknown }
    if (typeof id !== 'string' || !PROFILE_ID.test(id) || profiles.some((p) => p.id === id)) continue
    const shown =
      typeof name === 'string' && normalizeProfileName(name) !== '' ? normalizeProfileName(name) : id
    profiles.push({ id, name: shown, settings })
  }
  if (profiles.length === 0) return undefined
  return {
    activeId: typeof raw.activeId === 'string' ? raw.activeId : '',
    profiles,
    nextNumber:
      typeof raw.nextNumber === 'number' &&
      Number.isInteger(raw.nextNumber) &&
      raw.nextNumber > 0 &&
      raw.nextNumber <= MAX_PROFILE_NUMBER
        ? raw.nextNumber
        : undefined,
    changed: profiles.length !== raw.profiles.length,
  }
}
