import { normalizeBaseUrl, normalizeScopes } from '../../../shared/settings-rules'
import {
  applySettingsPatch,
  settingsSchema,
  type Settings,
  type SettingsField,
} from '../../../shared/settings-schema'
import { SETTINGS_VERSION, defaultSettings } from './settings-defaults'

export interface MigrationResult {
  settings: Settings
  /** The version the data was stored with (0 when it carried none). */
  fromVersion: number
  /** True when the stored data should be written back in the current layout. */
  changed: boolean
  /** Fields whose stored value could not be kept and went back to the default (names only, never values). */
  resetFields: SettingsField[]
}

type Raw = Record<string, unknown>
type Migration = (data: Raw) => Raw

/**
 * One step per version: MIGRATIONS[n] turns layout n into layout n + 1. Steps are pure and never throw; anything
 * they cannot make sense of is left for validation to reset to its default.
 */
const MIGRATIONS: readonly Migration[] = [
  // v0, the unversioned layout of the first preview builds: flat `stagingBaseUrl` / `productionBaseUrl`, a
  // comma-separated `scope`, `payCycles` for the tracked list, and `sandbox` as the name of the Demo environment.
  (data) => {
    const { stagingBaseUrl, productionBaseUrl, scope, payCycles, ...rest } = data
    const next: Raw = { ...rest }
    if (next.environment === 'sandbox') next.environment = 'demo'
    if (next.baseUrls === undefined && (stagingBaseUrl !== undefined || productionBaseUrl !== undefined)) {
      next.baseUrls = {
        staging: typeof stagingBaseUrl === 'string' ? normalizeBaseUrl(stagingBaseUrl) : '',
        production: typeof productionBaseUrl === 'string' ? normalizeBaseUrl(productionBaseUrl) : '',
      }
    }
    if (next.scopes === undefined && typeof scope === 'string') next.scopes = normalizeScopes(scope)
    if (next.trackedPayCycles === undefined && payCycles !== undefined) next.trackedPayCycles = payCycles
    return next
  },
]

/**
 * Brings stored settings of any earlier version to the current layout, then validates field by field: a value
 * that no longer validates goes back to its default alone, so one bad field never costs the clerk the rest.
 * Data from a newer version (a downgrade) is read as far as it validates and left unwritten.
 */
export function migrateSettings(stored: unknown, storedVersion: unknown): MigrationResult {
  const fromVersion =
    typeof storedVersion === 'number' && Number.isInteger(storedVersion) && storedVersion >= 0
      ? storedVersion
      : 0
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    return { settings: defaultSettings(), fromVersion, changed: stored !== undefined, resetFields: [] }
  }
  let data: Raw = { ...(stored as Raw) }
  for (let version = fromVersion; version < SETTINGS_VERSION; version++) {
    const step = MIGRATIONS[version]
    if (step) data = step(data)
  }

  let settings = defaultSettings()
  const resetFields: SettingsField[] = []
  // Each field by its own rule (settingsSchema, not the save rules): a stored environment whose address is
  // still empty loads as it was saved, and sign-in says what is missing.
  const apply = (patch: Raw) => applySettingsPatch(patch, settings, settingsSchema)
  for (const [key, value] of Object.entries(data)) {
    // Keys this version does not know are dropped (written back without them when allowed).
    if (!Object.hasOwn(settings, key)) continue
    const result = apply({ [key]: value })
    if (result.ok) {
      settings = result.settings
    } else if (key === 'baseUrls') {
      // Keep whichever of the two addresses still validates.
      for (const which of ['staging', 'production'] as const) {
        const urls = typeof value === 'object' && value !== null ? (value as Raw) : {}
        const one = apply({ baseUrls: { [which]: urls[which] } })
        if (one.ok) settings = one.settings
        else resetFields.push(`baseUrls.${which}`)
      }
    } else {
      resetFields.push(...(Object.keys(result.fieldErrors) as SettingsField[]))
    }
  }
  const changed = fromVersion < SETTINGS_VERSION || resetFields.length > 0 || !sameJson(stored, settings)
  return { settings, fromVersion, changed: fromVersion <= SETTINGS_VERSION && changed, resetFields }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
